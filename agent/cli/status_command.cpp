#include "status_command.hpp"

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iostream>

#include "coordinator_client.hpp"
#include "exit_status.hpp"
#include "exocheck/options/option_flags.hpp"

namespace exocheck::cli {
namespace {

constexpr std::chrono::seconds kConnectTimeout{5};

std::string state_words(proto::JobState state) {
  std::string name = proto::JobState_Name(state);
  if (name.starts_with("JOB_")) name = name.substr(4);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return c == '_' ? ' ' : std::tolower(c); });
  return name;
}

std::string plural(std::uint64_t count, const std::string& word, const std::string& words = "") {
  return fmt::format("{} {}", count, count == 1 ? word : words.empty() ? word + "s" : words);
}

}  // namespace

StatusCommand::StatusCommand(CLI::App& parent)
    : app_(parent.add_subcommand("status", "Show a coordinator's jobs with their progress, and its agents")) {
  app_->add_option("--coordinator", coordinator_, "The exocheck-coordinator at ADDR (host:port)")->required();
  options::add_json_flag(*app_, json_, "Print the status as JSON");
  link::add_link_flags(*app_, link_, "this client (for a coordinator that requires client certificates)");
}

std::string status_text(const std::string& address, const proto::CoordinatorStatus& status) {
  std::uint64_t slots = 0;
  for (const auto& agent : status.agents()) slots += agent.slots();
  std::string text = fmt::format("Coordinator {} (exocheck {})\n", address, status.version());
  text += fmt::format("Agents: {} ({})\n", status.agents_size(), plural(slots, "slot"));
  for (const auto& agent : status.agents()) {
    text += fmt::format("  {}  {}{}\n", agent.name(), plural(agent.slots(), "slot"),
                        agent.job_id() != 0 ? fmt::format(", job {}", agent.job_id()) : std::string());
  }
  text += fmt::format("Jobs: {}\n", status.jobs_size());
  for (const auto& job : status.jobs()) {
    text += fmt::format(
        "  job {}  {}  {}, {}, {}; {} out, {} waiting; {}; {:.1f} s\n", job.job_id(), state_words(job.state()),
        plural(job.paths(), "path"), plural(job.classes(), "class", "classes"), plural(job.bugs(), "bug"),
        plural(job.outstanding(), "subtree"), job.frontier(), plural(job.agents(), "agent"), job.elapsed_seconds());
    if (!job.error().empty()) text += "    error: " + job.error() + "\n";
  }
  return text;
}

int StatusCommand::execute() const {
  link::LinkSettings settings;
  try {
    settings = link::read_link_settings(link_);
  } catch (const std::invalid_argument& error) {
    throw InputError(std::string("status: ") + error.what());
  }
  if (auto refusal = link::plaintext_refusal(settings, coordinator_, "connecting to"); !refusal.empty()) {
    throw InputError("status: " + refusal);
  }
  proto::CoordinatorStatus status;
  try {
    agent::CoordinatorClient client(coordinator_, kConnectTimeout, settings);
    status = client.status();
  } catch (const agent::CoordinatorError& error) {
    throw InputError(std::string("status: ") + error.what());
  }
  if (json_) {
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = true;
    options.preserve_proto_field_names = true;
    options.always_print_primitive_fields = true;
    std::string json;
    if (!google::protobuf::util::MessageToJsonString(status, &json, options).ok()) {
      throw std::runtime_error("cannot print the status as JSON");
    }
    std::cout << json << (json.ends_with('\n') ? "" : "\n");
  } else {
    std::cout << status_text(coordinator_, status);
  }
  return 0;
}

}  // namespace exocheck::cli
