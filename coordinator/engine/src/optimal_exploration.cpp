// Optimal DPOR (Abdulla, Aronis, Jonsson, Sagonas, JACM 2017, Algorithm 2: source sets and wakeup
// trees) for actor programs, as --reduction optimal. Each configuration held keeps a sleep set and
// a wakeup tree (wakeup_tree.hpp); after each execution E, every race e ⋖ e' of E (race.cpp: the
// receiver's last step co-enabled with a message, guards considered) puts v = notdep(e, E).e' into
// the wakeup tree at pre(E, e), unless a message asleep there, or a choice already taken there, is
// a weak initial of v. A run takes a configuration whose tree has a branch left and follows that
// branch's leftmost path: one run per class, none of them cut short by sleep sets.
//
// In parallel (several items out, subtrees given away) the configurations form a tree, and a choice
// taken counts as explored from then on, as in the algorithm once its call has returned: it sleeps
// in the subtrees of the choices taken after it. The algorithm explores a choice's subtree whole
// before the next, and a race found there may put v into the wakeup tree of a later choice's
// branch; here that later choice may be under way already, so v goes down into its configurations,
// which stay held (pinned) while a choice taken before theirs, at their parent or above, is still
// being explored. One worker explores exactly as the algorithm does. A subtree is given to another
// explorer only from an unpinned configuration where none of the choices still under way would
// sleep in the algorithm (split(), may_give_away()). Races whose pre(E, e) lies above a subtree's
// root become requests carrying v for its owner. Guards and what a held-back entry means:
// dependency.md, "Guards and races".
#include <algorithm>
#include <deque>
#include <unordered_map>
#include <utility>

#include "class_representative.hpp"
#include "class_set.hpp"
#include "configuration_sleep.hpp"
#include "configuration_tree.hpp"
#include "exploration.hpp"
#include "held_steps.hpp"
#include "names.hpp"
#include "race.hpp"
#include "race_sequence.hpp"
#include "subtree_handover.hpp"
#include "trace_view.hpp"
#include "wakeup_budget.hpp"
#include "wakeup_placement.hpp"

namespace exocheck::engine {
namespace {

class OptimalExploration final : public Exploration {
 public:
  OptimalExploration(const ExplorerOptions& options, const Subtree* subtree)
      : options_(options), tree_(subtree == nullptr ? 0 : subtree->prefix.size()) {
    trace_.set_timers(options.timers);
    if (subtree == nullptr) return;
    for (const auto& message : subtree->prefix) root_prefix_.push_back(names_.intern(message));
    take_root(*subtree, names_, tree_.root());
    tree_.relist(tree_.root());
  }

  std::optional<WorkItem> next() override {
    while (!reissue_.empty()) {
      const auto id = reissue_.front();
      reissue_.pop_front();
      if (const auto it = out_.find(id); it != out_.end()) return it->second.item;
    }
    if (limit_reached()) return std::nullopt;
    if (!started_) {
      started_ = true;
      if (tree_.root().wakeup.empty()) return issue(tree_.root(), {}, {});
    }
    // Deepest first, however many items are out, while what is held is within bounds.
    Configuration* open = tree_.size() < options_.held_configurations ? tree_.deepest_open() : tree_.leftmost_open();
    if (open == nullptr) return std::nullopt;
    Configuration& from = *open;
    auto [first, rest] = from.wakeup.take_first();
    tree_.relist(from);
    return issue(from, first, std::move(rest));
  }

