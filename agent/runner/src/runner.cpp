#include "exocheck/agent/runner.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include <spdlog/spdlog.h>

#include "event_buffer.hpp"
#include "fork_server_client.hpp"
#include "poll_wait.hpp"
#include "run_session.hpp"
#include "run_verdict.hpp"
#include "subject_process.hpp"

namespace exocheck::agent {
namespace {

using Clock = std::chrono::steady_clock;

/// False when no process was started (the launch failed: the report says why).
bool run_in_own_process(const RunSpec& spec, RunReport& report) {
  // The timeout covers the launch too: a slow exec is part of the run.
  const auto deadline = Clock::now() + spec.timeout;
  auto launched = SubjectProcess::launch(spec.binary, spec.args);
  if (auto* failure = std::get_if<LaunchFailure>(&launched)) {
    report.result.set_status(proto::RUN_LAUNCH_FAILED);
    report.result.set_detail(std::move(failure->detail));
    return false;
  }
  RunSession(spec, std::move(std::get<SubjectProcess>(launched)), deadline, report).run();
  return true;
}

/// Deferred events' bytes a RunReport keeps room for from one run to the next.
constexpr std::size_t kDeferredBytesKept = std::size_t{1} << 20;

/// Empties `report` for a new run, its events kept as spare messages (at most kSpareEventsKept).
void recycle(RunReport& report) {
  auto& spare = report.spare_events;
  const std::size_t kept = std::min(report.events.size(), kSpareEventsKept - std::min(spare.size(), kSpareEventsKept));
  spare.insert(spare.end(), std::make_move_iterator(report.events.begin()),
               std::make_move_iterator(report.events.begin() + static_cast<std::ptrdiff_t>(kept)));
  report.events.clear();
  report.result.Clear();
  report.hello_seen = false;
  report.events_taken = false;
  report.given_up = false;
  // As with spare messages: a long-lived agent does not hold on to its longest run's bytes.
  if (report.deferred_events.capacity() > kDeferredBytesKept) {
    report.deferred_events = {};
    report.deferred_event_ends = {};
  }
}

std::string invocation(const std::string& binary, const std::vector<std::string>& args) {
  std::string text = binary;
  for (const auto& arg : args) text += " " + arg;
  return text;
}

}  // namespace

/// The runner's fork server and what it learnt about subjects that cannot have one.
class Runner::ForkServing {
 public:
  ForkServing(std::size_t buffer_bytes, bool in_place) : buffer_bytes_(buffer_bytes), in_place_(in_place) {}

  /// The run's report through a fork server into `report`; false when it must run in a process of
  /// its own instead (`report` then holds nothing of this attempt).
  bool run(const RunSpec& spec, RunnerCounters& counters, RunReport& report) {
    if (!start(spec.binary, spec.args, Clock::now() + spec.timeout, counters, spec.give_up)) return false;
    const auto served = server_->run(spec, Clock::now() + spec.timeout, report);
    const bool in_place = server_->in_place();
    if (!server_->in_place_lost().empty()) {
      // Such a run is likely to come again: from now on this subject's runs are forked.
      const std::string key = invocation(spec.binary, spec.args);
      spdlog::info("{}: runs are forked from now on, as a run changed what running in place cannot undo: {}", key,
                   server_->in_place_lost());
      forked_only_.insert(key);
    }
    if (!server_->usable()) server_.reset();
    if (served == ForkServerClient::Served::lost) {
      recycle(report);  // what the lost run left is not the run's report
      return false;
    }
    ++(in_place ? counters.in_place_runs : counters.forked_runs);
    return true;
  }

