#pragma once
// Controlled mode: one macro-step at a time on the calling thread. Replays the request's
// prefix, then follows its heuristic, and records one Event per step (DESIGN.md, "Model").

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "control_channel.hpp"
#include "exocheck/detail/actor_cell.hpp"
#include "exocheck/detail/runtime.hpp"
#include "fork_server.hpp"
#include "liveness_watch.hpp"
#include "scheduling_order.hpp"
#include "sleep_set.hpp"
#include "vector_clock.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

class ControlledRuntime : public Runtime {
 public:
  /// With a fork server, run() serves forks and performs the run in each child.
  ControlledRuntime(ControlChannel& channel, ForkServer* fork_server);
  ~ControlledRuntime() override;

  /// The last words of a process that ends inside a step (control_channel.hpp): writes the step's
  /// event as far as it got, a crash's with outcome STEP_CRASH, so that the trace ends with the
  /// delivery the run ended in. Async-signal-safe.
  void record_step_cut_short(int signal) noexcept;

  /// Step 0 is main's code and each actor's start, each on a thread of its own (a CAF program's
  /// caf_main and the initialization of each actor it spawns): causal delivery orders step 0's
  /// sends by what each thread had seen (vector_clock.hpp's start keys, SentMessage.start_clock).
  /// Natively an actor's constructor runs in main's thread, and step 0 is one thread.
  void start_actors_apart();

  ActorCell* create_cell(ActorCell* parent) override;
  void adopt(ActorCell* cell, std::unique_ptr<Actor> actor) override;
  void send(std::unique_ptr<Envelope> envelope) override;
  void destroy(ActorCell* cell) override;
  void arm(std::unique_ptr<Envelope> firing) override;
  void cancel(ActorCell* cell, const std::string& series) override;
  void abandon_reply(ActorCell* cell, const std::string& call) override;
  std::uint32_t choose(std::uint32_t range) override;
  void notified(const Monitor& monitor, const std::vector<std::string>& lanes, const std::string& summary) override;

  /// What `cell`, adopted in this step, is called in the trace instead of its C++ class (an
  /// adapter's actors are all of one proxy class).
  void name_type(ActorCell* cell, std::string type);

  /// Reads the run request, performs the run, reports its result. Returns the exit code (0).
  /// With a fork server, returns only in the child that performed a run.
  int run();

  /// The step in progress goes on after its handler returns, in code of the program outside the
  /// run (a CAF blocking actor woken by its delivery: caf_main's code): run() or resume() return
  /// when the handler does, and resume() ends the step and goes on with the run.
  void suspend_after_step() { suspend_requested_ = true; }
  bool suspended() const { return open_step_.has_value(); }
  int resume();
  bool in_run() const { return in_run_; }

  /// The step in progress fails with `outcome` and the run ends here: its event and the run's
  /// result are reported and the process exits, as a run ends (an adapter's interposed assert()
  /// cannot return). False, and nothing done, outside a run (main's code before it begins).
  bool end_run_at_failed_step(proto::StepOutcome outcome, const std::string& detail);

  /// Asked whenever nothing but quiescent messages can be delivered (none at all, at a run's end):
  /// the adapter may end actors there (CAF's, once nothing refers to them). True when it did:
  /// what is enabled is looked at again.
  void at_quiescence(std::function<bool()> hook) { at_quiescence_ = std::move(hook); }

  /// Asked when a run ends with nothing enabled: the actors the program still waits for to end
  /// (CAF: those caf_main's await_all_actors_done() waits for), named in the deadlock. An actor
  /// that waits for a reply is named so already.
  void awaited_at_end(std::function<std::vector<const ActorCell*>()> awaited) { awaited_at_end_ = std::move(awaited); }

  /// A run asked to duplicate messages is refused with `construct` (an adapter whose framework's
  /// messages cannot be copied here).
  void refuse_duplicates(std::string construct) { duplicates_refusal_ = std::move(construct); }
  /// How a crash without a restart ends an adapter's actor: in its framework, so that what the
  /// framework does at an end (a down message, an exit to a link) happens in the crash's step. It
  /// calls destroy(cell) as the framework ends the actor. Empty: the runtime's own end.
  void end_crashed_by(std::function<void(ActorCell&)> end) { crash_end_ = std::move(end); }
  /// Whether the latest message sent (send()) was lost by a fault: an adapter that numbers the
  /// messages of a channel skips its place.
  bool last_send_lost() const { return last_send_lost_; }
  /// Calls `visit` with each message pending for `cell`, in send order.
  void for_each_pending_to(const ActorCell& cell, const std::function<void(Envelope&)>& visit);

  /// The program did something exocheck does not model, named by `construct`: reports the run
  /// (or, in main before one, the process) as RUN_UNSUPPORTED and exits. Never a bug (refusal.cpp).
  [[noreturn]] void refuse(const std::string& construct);
  /// The program failed (`status`, say an assert()) in main before the run began: reported as the
  /// run's result, without a step, and the process exits (refusal.cpp).
  [[noreturn]] void fail_before_run(proto::RunStatus status, const std::string& detail);