  bool complete(std::uint64_t id, const Execution& execution) override {
    const auto it = out_.find(id);
    if (it == out_.end()) return false;
    if (execution.first_step != 0 && (execution.first_step != it->second.item.steps_held ||
                                      !held_.prefix_of(*it->second.from, tree_.root().depth, held_prefix_))) {
      reissue_.push_back(id);  // only a broken agent leaves out what is not held: run it again
      return false;
    }
    Out out = std::move(it->second);
    out_.erase(it);
    new_class_ = false;
    --out.holder->out;
    if (execution.first_step == 0) {
      trace_.assign(execution, names_);
      held_.hold_above_root(trace_, tree_.root().depth);
    } else {
      trace_.assign(execution, names_, held_prefix_);
    }
    stats_.executed_steps += trace_.size();
    const bool blocked = execution.ending == Ending::kSleepBlocked;
    if (execution.ending == Ending::kDivergence || !follows(out, blocked)) {
      ++stats_.paths;
      ++stats_.bugs;
      for (Configuration* c = out.holder; c != out.from; c = c->parent)
        c->parent->taken_of(c->via_serial)->unsure = false;
      tree_.drop_explored(out.holder);
      return true;
    }
    if (!extend(out)) {
      // Held back, the run went on with a choice taken there meanwhile: that choice's own subtree
      // explores what it ran. What the item's entries before it reached goes, if nothing holds it.
      ++stats_.sleep_blocked;
      tree_.drop_explored(held_back_at_);
      return true;
    }
    stats_.transitions += trace_.size() - out.from->depth;
    // A subtree's root was reached by its giver's choice, which its giver did not run: counted
    // here once, as TransDPOR's subtrees count it, so that a split job counts what one explorer does.
    if (!root_prefix_.empty() && !root_step_counted_ && trace_.size() >= tree_.root().depth) {
      root_step_counted_ = true;
      ++stats_.transitions;
    }
    HeldSteps::hold_path(trace_, path_, tree_.root().depth);
    analyse_races();
    if (blocked) {
      ++stats_.sleep_blocked;
    } else {
      count_path(stats_, execution, options_);
      // A class whose runs notify a monitor may be run more than once (wakeup_tree.cpp): counted by
      // its key, held, as the tree reductions count theirs.
      const ClassVerdict verdict =
          trace_.notified_any()
              ? ClassVerdict{.represents = notifying_classes_.insert(trace_, names_)}
              : represents_its_class(trace_, path_, names_, cut_off_, out.first.message != kNoKey ? out.from : nullptr);
      new_class_ = verdict.represents;
      if (verdict.waits_on != nullptr) ++verdict.waits_on->classes_waiting;
      if (new_class_) ++stats_.classes;
    }
    tree_.drop_explored(path_.back());
    return true;
  }

  void abandon(std::uint64_t id) override {
    if (out_.count(id)) reissue_.push_back(id);
  }

  /// The shallowest configuration's first branch that may be given away (may_give_away), with
  /// the wakeup tree below it.
  std::optional<Subtree> split() override {
    if (!started_ || limit_reached()) return std::nullopt;
    PathFacts facts;
    std::size_t looked_at = 0;
    for (const auto& [place, configuration] : tree_.open()) {
      if (++looked_at % kInterruptCheckEvery == 0 && interrupted()) return std::nullopt;
      Configuration& from = *configuration;
      if (!may_give_away(names_, from, facts)) continue;
      auto [first, rest] = from.wakeup.take_first();
      tree_.relist(from);
      Subtree subtree =
          subtree_below(names_, names_.names_of(prefix_of(from)), first, rest, sleep_after(names_, from, first, true));
      subtree.id = next_id_++;
      const Taken& given = from.take(
          {.message = first.message, .receiver = first.receiver, .given_away = true, .notifies = first.notifies});
      ++from.out;  // held until the subtree comes back: its requests come here
      given_away_.emplace(subtree.id, std::pair{&from, given.serial});
      return subtree;
    }
    return std::nullopt;
  }

  void subtree_finished(std::uint64_t id) override {
    const auto it = given_away_.find(id);
    if (it == given_away_.end()) return;
    const auto [from, serial] = it->second;
    given_away_.erase(it);
    --from->out;
    tree_.finish(*from, serial);
    tree_.drop_explored(from);
  }

