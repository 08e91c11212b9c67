#include "run_details.hpp"

#include <string.h>

#include <fmt/format.h>

namespace exocheck::agent {
namespace {

std::string prefix_phrase(std::size_t length) {
  return fmt::format("prefix of {} message{}", length, length == 1 ? "" : "s");
}

// "step 2 (message 0#1 at actor 1)"; the caller guarantees at least one event.
std::string step_phrase(const proto::Event& event) {
  if (event.step() == 0) return "step 0 (the initial step)";
  return fmt::format("step {} (message {} at actor {})", event.step(), event.message(), event.actor());
}

}  // namespace

std::string signal_name(int signal) {
  if (const char* abbreviation = ::sigabbrev_np(signal)) return fmt::format("SIG{}", abbreviation);
  return fmt::format("signal {}", signal);
}

std::string after_last_step(const std::vector<proto::Event>& events) {
  if (events.empty()) return "before any step";
  // The hook's last words recorded the step the process died in.
  return (events.back().outcome() == proto::STEP_CRASH ? "in " : "after ") + step_phrase(events.back());
}

std::string crash_detail(const RunContext& run, int signal) {
  return fmt::format("{} crashed with {} {}; {}", run.subject, signal_name(signal), after_last_step(run.events),
                     prefix_phrase(run.prefix_length));
}

std::string hang_detail(const RunContext& run, std::chrono::milliseconds timeout) {
  const std::string last = run.events.empty() ? "no step seen" : "last " + step_phrase(run.events.back());
  return fmt::format("{}: no result within {} ms; {}; {}", run.subject, timeout.count(), last,
                     prefix_phrase(run.prefix_length));
}

std::string exit_without_result_detail(const RunContext& run, int exit_code) {
  return fmt::format("{} exited with code {} without a result {}; {}", run.subject, exit_code,
                     after_last_step(run.events), prefix_phrase(run.prefix_length));
}

std::string protocol_error_detail(const RunContext& run, const std::string& problem) {
  return fmt::format("{}: {} {}; {}", run.subject, problem, after_last_step(run.events),
                     prefix_phrase(run.prefix_length));
}

std::string not_linked_detail(const std::string& subject, int exit_code, const std::string& stderr_tail) {
  // Its last two lines: an argument parser says what it refused, then where to read more.
  std::string last = stderr_tail;
  while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
  if (const auto newline = last.rfind('\n'); newline != std::string::npos && newline > 0) {
    if (const auto before = last.rfind('\n', newline - 1); before != std::string::npos) last.erase(0, before + 1);
  }
  for (auto& c : last) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return fmt::format(
      "{} is not linked with the exocheck hook: it exited with code {} without a hello on the control channel{}",
      subject, exit_code,
      last.empty() ? std::string()
                   : fmt::format(" (or it ended before starting its actors; its stderr ends: '{}')", last));
}

}  // namespace exocheck::agent