 private:
  struct Choice {
    std::size_t pending_index = 0;
    bool diverged = false;
    bool sleep_blocked = false;
    /// A prefix entry's answers to the handler's choices (the rest are 0s: the label names them all).
    std::optional<std::vector<std::uint32_t>> values{};
  };

  /// Steps from next_step_ on, until the run ends (its result) or a step is suspended (nullopt).
  std::optional<proto::RunResult> run_steps();
  /// What follows a step's code: sleepers woken, its failure noted, its event written; the run's
  /// end when the step's choices diverged.
  std::optional<proto::RunResult> finish_step(std::uint32_t step, bool quiescent_firing_delivered,
                                              proto::StepOutcome outcome);
  int proceed();
  int conclude(proto::RunResult result);
  proto::RunResult with_first_failure(proto::RunResult result) const;
  // Liveness (controlled_liveness.cpp).
  /// A run that ended, completed or deadlocked or cut by the step limit with no bound, with a
  /// monitor hot: RUN_LIVENESS instead.
  proto::RunResult with_hot_monitors(proto::RunResult result) const;
  /// Before step `step`, the one before it done: a monitor hot past the request's bound ends the
  /// run RUN_LIVENESS here.
  std::optional<proto::RunResult> past_liveness_bound(std::uint32_t step);
  void note_failure(proto::StepOutcome outcome, std::uint32_t step);
  /// After the step of `event_` at `actor` (on every lane: a quiescent timer's firing), which may
  /// have notified monitors.
  void wake_sleepers_of(const std::string& actor, bool every_lane);
  /// The monitors' lanes the step of `event_` notified on (Notification.lanes; none named: the
  /// monitor's own), empty when it notified none (controlled_liveness.cpp).
  std::vector<std::string> lanes_notified() const;
  /// A delivery only when nothing else can be, which depends on everything before it: a timer's
  /// firing under TIMERS_QUIESCENT, or a message sent quiescent.
  bool quiescent_firing(const Envelope& envelope) const;
  void begin_step(std::uint32_t step);
  void finish_requested_destroys();
  proto::RunResult divergence(const proto::RunRequest& request, std::uint32_t step) const;
  Choice choose(const proto::RunRequest& request, std::uint32_t step, SchedulingOrder& order);
  proto::StepOutcome execute(std::size_t pending_index, std::uint32_t step);
  /// Ends `cell`: its pending messages become dead letters, its monitors are told `reason`.
  void finish_destroy(ActorCell& cell, const char* reason);
  // Faults and monitors (controlled_faults.cpp).
  /// A choice of the step in progress that a fault budget offers: 0 is no fault. Under a
  /// randomized strategy a fault is drawn one time in kFaultOdds.
  std::uint32_t fault_choice(std::uint32_t range, proto::Fault fault, const std::string& message);
  enum class NetworkFault { kNone, kLost, kDuplicated };
  /// Offers the network's faults for `envelope`, sent in this step; a loss is recorded here.
  NetworkFault network_fault(const Envelope& envelope);
  /// The link of `from`'s to `to` that --partition may cut; nullopt: the message does not cross
  /// --partition-side's cut.
  std::optional<std::uint32_t> link_of(const ActorCell& from, const ActorCell& to) const;
  /// Offers to cut `envelope`'s link (or to heal it, when cut): true when the message is lost.
  bool partitioned(const Envelope& envelope, std::uint32_t link);
  /// The network's copy of `original`, being sent: its next id from the same sender.
  std::unique_ptr<Envelope> copy_of(const Envelope& original);
  /// A message sent, into the run: pending, or a dead letter, or a reply dropped (its call gave up).
  void enqueue(std::unique_ptr<Envelope> envelope, proto::SentMessage& sent);
  /// After a step of `cell` that ended well: offers to crash it (and make it again).
  void offer_crash(ActorCell& cell);
  void crash(ActorCell& cell, bool restart);
  void tell_monitors(ActorCell& cell, const char* reason);
  /// Delivers Actor::monitor()'s request: the receiver keeps its sender, or says it ended.
  void answer_monitor_request(const Envelope& request);
  /// Takes the first pending message `matches` accepts out of the run, as withdrawn in this step.
  template <typename Matches>
  bool withdraw(Matches matches);
  void collect_enabled();
  void write_event();
  /// Keeps only the events of the steps before `step` of those the last run made (a step made
  /// anew, a run ending sooner). Async-signal-safe.
  void keep_steps_before(std::uint32_t step) noexcept;
  void report(proto::RunResult result);
  /// Writes the run's result and flushes the channel, the kept steps cut back to the run's.
  void write_result(proto::RunResult result);
  proto::RunResult quiescent_result(std::uint32_t steps) const;
  void record_clock(const VectorClock& clock);
  void add_final_state(proto::RunResult& result) const;
  const std::string& type_name_of(const Actor& actor);
  [[noreturn]] void end_process_with(proto::RunStatus status, const std::string& detail);