  bool request_backtrack(const BacktrackRequest& request) override {
    if ((request.wakeup.empty() && request.alternatives.empty()) || request.prefix.size() < root_prefix_.size()) {
      return false;
    }
    for (std::size_t k = 0; k < root_prefix_.size(); ++k) {
      if (request.prefix[k] != names_.name(root_prefix_[k])) return false;
    }
    Configuration* at = &tree_.root();
    for (std::size_t k = root_prefix_.size(); k < request.prefix.size() && at != nullptr; ++k) {
      at = at->child(names_.intern(request.prefix[k]));
    }
    if (at == nullptr) return false;
    const Key taken = names_.intern(request.taken);
    if (Taken* took = at->taken(taken); took != nullptr && request.cut_off) mark_cut_off(*took);
    for (const auto& label : request.alternatives) {
      const Taken* took = at->taken(taken);
      placement_.add_alternative(*at, names_.intern(label), took != nullptr ? took->receiver : kNoKey);
    }
    if (request.wakeup.empty()) return true;
    WakeupSequence v;
    for (const WakeupStep& step : request.wakeup) v.push_back(event_named(step, names_));
    if (wakeup_budget_.cut(v, at)) ++stats_.cut_for_memory;  // a request counts as a run of its own
    wakeup_budget_.offered(v.size());
    placement_.offer(*at, taken, std::move(v));
    return true;
  }

  std::vector<BacktrackRequest> take_backtrack_requests() override { return std::exchange(requests_, {}); }
  std::size_t backtrack_requests_held() const override { return requests_.size(); }

  bool finished() const override {
    return started_ && out_.empty() && given_away_.empty() && (limit_reached() || tree_.open().empty());
  }
  bool explored_completely() const override {
    return started_ && out_.empty() && given_away_.empty() && tree_.open().empty();
  }
  std::size_t outstanding() const override { return out_.size(); }
  std::size_t frontier() const override { return tree_.open_branches(); }
  double explored_share() const override {
    if (!started_) return 0.0;
    if (explored_completely()) return 1.0;
    return tree_.explored_share();
  }
  std::size_t configurations() const override { return tree_.size(); }
  const Stats& stats() const override { return stats_; }
  const ExplorerOptions& options() const override { return options_; }
  /// Classes are counted, never held (class_representative.hpp): no keys.
  std::set<std::string> classes() const override { return {}; }
  std::vector<ClassKey> class_keys() const override { return {}; }
  bool new_class() const override { return new_class_; }

 private:
  /// An item out: from `from`, `first` and then the leftmost path of its wakeup subtree (`first`
  /// none: a run of its own from `from`, the exploration's first).
  struct Out {
    WorkItem item;
    Configuration* from = nullptr;
    Configuration* holder = nullptr;  ///< counts the item out: its last entry's configuration, or `from`
    WakeupEvent first;
    std::vector<Key> prefix;  ///< the whole prefix, from the initial configuration
    WakeupEvent last;         ///< the prefix's last entry
    SleepSet before_last;     ///< asleep before it: what the hook was given
  };

  bool limit_reached() const {
    return options_.max_paths != 0 && stats_.paths + stats_.sleep_blocked + out_.size() >= options_.max_paths;
  }

  std::vector<Key> prefix_of(const Configuration& c) const {
    std::vector<Key> prefix(c.depth);
    for (const Configuration* n = &c; n->parent != nullptr; n = n->parent) prefix[n->depth - 1] = n->via;
    std::copy(root_prefix_.begin(), root_prefix_.end(), prefix.begin());
    return prefix;
  }

