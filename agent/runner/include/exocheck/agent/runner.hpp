#pragma once
// One controlled execution of a subject process: launch, hand over the run request, collect
// events and the result, and turn every misbehaviour of the subject into a precise report.
// The runner never crashes and never hangs because of what the subject does.
//
// By default a runner keeps a fork server of the subject it last ran (control.proto): the
// subject starts once, and each run is a fork of it that writes its events into shared memory.
// A subject that cannot serve forks (threads already running at System::run(), say) is run one
// process per run instead, after a warning; so is a run whose server died under it.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::agent {

/// How an error of exocheck's own begins, wherever it is told (never a bug of the program).
inline constexpr std::string_view kExocheckFailed = "exocheck failed: ";

/// A run after which no other run of the subject is worth making: the program cannot be started
/// or explored (RUN_LAUNCH_FAILED, RUN_UNSUPPORTED), or exocheck itself failed (RUN_EXOCHECK_FAILED).
inline bool stops_exploration(proto::RunStatus status) {
  return status == proto::RUN_LAUNCH_FAILED || status == proto::RUN_UNSUPPORTED || status == proto::RUN_EXOCHECK_FAILED;
}

/// Why no schedule of a subject can be explored, from a run that stops_exploration(): its detail,
/// the construct the hook named, or exocheck's own failure and what to report. One line.
inline std::string refusal_text(const proto::RunResult& result) {
  switch (result.status()) {
    case proto::RUN_UNSUPPORTED:
      return "the program does what exocheck does not explore: " + result.detail();
    case proto::RUN_EXOCHECK_FAILED:
      return std::string(kExocheckFailed) + result.detail() +
             ". This is a fault of exocheck, not of the program: please report it with this line, the command "
             "and `exocheck --version`";
    default:
      return result.detail();
  }
}

/// Takes a clean run's events as the hook serialized them instead of the runner parsing them
/// into RunReport::events (RunSpec::lean_events). Parsing messages was the largest part of an
/// embedded agent's work per run, and a lean result needs only what exploration reads of them.
class LeanEventSink {
 public:
  virtual ~LeanEventSink() = default;
  /// The events of a run whose hook result `result` may be lean (wire::lean_result): trace.proto
  /// Events end to end in `bytes`, from step 0, event i ending at ends[i]; the steps below
  /// `first_step` are the prefix's, which a lean result leaves out. Returns what is wrong with
  /// them when they cannot be taken: the run is then exocheck's failure (RUN_EXOCHECK_FAILED),
  /// its events parsed as far as they go.
  virtual std::optional<std::string> take(std::string_view bytes, std::span<const std::size_t> ends,
                                          std::size_t first_step, const proto::RunResult& result) = 0;
};

/// What to run and how.
struct RunSpec {
  std::string binary;             ///< path of the subject binary (searched in PATH if it has no '/')
  std::vector<std::string> args;  ///< its arguments
  proto::RunRequest request;      ///< prefix, heuristic, step limit, ranking (the frame stamps protocol_version)
  std::chrono::milliseconds timeout{10'000};  ///< per-run wall-clock limit; then the run is killed
  /// Leave the prefix's steps out of RunReport::events when the result may be lean (the steps
  /// from wire::first_event_to_send() on are all there is then): the caller sends lean results.
  bool defer_prefix_events = false;
  /// Set: a run whose result may be lean hands all its events to this sink; RunReport::events
  /// then holds none (RunReport::events_taken). Every other run is reported as without it.
  LeanEventSink* lean_events = nullptr;
  /// A file descriptor (-1: none): once it is readable the run is killed and reported given up
  /// (RunReport::given_up). An exploration that stops (a time limit, Ctrl-C) ends its runs in
  /// flight instead of waiting up to their timeout for them.
  int give_up = -1;
};

/// Spare messages a RunReport keeps at most from one run to the next: enough for the runs of an
/// exploration, without a long-lived agent holding on to every message of its longest run ever.
inline constexpr std::size_t kSpareEventsKept = 1024;

/// Everything one run produced. `result.status` is always set (never RUN_UNKNOWN).
struct RunReport {
  std::vector<proto::Event> events;  ///< every event the hook wrote, in order, also when it crashed
  proto::RunResult result;           ///< the hook's verdict, or the runner's when the process misbehaved
  bool hello_seen = false;           ///< the subject announced itself: it is linked with the hook
  bool events_taken = false;         ///< the events went to RunSpec::lean_events: `events` is empty
  /// The run was killed because RunSpec::give_up became readable, or not started for it: its
  /// result (RUN_HANG) tells nothing about the subject, and its schedule was not explored.
  bool given_up = false;
  /// Messages of earlier runs' events, cleared, for the next run to parse into: protobuf keeps a
  /// message's strings and repeated fields when it is parsed again, so a run like the last one
  /// allocates nothing for its events (Runner::run(spec, report)). At most kSpareEventsKept. Not
  /// part of what a run reports.
  std::vector<proto::Event> spare_events;
  /// The serialized events of the steps a run holds back (RunSpec::defer_prefix_events, or all of
  /// them with RunSpec::lean_events), end to end, and where each one ends: one buffer kept from run
  /// to run instead of a string per event. Not part of what a run reports (a sink that took the
  /// events was handed these bytes).
  std::string deferred_events;
  std::vector<std::size_t> deferred_event_ends;
};

struct RunnerOptions {
  bool fork_server = true;  ///< false: every run is a process of its own (exec per run)
  /// The fork server performs its runs in place, putting its memory back after each, where the
  /// kernel allows it (control.proto); false: it forks every run.
  bool in_place = true;
  /// Size of the fork server's shared event buffer (EXOCHECK_EVENT_BUFFER_BYTES overrides it); a
  /// run whose events do not fit is exocheck's failure (RUN_EXOCHECK_FAILED), never the program's
  /// bug. Pages are only used as a run writes them.
  std::size_t event_buffer_bytes = std::size_t{1} << 30;
};

/// How the runs of one runner were performed.
struct RunnerCounters {
  std::uint64_t forked_runs = 0;    ///< runs performed by a fork of a fork server
  std::uint64_t in_place_runs = 0;  ///< runs performed in place by a fork server
  std::uint64_t process_runs = 0;   ///< runs performed by a process of their own
  std::uint64_t server_starts = 0;  ///< fork servers started (ready or not)

