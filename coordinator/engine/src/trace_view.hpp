#pragma once
// One execution in interned form, with the happens-before queries race analysis needs
// (TransDPOR paper, Definitions 3 and 5), answered from the hook's vector clocks.

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dependency.hpp"
#include "exocheck/engine/execution.hpp"
#include "exocheck/engine/options.hpp"
#include "names.hpp"
#include "short_list.hpp"

namespace exocheck::engine {

/// Of step 0's sends, thread `thread` had made those up to position `position` (1-based, in step
/// 0's send order) in the causal past of send `send` of step 0, or of the step itself (kTheStep).
struct StartSeen {
  static constexpr std::uint32_t kTheStep = ~std::uint32_t{0};
  std::uint32_t send = kTheStep;
  Key thread = kNoKey;
  std::uint32_t position = 0;
};

struct ViewStep {
  Key actor = kNoKey;
  Key message = kNoKey;
  /// The delivery as the tree names it: the message, or its label when the handler chose values
  /// (exocheck::choose). Races are about messages, configurations about labels.
  Key label = kNoKey;
  bool reply = false;
  bool failed = false;      ///< a check failed or an exception escaped in it
  bool timer = false;       ///< it delivered a timer's firing
  bool every_lane = false;  ///< depends on everything: a timer's firing (--timers quiescent), a quiescent message
  bool notified = false;    ///< notified a specification monitor: on its monitors' lanes too (dependency.hpp)
  /// The monitors' lanes it notified on (Step::monitor_lanes), numbered by the view's Names: as
  /// bits, so that a step in the tree keeps them in one word (TraceView::for_each_monitor_lane).
  MonitorLanes notifies = MonitorLanes::none();
  ShortList<Key, 2> sent;
  ShortList<Key, 2> sent_to;  ///< sent_to[i] receives sent[i]
  ShortList<Key, 8> enabled;
  ShortList<Key, 1> dead_letters;
  ShortList<std::pair<Key, std::uint32_t>, 8> clock;  ///< sorted by actor key
  /// (m, k): m, sent in this step, is rejected by its receiver's guard in its state before its
  /// earlier step k (SentMessage::rejected_at). Empty, and unallocated, for most steps.
  std::vector<std::pair<Key, std::uint32_t>> rejections;
  /// Where actors start on threads of their own (CAF): what of step 0's sends the step had seen, by
  /// thread, and for step 0 each send's own (Step::start_clock). Empty, and unallocated, otherwise.
  std::vector<StartSeen> starts;

  /// The lane the step is on (dependency.hpp): its actor's, or every lane.
  Key lane() const { return every_lane ? dependency::kEveryLane : dependency::lane(actor); }
};

class TraceView {
 public:
  /// Interns `execution`'s ids into `names`. An execution that starts at step first_step > 0
  /// takes its steps 0..first_step-1 from `prefix` (interned from earlier executions; they must
  /// outlive the view).
  TraceView(const Execution& execution, Names& names, std::span<const ViewStep* const> prefix = {});
  /// An empty view, for assign().
  TraceView() = default;
  /// Timer firings are on every lane (--timers quiescent): from the next assign() on, they and the
  /// messages of timers armed are, and a step on every lane happens before every later step.
  void set_timers(Timers timers) { timers_on_every_lane_ = timers == Timers::kQuiescent; }
  TraceView(const TraceView&) = delete;  // steps_ points into own_
  TraceView& operator=(const TraceView&) = delete;
  /// Makes this the view of `execution`, as the constructor does, in the memory of the view it
  /// was: the explorer keeps one view for all its results, so that a result costs no allocation
  /// for the view's tables.
  void assign(const Execution& execution, Names& names, std::span<const ViewStep* const> prefix = {});