  /// The hook gets the sleep set before the prefix's last entry, which it delivers as a step of
  /// its own: it wakes that receiver's messages, and when a guard holds the entry back (a
  /// tentative one) the run goes on from there, its choices kept from what sleeps. The
  /// configurations along `first` and the leftmost path of `rest` are made now, each with what
  /// is left of its wakeup subtree: sequences that reach them while the item is out go down
  /// into them, or become branches of their own beside the run's.
  WorkItem issue(Configuration& from, const WakeupEvent& first, WakeupTree rest) {
    Out out;
    out.from = &from;
    out.holder = &from;
    out.first = first;
    out.prefix = prefix_of(from);
    WorkItem& item = out.item;
    item.id = next_id_++;
    item.whole = true;
    item.steps_held = held_.prefix_of(from, tree_.root().depth, held_prefix_) ? from.depth + 1 : 0;
    SleepSet sleep = from.sleep;  // and the choices explored from here: sleep(E) before `first`
    for (const Taken& t : taken_before(names_, from, first.message))
      sleep.fall_asleep({names_.base(t.message), t.receiver, t.notifies});
    if (first.message != kNoKey) {
      Configuration* at = &from;
      SleepSet child_sleep = sleep_after(names_, from, first);
      WakeupEvent entry = first;
      WakeupTree below = std::move(rest);
      for (;;) {
        out.prefix.push_back(entry.message);
        out.last = entry;
        ++item.wakeup_entries;
        const Taken& choice = at->take({.message = entry.message,
                                        .receiver = entry.receiver,
                                        .unsure = entry.tentative,
                                        .notifies = entry.notifies});
        at = &tree_.add_child(*at, choice, std::move(child_sleep), {});
        if (below.empty()) break;
        sleep = at->sleep;
        auto [next, subtree] = below.take_first();
        at->wakeup = std::move(below);
        tree_.relist(*at);
        child_sleep = at->sleep.passed_through(next.receiver, next.notifies);
        entry = next;
        below = std::move(subtree);
      }
      out.holder = at;
    }
    sleep.name_into(names_, item.sleep, item.sleep_notifying, item.sleep_notifying_lanes);
    out.before_last = std::move(sleep);
    item.prefix = names_.names_of(out.prefix);
    ++out.holder->out;
    const auto stored = out_.emplace(item.id, std::move(out)).first;
    return stored->second.item;
  }

  /// The run followed the item's prefix, but for its last entry, which a guard may have held
  /// back (a blocked run as far as it went, and past the configuration it started from).
  bool follows(const Out& out, bool blocked) const {
    const std::size_t firm = out.first.message == kNoKey ? out.prefix.size() : out.prefix.size() - 1;
    if (trace_.size() < (blocked ? out.from->depth : firm) && !ended_inside_prefix(out)) return false;
    const std::size_t checked = std::min(trace_.size(), firm);
    for (std::size_t k = 1; k <= checked; ++k) {
      if (trace_.step(k).label != out.prefix[k - 1]) return false;
    }
    return true;
  }

  /// A failure ended the run (its process) at an entry before the last (a delivery whose content
  /// changed now fails): a path of the tree, the entries after it never offered, none held back.
  bool ended_inside_prefix(const Out& out) const {
    if (!trace_.ended_in_failure() || trace_.size() >= out.prefix.size() || trace_.size() < out.from->depth) {
      return false;
    }
    for (std::size_t k = 1; k <= trace_.size(); ++k) {
      if (trace_.step(k).label != out.prefix[k - 1]) return false;
    }
    return true;
  }