  ControlChannel& channel_;
  ForkServer* fork_server_;
  std::vector<std::unique_ptr<ActorCell>> cells_;
  std::vector<std::unique_ptr<Envelope>> pending_;  ///< undelivered messages, in send order
  std::vector<std::size_t> enabled_;                ///< indices into pending_, in send order
  std::vector<Candidate> candidates_;               ///< enabled_, as the heuristic sees it
  /// record_clock()'s working memory, kept from one step to the next: the clock's entries sorted
  /// by actor id.
  std::vector<std::pair<const std::string*, std::uint32_t>> clock_by_actor_id_;
  std::vector<std::string> dead_letters_;
  std::vector<ActorCell*> destroying_;  ///< destroy() was called for them in the step in progress
  SleepSet sleep_;                      ///< asleep after the prefix
  proto::DeliveryOrder delivery_ = proto::DELIVERY_UNORDERED;  ///< the request's
  proto::TimerSemantics timers_ = proto::TIMERS_ANYTIME;       ///< the request's
  proto::FaultBudget faults_;                                  ///< the request's
  bool faults_on_ = false;                                     ///< some fault's budget is not 0
  std::string duplicates_refusal_;                             ///< refuse_duplicates()
  std::function<void(ActorCell&)> crash_end_;                  ///< end_crashed_by()
  bool last_send_lost_ = false;
  std::uint32_t faults_injected_ = 0;  ///< in this run, its prefix included (RunResult.faults)
  proto::RunResult first_failure_;     ///< status and detail of the first failed step
  std::uint64_t send_seq_ = 0;
  std::uint64_t now_ns_ = 0;  ///< virtual time: the due time of the latest timer fired
  /// The step in progress: its prefix entry's answers to exocheck::choose, then draws from
  /// `choice_random_` for a randomized strategy, or 0; a value out of its range diverges.
  std::optional<std::vector<std::uint32_t>> prescribed_;
  bool random_choices_ = false;
  std::mt19937_64 choice_random_;
  std::string choice_divergence_;  ///< non-empty: the step's prescribed choice was out of range
  std::uint64_t creation_seq_ = 0;
  std::uint32_t top_level_actors_ = 0;
  /// Demangled class names: one demangling per class, not per actor created.
  std::unordered_map<std::type_index, std::string> type_names_;
  /// The names an adapter gave its actors (name_type), one string each.
  std::unordered_set<std::string> adapter_type_names_;
  bool in_run_ = false;  ///< between the run request and the result
  /// A step's handler is running (or, for an open step, its actor's code outside the run): its
  /// event is not written yet. What the last words write (record_step_cut_short()).
  bool step_in_progress_ = false;
  bool starts_apart_ = false;  ///< start_actors_apart()
  VectorClock main_start_clock_;
  std::unordered_map<const ActorCell*, VectorClock> start_clocks_;  ///< each actor's start's, made in step 0
  VectorClock& start_clock_of(const ActorCell* thread);
  void record_start_clock(const VectorClock& clock, google::protobuf::RepeatedPtrField<proto::ClockEntry>& into) const;
  /// The process performing the run: a process its code forked ends without last words for it.
  pid_t run_pid_ = 0;
  bool quiescent_sent_ = false;  ///< a message was sent quiescent: collect_enabled() applies the rule
  /// A step whose code goes on outside the run (suspend_after_step()).
  struct OpenStep {
    std::uint32_t step;
    bool quiescent_firing_delivered;
    proto::StepOutcome outcome;
  };
  std::optional<OpenStep> open_step_;
  bool suspend_requested_ = false;
  std::function<bool()> at_quiescence_;
  std::function<std::vector<const ActorCell*>()> awaited_at_end_;
  /// Steps 0 .. kept_steps_ - 1 make the last run's steps again: their events are kept, not written
  /// (kept_steps.hpp).
  std::uint32_t kept_steps_ = 0;
  std::optional<proto::RunRequest> request_;  ///< the run's, from run() on
  std::optional<LivenessWatch> liveness_;     ///< the run's, from run() on
  /// Per monitors' lane (Monitor::lanes_of), the clock of the latest step that notified on it: a
  /// step that notifies on it happens after that one (dependency.md), and so do the messages it sends.
  std::unordered_map<std::string, VectorClock> monitor_clocks_;
  std::optional<SchedulingOrder> order_;
  std::uint32_t next_step_ = 1;
  std::shared_ptr<const VectorClock> step_clock_;  ///< clock of the step in progress; null in main
  /// Reused: holds the event being recorded. Not freed where the run's memory is thrown away.
  std::unique_ptr<proto::HookMessage> event_frame_ = std::make_unique<proto::HookMessage>();
  proto::Event* event_;
};

}  // namespace exocheck::detail
