// exocheck: the command line over the runner and the trace tools. Each subcommand lives in its
// own file; this one only parses, dispatches and turns errors into exit status 2.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "command_line.hpp"
#include "exit_status.hpp"
#include "exocheck/options/daemon_flags.hpp"
#include "explore_command.hpp"
#include "record_command.hpp"
#include "replay_command.hpp"
#include "run_command.hpp"
#include "shrink_command.hpp"
#include "status_command.hpp"
#include "subject_command.hpp"
#include "trace_command.hpp"

namespace {

// Results go to stdout; logs and errors go to stderr, one line each.
void log_to_stderr() {
  auto logger = spdlog::stderr_color_mt("exocheck");
  logger->set_pattern("exocheck: %^%l%$: %v");
  spdlog::set_default_logger(logger);
}

std::vector<const char*> pointers_to(const std::vector<std::string>& words) {
  std::vector<const char*> pointers;
  for (const auto& word : words) pointers.push_back(word.c_str());
  return pointers;
}

// CLI11 reports a missing subcommand before the unknown word that was meant as one; name it.
std::string unexpected_words(const CLI::App& app) {
  std::string words;
  for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (command->parsed()) return unexpected_words(*command);
  }
  for (const auto& word : app.remaining()) words += (words.empty() ? "; unexpected: " : " ") + word;
  return words;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace exocheck::cli;
  log_to_stderr();
  remember_command_line(argc, argv);
  CLI::App app{"exocheck: systematic testing of actor programs, one controlled run at a time", "exocheck"};
  exocheck::options::add_version_flag(app, "exocheck");
  app.require_subcommand(1);
  RunCommand run(app);
  ExploreCommand explore(app);
  ReplayCommand replay(app);
  RecordCommand record(app);
  ShrinkCommand shrink(app);
  TraceCommand trace(app);
  StatusCommand status(app);

  SubjectCommand subject;
  const auto words = SubjectCommand::split(argc, argv, subject);
  const auto pointers = pointers_to(words);
  try {
    app.parse(static_cast<int>(pointers.size()), pointers.data());
  } catch (const CLI::Success& done) {  // --help, --version
    return app.exit(done);
  } catch (const CLI::ParseError& error) {
    spdlog::error("{}{} (see --help)", error.what(), unexpected_words(app));
    return kInputError;
  }
  try {
    if (run.chosen()) return run.execute(subject);
    if (explore.chosen()) return explore.execute(subject);
    if (replay.chosen()) return replay.execute(subject);
    if (record.chosen()) return record.execute(subject);
    if (shrink.chosen()) return shrink.execute(subject);
    if (status.chosen()) return status.execute();
    return trace.execute(subject);
  } catch (const InputError& error) {
    spdlog::error("{}", error.what());
    return kInputError;
  } catch (const std::exception& error) {
    spdlog::critical("internal error: {}", error.what());
    return kInputError;
  }
}