  /// path_ gets the configurations the run went through (nullptr above the root): the item's,
  /// then new ones for the run's own steps, each with the wakeup subtree of its step from its
  /// parent's tree and its sleep set. An entry a guard held back is no choice: its configuration
  /// goes, with all that came down into it. False when the run then went on with a choice taken
  /// there meanwhile (that choice's own subtree explores what it ran).
  bool extend(const Out& out) {
    Configuration& from = *out.from;
    path_.assign(trace_.size() + 1, nullptr);
    for (Configuration* c = &from; c != nullptr; c = c->parent) path_[c->depth] = c;
    // The item's own configurations, by depth: a label taken twice at one has a child for each.
    entries_.assign(out.holder->depth + 1, nullptr);
    for (Configuration* c = out.holder; c != &from; c = c->parent) entries_[c->depth] = c;
    const bool cut_inside = ended_inside_prefix(out);
    const std::size_t last = cut_inside ? trace_.size() : out.prefix.size();  // the last entry's step
    const bool entries = out.first.message != kNoKey;
    const bool held_back =
        entries && !cut_inside && (trace_.size() < last || trace_.step(last).label != out.last.message);
    const std::size_t held_at = held_back ? std::min(trace_.size(), last - 1) : last;  // the entry's parent
    MonitorLanes woke;  // lanes an entry handed out as not notifying on notified on
    for (std::size_t k = from.depth + 1; entries && k <= last; ++k) {
      Configuration& parent = *path_[k - 1];
      const Key entry = out.prefix[k - 1];
      const std::uint32_t serial = entries_[k]->via_serial;
      Taken& taken = *parent.taken_of(serial);
      taken.unsure = false;
      if (k - 1 < held_at) {
        path_[k] = entries_[k];
        woke = woke | notified(entries_, k, taken, trace_.step(k).notifies);
        continue;
      }
      parent.held.push_back({entry, taken.receiver, taken.notifies});
      tree_.withdraw(parent, serial);
      if (trace_.size() >= k && parent.taken(trace_.step(k).label)) {
        held_back_at_ = &parent;
        return false;
      }
      break;
    }
    // Entries after a failure that ended the run, never offered: none stays unsure (as in complete()).
    for (Configuration* c = out.holder; cut_inside && c->depth > last; c = c->parent)
      c->parent->taken_of(c->via_serial)->unsure = false;
    for (std::size_t k = from.depth + 1; k <= trace_.size(); ++k) {
      if (path_[k] != nullptr) continue;  // the item's
      const ViewStep& step = trace_.step(k);
      Configuration& parent = *path_[k - 1];
      const Taken& choice = parent.take({.message = step.label, .receiver = step.lane(), .notifies = step.notifies});
      SleepSet sleep = k == last && held_back
                           ? out.before_last.passed_through(step.lane(), step.notifies)  // the hook's
                           : parent.sleep.passed_through(step.lane(), step.notifies);
      if (k == last && held_back && woke) sleep.wake_notifying(woke);
      WakeupTree wakeup;
      if (auto subtree = parent.wakeup.take(step.label)) wakeup = std::move(*subtree);
      tree_.relist(parent);
      path_[k] = &tree_.add_child(parent, choice, std::move(sleep), std::move(wakeup));
    }
    // The same deliveries with a choice of their handlers made otherwise: each a sequence of its
    // own from the configuration before it (dependency.md, "Choices").
    for (std::size_t k = from.depth + 1; k <= trace_.size(); ++k) {
      for (Key alternative : trace_.alternatives(k))
        placement_.add_alternative(*path_[k - 1], alternative,
                                   trace_.step(k).lane());  // may notify: wakeup_placement.cpp
    }
    // A subtree's runs enter its root by its giver's choice: that step's alternatives are the
    // giver's to explore, asked for once, with the first run that comes back.
    const std::size_t entry = root_prefix_.size();
    if (entry > 0 && !entry_alternatives_asked_ && trace_.size() >= entry) {
      entry_alternatives_asked_ = true;
      if (trace_.alternatives(entry).empty()) return true;
      BacktrackRequest request;
      for (std::size_t k = 1; k < entry; ++k) request.prefix.push_back(names_.name(trace_.step(k).label));
      request.taken = names_.name(trace_.step(entry).label);
      for (Key alternative : trace_.alternatives(entry)) request.alternatives.push_back(names_.name(alternative));
      requests_.push_back(std::move(request));
    }
    return true;
  }

  /// Every race of the execution, as Algorithm 2 has it, not only those of the steps this run
  /// added: a race's v holds every later step independent of its first one, so an old race gives
  /// a new v after a new continuation. With the new steps only, random programs lost classes
  /// (program seed 30736 in tests/engine/optimal_test.cpp: a message lost to an actor that
  /// another delivery destroyed). It costs no measurable time beside the runs.
  /// Interrupted (Explorer::interrupt), it stops where it is: no more is handed out anyway.
  void analyse_races() {
    wakeup_budget_.before_analysis(tree_);
    cut_for_memory_ = false;
    budget_ = {.reads_left = options_.analysis_reads, .longest_sequence = options_.longest_sequence};
    const std::vector<Key> pending = trace_.pending_at_end();
    cut_off_ = cut_off(trace_, pending, races_);
    for (std::size_t k = 1; k <= trace_.size(); ++k) {
      if (interrupted()) return;  // each step's races take a walk of the trace: one look per step
      const ViewStep& step = trace_.step(k);
      analyse(step.message, k - 1);
      for (Key m : step.dead_letters) analyse(m, k);
    }
    for (Key m : pending) {
      if (interrupted()) return;
      analyse(m, trace_.size());
      find_cut_off_race(trace_, m, races_);
      for (const Race& race : races_) insert(race.step, m, race.notifies);
    }
    if (Configuration* pre = cut_off_ ? path_[trace_.size() - 1] : nullptr) {  // a cut-off run has a step
      if (Taken* cut_by = pre->taken_of(path_.back()->via_serial)) mark_cut_off(*cut_by);
    }
    if (budget_.cut_short) ++stats_.analysed_in_part;
    if (cut_for_memory_) ++stats_.cut_for_memory;
  }