  /// Number of steps after step 0; steps are numbered 1..size().
  std::size_t size() const { return steps_.size() - 1; }
  /// Step k (0 = the initial step).
  const ViewStep& step(std::size_t k) const { return *steps_[k]; }
  /// Moves step k into `home` (a tree node, which outlives the view), where the view then reads
  /// it: the tree keeps each new step without a copy. A step the view does not own is copied.
  void move_step_into(std::size_t k, ViewStep& home);
  /// The step that sent `m` (0: main did).
  std::size_t send_step(Key m) const;
  /// The labels of step k's delivery with a choice of its handler made otherwise; empty for a step
  /// the view did not intern itself (one of the prefix's, whose configuration knows them already).
  /// Still there after move_step_into().
  std::span<const Key> alternatives(std::size_t k) const;
  /// The actor that sent `m`: its send step's actor, or for a message of step 0 (main's code,
  /// constructors run there) the actor its id names ("env" for main's own).
  Key sender_of(Key m) const;
  /// Whether `earlier` was sent before `later` in one step's handler (both sent by `step`).
  bool sent_first_in_step(std::size_t step, Key earlier, Key later) const;
  /// Where actors start on threads of their own (CAF: StartSeen): whether `earlier`, sent in step 0,
  /// is in the causal past of `later`, sent in step `later_step`; nullopt for other programs.
  std::optional<bool> start_send_before(Key earlier, Key later, std::size_t later_step) const;
  /// The receiver of `m` in this execution.
  /// Throws std::out_of_range for a message this execution did not send (a malformed trace).
  Key receiver(Key m) const {
    const Key r = m < receivers_.size() ? receivers_[m] : kNoKey;
    if (r == kNoKey) throw std::out_of_range("message without a send in the execution");
    return r;
  }
  /// Whether m's receiver's guard, in its state before step i (which comes before m's sending),
  /// rejects m: the hook tested it, and m could not have been delivered in step i's place.
  bool rejected_before(std::size_t i, Key m) const;
  /// i ->_S j (Definition 3): step i happens before step j.
  bool happens_before(std::size_t i, std::size_t j) const;
  /// Step i's own entry in its clock, for happens_before(i, own, j): asked of many j in a row, it
  /// is read once.
  std::uint32_t own_clock_entry(std::size_t i) const { return i == 0 ? 0 : clock_entry(i, steps_[i]->actor); }
  bool happens_before(std::size_t i, std::uint32_t own, std::size_t j) const {
    if (i == 0 || j == 0 || i > j) return false;
    if (i == j || (!last_every_lane_.empty() && last_every_lane_[j] >= i)) return true;
    return own <= clock_entry(j, steps_[i]->actor);
  }
  /// i ->_S m (Definition 5): step i sent m or happens before the step that did.
  bool happens_before_message(std::size_t i, Key m) const;
  /// The latest step numbered at most `limit` that is dependent with a delivery to `receiver`
  /// (dependency.hpp) and may be co-enabled with it, or 0 when there is none. The delivery of a
  /// reply never is: while an actor waits for a reply, nothing else is enabled at it.
  std::size_t latest_dependent_step(Key receiver, std::size_t limit) const;
  /// The first step after step k that is dependent with a delivery to `lane` (on that lane, or on
  /// every lane, or with `notifies` on the monitors' lane), or 0 when there is none.
  std::size_t first_dependent_step_after(Key lane, std::size_t k, MonitorLanes notifies = {}) const;
  /// Calls `f(lane)` for each monitors' lane step k notified on, by its key.
  template <class F>
  void for_each_monitor_lane(std::size_t k, F f) const {
    const MonitorLanes lanes = steps_[k]->notifies;
    if (!lanes) return;
    const auto& numbered = names_->monitor_lanes();
    for (std::uint32_t n = 0; n < numbered.size(); ++n) {
      if (lanes.on(n)) f(numbered[n]);
    }
    if (lanes.on(MonitorLanes::kShared) && names_->shared_monitor_lane() != kNoKey) f(names_->shared_monitor_lane());
  }
  /// Some step after step 0 notified a specification monitor.
  bool notified_any() const { return !notifying_steps_.empty(); }
  /// The latest step numbered at most `limit` on `lane` (replies included), or 0.
  std::size_t latest_step_on_lane(Key lane, std::size_t limit) const;
  /// Some execution interned into this view's names notified a monitor (Names::notifications_seen).
  bool notifications_seen() const { return names_ != nullptr && names_->notifications_seen(); }
  /// Whether a step on every lane lies from step i to step j - 1.
  bool every_lane_step_between(std::size_t i, std::size_t j) const {
    return !last_every_lane_.empty() && j > 0 && last_every_lane_[j - 1] >= i;
  }
  /// The first step from `from` to `to` that step i does not happen before, or 0 when there is none:
  /// each lane's first step from `from` on, the only one of the lane that may be (a lane's later
  /// steps happen after its earlier ones).
  std::size_t first_step_not_after(std::size_t i, std::size_t from, std::size_t to) const;
  /// Messages sent and neither delivered nor lost by the end.
  std::vector<Key> pending_at_end() const;
  /// The run ended in a failure (a failed check, an exception, a crash), which may have ended the
  /// process in its last step, with messages still enabled (race.hpp, find_cut_off_race()).
  bool ended_in_failure() const { return ended_in_failure_; }
  /// The canonical form of the execution's class: the format of canonical_form(Execution, Timers).
  std::string canonical_form(const Names& names) const;
  /// The execution's class in interned keys: every delivery's (actor, message) as bytes, grouped
  /// by actor in key order, each actor's in its order. Two executions interned into one Names have
  /// equal keys exactly when their canonical forms are equal (a key stands for one name), and a
  /// key costs no string comparison or copy: the explorer counts classes by it.
  std::string class_key() const;
  /// The same, written into `key` (its old bytes replaced): a buffer kept by the caller.
  void class_key(std::string& key) const;
  /// The canonical form of the class whose class_key() is `key`, interned into `names`.
  static std::string canonical_form_of(std::string_view key, const Names& names);
  /// The same, written into `form` (its old text replaced): a buffer kept by the caller.
  static void canonical_form_of(std::string_view key, const Names& names, std::string& form);

