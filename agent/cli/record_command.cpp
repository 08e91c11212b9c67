#include "record_command.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "exocheck/wire/free_run_log.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "free_run_trace.hpp"
#include "hook_attachment.hpp"
#include "json_text.hpp"
#include "program_file.hpp"
#include "record_junit.hpp"

extern char** environ;

namespace exocheck::cli {
namespace {

constexpr const char* kRecordVariable = "EXOCHECK_RECORD";

/// The first "recorded-N.trace" in `out` that does not exist yet.
std::filesystem::path next_trace_path(const std::filesystem::path& out) {
  for (int n = 1;; ++n) {
    auto path = out / ("recorded-" + std::to_string(n) + ".trace");
    if (!std::filesystem::exists(path)) return path;
  }
}

/// Waits for `child`; past `timeout` seconds (0: never) stops it with SIGTERM, which its recorder
/// writes its lines at, then SIGKILL after 5 seconds more. Ctrl-C goes to the program (its terminal
/// group), not here: the run it stops is still made into a trace.
int wait_for(pid_t child, double timeout) {
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &previous);
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const auto limit = std::chrono::duration<double>(timeout);
  int status = 0;
  bool terminated = false;
  for (;;) {
    const pid_t ended = ::waitpid(child, &status, timeout > 0 ? WNOHANG : 0);
    if (ended == child || (ended < 0 && errno != EINTR)) break;
    if (ended == 0) {
      const auto waited = Clock::now() - started;
      if (!terminated && waited > limit) {
        ::kill(child, SIGTERM);
        terminated = true;
      } else if (terminated && waited > limit + std::chrono::seconds(5)) {
        ::kill(child, SIGKILL);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ::sigaction(SIGINT, &previous, nullptr);
  return status;
}

/// Runs `words` with EXOCHECK_RECORD=log (and no control channel: a free run), waits for it;
/// `preload` (the CAF adapter, for a CAF program) goes first in LD_PRELOAD.
/// `quiet_stdout`: the program's standard output goes to standard error (--json owns stdout).
ProcessEnd run_recorded(const std::vector<std::string>& words, const std::filesystem::path& log,
                        const std::string& preload, bool quiet_stdout, double timeout) {
  std::vector<std::string> environment{std::string(kRecordVariable) + "=" + log.string()};
  std::string preloads = preload;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    const std::string_view entry(*variable);
    if (entry.starts_with(std::string(kRecordVariable) + "=") || entry.starts_with("EXOCHECK_CONTROL_FD=")) continue;
    if (entry.starts_with("LD_PRELOAD=")) {
      const auto others = entry.substr(std::strlen("LD_PRELOAD="));
      preloads = preloads.empty() ? std::string(others) : preloads + ":" + std::string(others);
      continue;
    }
    environment.emplace_back(entry);
  }
  if (!preloads.empty()) environment.push_back("LD_PRELOAD=" + preloads);
  std::vector<char*> envp;
  for (auto& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_words = words;
  std::vector<char*> argv;
  for (auto& word : argv_words) argv.push_back(word.data());
  argv.push_back(nullptr);
  int exec_error[2];
  if (::pipe2(exec_error, O_CLOEXEC) != 0) throw InputError(std::string("record: pipe: ") + std::strerror(errno));
  const pid_t child = ::fork();
  if (child < 0) throw InputError(std::string("record: fork: ") + std::strerror(errno));
  if (child == 0) {
    ::close(exec_error[0]);
    if (quiet_stdout) ::dup2(STDERR_FILENO, STDOUT_FILENO);
    ::execvpe(argv[0], argv.data(), envp.data());
    const int error = errno;
    (void)!::write(exec_error[1], &error, sizeof error);
    ::_exit(127);
  }
  ::close(exec_error[1]);
  int error = 0;
  const bool exec_failed = ::read(exec_error[0], &error, sizeof error) == sizeof error;
  ::close(exec_error[0]);
  const int status = wait_for(child, timeout);
  if (exec_failed) throw InputError("record: cannot run '" + words.front() + "': " + std::strerror(error));
  ProcessEnd end;
  if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
  if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
  return end;
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A log in another version of the format (wire/free_run_log.hpp) is refused, both versions named,
// rather than misread: its program was built against another exocheck's hook.
void refuse_another_format(const std::string& log_of, std::string_view log) {
  namespace format = wire::free_run_log;
  const auto version = format::format_version_of(log);
  if (!version || *version == format::kFormatVersion) return;
  throw InputError("record: the log of " + log_of + " is in free-run log format version " + std::to_string(*version) +
                   ", this exocheck reads version " + std::to_string(format::kFormatVersion) +
                   ": record it with the program built against this exocheck's hook (exocheck::hook); no trace "
                   "was saved");
}

}  // namespace

RecordCommand::RecordCommand(CLI::App& parent)
    : app_(parent.add_subcommand(
          "record",
          "Run a program freely while recording each actor's deliveries; on a failure, save a trace to replay")) {
  app_->add_option("--out", out_, "Folder for the traces (recorded-N.trace)")->capture_default_str();
  app_->add_flag("--always", always_, "Save a trace of every run, not only of a failed one");
  app_->add_option("--junit", junit_,
                   "Write the run as JUnit XML to FILE for a CI server: one test case, failed with the run's status "
                   "and the command that replays its trace");
  app_->add_option("--timeout", timeout_,
                   "Seconds after which a run that has not ended is stopped (SIGTERM) and saved as hung (RUN_HANG); "
                   "0: wait as long as it runs")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app_->add_option("--from", from_,
                   "Make the trace from LOG, which a program a harness started wrote under EXOCHECK_RECORD=LOG "
                   "(no program is run; a step it began and never ended is where it died)");
  app_->add_flag("--json", json_,
                 "Print {failed, status, detail, steps, trace} as JSON (the program's own output goes to stderr)");
  app_->allow_extras();
  app_->footer(
      "Usage: exocheck record [OPTIONS] -- ./program [ARGS...]\n"
      "       exocheck record --from LOG [OPTIONS]\n"
      "The program runs as it does by hand (its thread pool, real time), with EXOCHECK_RECORD set: the hook\n"
      "(or, for a CAF program, exocheck's CAF adapter, preloaded; CAF's own scheduler runs it) records the\n"
      "order of each actor's deliveries and its choices. A failed check, an uncaught exception, a crash\n"
      "(SIGSEGV, SIGABRT, ...), a deadlock, a run stopped while it waited (--timeout, Ctrl-C, a harness's\n"
      "SIGTERM: RUN_HANG, which a replay reproduces by following every step to a deadlock or on) or a\n"
      "non-zero exit saves a trace; `exocheck replay TRACE` follows it under control. A program a test\n"
      "harness starts records when EXOCHECK_RECORD names a log file ('%p' in it: the process id);\n"
      "`record --from LOG` makes its trace.\n"
      "A run that did what a replay cannot follow yet (in a CAF program: a stream, a message a blocking\n"
      "receive skipped, CAF's testing DSL) saves no trace: exit 2, naming it.\n"
      "Exit status: 0 the run completed, 1 it failed, 2 bad arguments, a program that cannot be run, or a\n"
      "run a replay cannot follow.");
}

int RecordCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  if (from_.empty()) require_subject(subject, "record");
  if (!from_.empty() && subject.separator_given) throw InputError("record: --from runs no program; drop '-- ...'");
  std::error_code error;
  std::filesystem::create_directories(out_, error);
  if (error) throw InputError("record: cannot make folder '" + out_ + "': " + error.message());
  proto::TraceFile trace;
  std::string trace_log;
  double seconds = 0;
  if (!from_.empty()) {
    if (!std::filesystem::is_regular_file(from_)) throw InputError("record: no log file '" + from_ + "'");
    trace_log = read_all(from_);
    refuse_another_format("'" + from_ + "'", trace_log);
    trace = trace_of_free_run(trace_log, ProcessEnd{.known = false}, {}, {});
    if (trace.subject().empty()) throw InputError("record: '" + from_ + "' is not a log exocheck's hook wrote");
  } else {
    const auto log = std::filesystem::path(out_) / ("record-" + std::to_string(::getpid()) + ".log");
    std::filesystem::remove(log, error);
    // The hook is linked in, or (a CAF program) the adapter is preloaded, as for an exploration.
    const auto attachment = agent::hook_attachment(program_file(subject.words.front()));
    if (const auto* refused = std::get_if<agent::LaunchFailure>(&attachment)) {
      throw InputError("record: " + refused->detail);
    }
    const auto started = std::chrono::steady_clock::now();
    const ProcessEnd end =
        run_recorded(subject.words, log, std::get<agent::HookAttachment>(attachment).preload, json_, timeout_);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    trace_log = read_all(log);
    const std::string& lines = trace_log;
    std::filesystem::remove(log, error);
    // The hook's recorder begins its log with its version and the command line: no line, no
    // recording, and a run that recorded nothing must not pass for a clean one.
    if (!wire::free_run_log::format_version_of(lines)) {
      throw InputError("record: '" + subject.words.front() +
                       "' recorded nothing: it ended before its System (or its caf::actor_system) was made");
    }
    refuse_another_format("'" + subject.words.front() + "'", lines);
    const std::vector<std::string> args(subject.words.begin() + 1, subject.words.end());
    trace = trace_of_free_run(lines, end, subject.words.front(), args);
  }
  // A trace that a replay cannot follow would report a divergence, not the failure: refused.
  if (const auto constructs = unreplayable_constructs(trace_log); !constructs.empty()) {
    std::string named;
    for (const auto& construct : constructs) named += (named.empty() ? "" : "; ") + construct;
    const auto& result = trace.result();
    throw InputError("record: the run (" + proto::RunStatus_Name(result.status()) +
                     (result.detail().empty() ? "" : ": " + result.detail()) +
                     ") did what a replay cannot follow yet: " + named + "; no trace was saved");
  }
  std::string saved;
  if (failed(trace) || always_) {
    const auto path = next_trace_path(out_);
    try {
      wire::write_trace_file(path, trace);
    } catch (const wire::TraceFileError& failure) {
      throw InputError(std::string("record: ") + failure.what());
    }
    saved = path.string();
  }
  if (!junit_.empty()) {
    std::ofstream junit(junit_, std::ios::binary | std::ios::trunc);
    junit << recorded_run_junit(trace, saved, seconds);
    if (!junit.flush()) throw InputError("record: cannot write --junit '" + junit_ + "'");
  }
  const auto& result = trace.result();
  if (json_) {
    nlohmann::ordered_json report;
    report["failed"] = failed(trace);
    report["status"] = proto::RunStatus_Name(result.status());
    report["detail"] = result.detail();
    report["steps"] = result.steps();
    report["trace"] = saved.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(saved);
    std::cout << json_text(report) << "\n";
  } else {
    std::cout << "Recorded: " << result.steps() << " steps, " << proto::RunStatus_Name(result.status())
              << (result.detail().empty() ? "" : ": " + result.detail()) << "\n";
    if (!saved.empty()) std::cout << "Trace: " << saved << " (exocheck replay " << saved << ")\n";
  }
  return failed(trace) ? kBug : kNoBug;
}

}  // namespace exocheck::cli