  /// The paths that waited for this (ClassVerdict::waits_on) are their classes' own.
  void mark_cut_off(Taken& taken) {
    taken.cut_off = true;
    stats_.classes += std::exchange(taken.classes_waiting, 0);
  }

  void analyse(Key m, std::size_t point) {
    find_races(trace_, options_.delivery, m, trace_.receiver(m), point, races_, false);
    for (const Race& race : races_) insert(race.step, m, race.notifies);
  }

  /// v = notdep(e, E).e' for the race of step i with message m (race_sequence.hpp), into the tree
  /// at pre(E, i), or to its owner when that configuration lies above this explorer's root.
  void insert(std::size_t i, Key m, MonitorLanes notifies) {
    // A failure that cut the run off ends the process: nothing goes after it, so it is in no v.
    const std::size_t end = cut_off_ ? trace_.size() - 1 : trace_.size();
    auto v = race_sequence(trace_, names_, i, m, notifies, end, budget_, *this);
    if (!v) return;
    Configuration* at = path_[i - 1];
    cut_for_memory_ = wakeup_budget_.cut(*v, at) || cut_for_memory_;
    wakeup_budget_.offered(v->size());
    if (at != nullptr) {
      placement_.offer(*at, trace_.step(i).label, std::move(*v));
      return;
    }
    BacktrackRequest request;
    for (std::size_t k = 1; k < i; ++k) request.prefix.push_back(names_.name(trace_.step(k).label));
    request.taken = names_.name(trace_.step(i).label);
    request.cut_off = cut_off_ && i == trace_.size();
    for (const WakeupEvent& event : *v) request.wakeup.push_back(step_named(event, names_));
    requests_.push_back(std::move(request));
  }

  ExplorerOptions options_;
  Names names_;
  std::vector<Key> root_prefix_;  ///< a subtree's: the messages that reach its root
  HeldSteps held_;
  std::vector<const ViewStep*> held_prefix_;  ///< a result's steps left out, from held_
  bool entry_alternatives_asked_ = false;
  bool root_step_counted_ = false;
  ConfigurationTree tree_;
  WakeupPlacement placement_{names_, tree_};
  bool started_ = false;
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::uint64_t, Out> out_;
  std::deque<std::uint64_t> reissue_;
  std::unordered_map<std::uint64_t, std::pair<Configuration*, std::uint32_t>> given_away_;  ///< where, which choice
  std::vector<BacktrackRequest> requests_;
  Stats stats_;
  ClassSet notifying_classes_;  ///< the classes whose runs notify a monitor (complete())
  TraceView trace_;
  std::vector<Configuration*> path_;
  std::vector<Configuration*> entries_;    ///< extend(): the configurations an item's entries reached
  Configuration* held_back_at_ = nullptr;  ///< extend(): where an entry was held back, when it returns false
  std::vector<Race> races_;
  bool cut_off_ = false;    ///< the run a failure cut off (race.hpp, find_cut_off_race)
  bool new_class_ = false;  ///< the last path complete() accepted was counted as a class
  AnalysisBudget budget_;   ///< what the analysis of this run may still read
  WakeupBudget wakeup_budget_{options_.held_wakeup_events, options_.shared_wakeup_events};
  bool cut_for_memory_ = false;  ///< a sequence of this run was cut short for the budget
};

}  // namespace

std::unique_ptr<Exploration> make_optimal_exploration(const ExplorerOptions& options, const Subtree* subtree) {
  return std::make_unique<OptimalExploration>(options, subtree);
}

}  // namespace exocheck::engine