  /// Runs a fork server performed, forked or in place.
  std::uint64_t served_runs() const { return forked_runs + in_place_runs; }

  /// The runs and starts since `earlier`, counters of the same runner taken before.
  RunnerCounters operator-(const RunnerCounters& earlier) const {
    return {forked_runs - earlier.forked_runs, in_place_runs - earlier.in_place_runs,
            process_runs - earlier.process_runs, server_starts - earlier.server_starts};
  }

  RunnerCounters& operator+=(const RunnerCounters& other) {
    forked_runs += other.forked_runs;
    in_place_runs += other.in_place_runs;
    process_runs += other.process_runs;
    server_starts += other.server_starts;
    return *this;
  }
};

/// Runs one controlled execution per call; safe to use from one thread at a time per instance
/// (use one instance per slot). Between calls it keeps only its fork server, also from one
/// exploration to the next (see prepare()): a runner kept between explorations of one subject
/// starts it once.
class Runner {
 public:
  explicit Runner(RunnerOptions options = {});
  ~Runner();
  Runner(Runner&&) noexcept;
  Runner& operator=(Runner&&) noexcept;

  /// Runs `spec` to its end and reports. Never throws because of the subject's behaviour.
  RunReport run(const RunSpec& spec);
  /// The same, into `report`, whose events become its spare_events first: a caller that reports
  /// run after run into one RunReport has the events parsed into the messages of the last run's.
  void run(const RunSpec& spec, RunReport& report);
  /// A report kept with the runner for run(spec, report): a caller that outlives no more than one
  /// exploration (a worker) leaves its spare messages and buffers to the next one with the runner.
  RunReport& kept_report() { return kept_report_; }

  const RunnerCounters& counters() const { return counters_; }

  /// To be called when an exploration (or a job) of `binary args` begins. The fork server is kept
  /// from run to run by the subject's name and arguments, without looking at the file per run: here
  /// it is stopped if the binary has been rebuilt since it started. True when a server of the
  /// subject is ready: the next run starts no process.
  bool prepare(const std::string& binary, const std::vector<std::string>& args);
  /// Starts a fork server of `binary args` now, unless one is ready, so that the next run of it
  /// starts none: within `timeout`, and given up (the half-started subject killed) once `give_up`
  /// is readable (-1: never). True when a server is ready; false when the subject has none (its
  /// runs will say why), the start was given up, or the runner makes no fork servers.
  bool start_server(const std::string& binary, const std::vector<std::string>& args, std::chrono::milliseconds timeout,
                    int give_up = -1);

 private:
  class ForkServing;

  RunnerOptions options_;
  RunnerCounters counters_;
  std::unique_ptr<ForkServing> serving_;
  RunReport kept_report_;
};

}  // namespace exocheck::agent