 private:
  std::uint32_t clock_entry(std::size_t step, Key actor) const;

  // Indexed by key (keys are dense): one lookup per race query, no hashing.
  std::vector<ViewStep> own_;                       ///< the execution's own steps, interned
  std::vector<std::vector<Key>> own_alternatives_;  ///< per own step, alternatives(k)
  std::vector<const ViewStep*> steps_;              ///< the prefix's, then own_'s
  std::vector<std::size_t> send_step_;              ///< 0: not sent in this execution (or by main)
  std::vector<Key> receivers_;                      ///< kNoKey: not sent in this execution
  std::vector<std::vector<std::size_t>> coenabled_steps_of_lane_;
  std::vector<std::size_t> coenabled_steps_;  ///< of every lane: for a message on every lane
  /// Every step after step 0 by lane, replies included (those on every lane under kEveryLane).
  std::vector<std::vector<std::size_t>> steps_of_lane_;
  std::vector<Key> lanes_;  ///< those with a step after step 0
  /// Every step after step 0 that notified a monitor, on whichever of the monitors' lanes: for a
  /// delivery that may notify any (not a lane: steps on two monitors' lanes need not be ordered).
  std::vector<std::size_t> notifying_steps_;
  bool timers_on_every_lane_ = false;
  bool ended_in_failure_ = false;
  /// Per step k, the latest step at most k on every lane (0: none); empty when there is none at all.
  std::vector<std::size_t> last_every_lane_;
  Names* names_ = nullptr;                      ///< the names the view interned into, for step 0's senders
  mutable std::vector<Key> step_zero_senders_;  ///< sender_of() of step 0's sends, by position; made when first asked
  mutable bool step_zero_senders_known_ = false;
};

}  // namespace exocheck::engine