  /// True when a server of `binary args` is ready, started now if need be; false when the subject
  /// has none, or the start was given up (`give_up` readable).
  bool start(const std::string& binary, const std::vector<std::string>& args, Clock::time_point deadline,
             RunnerCounters& counters, int give_up) {
    if (!ensure_buffer()) return false;
    if (ready_for(binary, args)) return true;
    // Only when a server is needed: the invocation's text is not built per run.
    const std::string key = invocation(binary, args);
    if (refused_.contains(key)) return false;
    server_.reset();
    ++counters.server_starts;
    auto started =
        ForkServerClient::start(binary, args, *buffer_, deadline, in_place_ && !forked_only_.contains(key), give_up);
    if (auto* refusal = std::get_if<ForkServerClient::Refusal>(&started)) {
      if (refusal->given_up) return false;  // nothing learnt about the subject
      if (!refusal->not_started) {
        spdlog::warn("{}: no fork server ({}); running one process per run", key, refusal->reason);
      }
      refused_.emplace(key, refusal->reason);
      return false;
    }
    server_.emplace(std::move(std::get<ForkServerClient>(started)));
    if (!server_->in_place_refusal().empty() && forked_only_.emplace(key).second) {
      spdlog::info("{}: runs are forked, not performed in place: {}", key, server_->in_place_refusal());
    }
    return true;
  }

  bool ready_for(const std::string& binary, const std::vector<std::string>& args) const {
    return server_ && server_->usable() && server_->serves(binary, args);
  }

  bool prepare(const std::string& binary, const std::vector<std::string>& args) {
    if (server_ && server_->binary_rebuilt()) server_.reset();
    return ready_for(binary, args);
  }

 private:
  bool ensure_buffer() {
    if (buffer_) return true;
    if (buffer_error_) return false;
    auto created = EventBuffer::create(buffer_bytes_);
    if (auto* error = std::get_if<std::string>(&created)) {
      spdlog::warn("{}; running one process per run", *error);
      buffer_error_ = true;
      return false;
    }
    buffer_.emplace(std::move(std::get<EventBuffer>(created)));
    return true;
  }

  std::size_t buffer_bytes_;
  bool in_place_;
  std::optional<EventBuffer> buffer_;
  bool buffer_error_ = false;
  std::optional<ForkServerClient> server_;      // declared after buffer_: destroyed before it
  std::map<std::string, std::string> refused_;  // invocation -> why it has no fork server
  std::set<std::string> forked_only_;           // invocations whose runs are not performed in place
};

namespace {

// EXOCHECK_EVENT_BUFFER_BYTES sets the shared event buffer's size for every runner of the process
// (at least 4 KiB): how the end-to-end tests make a run's events overflow it, a limit of
// exocheck's that must end as exocheck's failure, never as the program's bug.
std::size_t event_buffer_bytes(std::size_t configured) {
  const char* text = std::getenv("EXOCHECK_EVENT_BUFFER_BYTES");
  if (text == nullptr) return configured;
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || bytes < 4096) {
    spdlog::warn("EXOCHECK_EVENT_BUFFER_BYTES={} is not a number of bytes of at least 4096; {} bytes are used", text,
                 configured);
    return configured;
  }
  return bytes;
}

}  // namespace

Runner::Runner(RunnerOptions options) : options_(options) {
  options_.event_buffer_bytes = event_buffer_bytes(options_.event_buffer_bytes);
  if (options_.fork_server) serving_ = std::make_unique<ForkServing>(options_.event_buffer_bytes, options_.in_place);
}

Runner::~Runner() = default;
Runner::Runner(Runner&&) noexcept = default;
Runner& Runner::operator=(Runner&&) noexcept = default;

bool Runner::prepare(const std::string& binary, const std::vector<std::string>& args) {
  return serving_ && serving_->prepare(binary, args);
}

bool Runner::start_server(const std::string& binary, const std::vector<std::string>& args,
                          std::chrono::milliseconds timeout, int give_up) {
  return serving_ && serving_->start(binary, args, Clock::now() + timeout, counters_, give_up);
}

RunReport Runner::run(const RunSpec& spec) {
  RunReport report;
  run(spec, report);
  return report;
}

void Runner::run(const RunSpec& spec, RunReport& report) {
  recycle(report);
  if (serving_ && serving_->run(spec, counters_, report)) return;
  // A server start given up, or none: looked at here, not per run, so a served run costs no call.
  if (readable(spec.give_up)) {
    given_up_verdict(report);
    return;
  }
  if (run_in_own_process(spec, report)) ++counters_.process_runs;
}

}  // namespace exocheck::agent
