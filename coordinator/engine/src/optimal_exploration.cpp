// Optimal DPOR (Abdulla, Aronis, Jonsson, Sagonas, JACM 2017, Algorithm 2: source sets and wakeup
// trees) for actor programs, as --reduction optimal. Each configuration on the path being
// explored keeps a sleep set and a wakeup tree (wakeup_tree.hpp); after each execution E, every
// race e ⋖ e' (race.cpp: the receiver's last step co-enabled with a message, guards considered)
// whose e' is new puts v = notdep(e, E).e' into the wakeup tree at pre(E, e), unless a message
// asleep there is a weak initial of v. The next run takes the deepest configuration whose tree
// has a branch left and follows that branch's leftmost path: one run per class, none of them
// cut short by sleep sets.
//
// Guards. A race whose message m was sent after the racing step (it raced although it was not
// pending there) cannot know whether the receiver's guard accepts m at pre(E, e): a guard reads
// the message's content and the actor's state, and neither is at hand before a run puts them
// together. So m, v's last event, is tentative. A run that finds it held back goes on from there
// as after its prefix (RunRequest.wakeup_entries), and its own races carry m back to the
// receiver's earlier steps; when every other enabled message sleeps there, the run ends
// sleep-blocked. These are the only executions this reduction wastes (tests/bench's table).
//
// One run at a time for now: the wakeup trees live on the one path being explored.
#include <algorithm>

#include "class_set.hpp"
#include "exploration.hpp"
#include "names.hpp"
#include "race.hpp"
#include "sleep_set.hpp"
#include "trace_view.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {
namespace {

/// One configuration of the path: the one after `depth` steps.
struct Configuration {
  Key via = kNoKey;           ///< the message delivered to reach it
  SleepSet sleep;             ///< asleep when it was reached
  std::vector<Pending> done;  ///< choices taken from here, in order: the last is the path's
  WakeupTree wakeup;          ///< choices still to explore, with what to do after them
};

class OptimalExploration final : public Exploration {
 public:
  explicit OptimalExploration(const ExplorerOptions& options) : options_(options) { path_.emplace_back(); }

  std::optional<WorkItem> next() override {
    if (out_) {
      if (!reissue_) return std::nullopt;
      reissue_ = false;
      return out_->item;
    }
    if (limit_reached()) return std::nullopt;
    if (!started_) {
      started_ = true;
      return issue(0, {}, {}, {}, {});
    }
    std::size_t depth = path_.size();
    while (depth > 0 && path_[depth - 1].wakeup.empty()) --depth;
    if (depth == 0) return std::nullopt;
    path_.resize(depth);
    Configuration& from = path_.back();
    auto [first, rest] = from.wakeup.take_first();
    SleepSet explored = from.sleep;  // and the choices explored from here: sleep(E) before `first`
    for (const Pending& d : from.done) explored.fall_asleep(d);
    const SleepSet child_sleep = sleep_after(from, first);
    from.done.push_back({first.message, first.receiver});
    return issue(depth - 1, first, std::move(rest), child_sleep, std::move(explored));
  }

  bool complete(std::uint64_t id, const Execution& execution) override {
    if (!out_ || out_->item.id != id || execution.first_step != 0) return false;
    Out out = std::move(*out_);
    out_.reset();
    trace_.assign(execution, names_);
    stats_.executed_steps += trace_.size();
    const bool blocked = execution.ending == Ending::kSleepBlocked;
    if (execution.ending == Ending::kDivergence || !follows(out, blocked)) {
      ++stats_.paths;
      ++stats_.bugs;
      return true;
    }
    const std::size_t depth = out.depth;
    extend_path(std::move(out));
    stats_.transitions += trace_.size() - depth;
    analyse_races(depth + 1);
    if (blocked) {
      ++stats_.sleep_blocked;
      return true;
    }
    ++stats_.paths;
    if (is_bug(execution.ending)) ++stats_.bugs;
    classes_.insert(trace_.class_key());
    stats_.classes = classes_.size();
    return true;
  }

  void abandon(std::uint64_t id) override {
    if (out_ && out_->item.id == id) reissue_ = true;
  }

  std::optional<Subtree> split() override { return std::nullopt; }
  void subtree_finished(std::uint64_t) override {}
  bool request_backtrack(const BacktrackRequest&) override { return false; }
  std::vector<BacktrackRequest> take_backtrack_requests() override { return {}; }

  bool finished() const override { return started_ && !out_ && (limit_reached() || nothing_open()); }
  bool explored_completely() const override { return started_ && !out_ && nothing_open(); }
  std::size_t outstanding() const override { return out_ ? 1 : 0; }
  std::size_t frontier() const override {
    std::size_t open = 0;
    for (const auto& configuration : path_) open += configuration.wakeup.branches();
    return open;
  }
  /// Along the path, each configuration's choices (taken and waiting) taken to be of equal size.
  double explored_share() const override {
    if (!started_) return 0.0;
    if (explored_completely()) return 1.0;
    double share = 0.0;
    for (std::size_t k = path_.size(); k-- > 0;) {
      const auto& configuration = path_[k];
      const std::size_t choices = configuration.done.size() + configuration.wakeup.branches();
      if (choices == 0) continue;
      const double finished = static_cast<double>(configuration.done.size() - (k + 1 < path_.size() ? 1 : 0));
      share = (finished + (k + 1 < path_.size() ? share : 0.0)) / static_cast<double>(choices);
    }
    return share;
  }
  std::size_t configurations() const override { return path_.size(); }
  const Stats& stats() const override { return stats_; }
  const ExplorerOptions& options() const override { return options_; }
  std::set<std::string> classes() const override { return classes_.forms(names_); }
  std::vector<ClassKey> class_keys() const override { return classes_.class_keys(names_); }

 private:
  /// The run out: from the configuration at `depth`, `first` and then the leftmost path of `rest`.
  struct Out {
    WorkItem item;
    std::size_t depth = 0;
    WakeupTree rest;
    SleepSet child_sleep;
    std::vector<Key> prefix;
    WakeupEvent last;      ///< the prefix's last entry
    SleepSet before_last;  ///< asleep before it: what the hook was given
  };

  bool limit_reached() const {
    return options_.max_paths != 0 && stats_.paths + stats_.sleep_blocked >= options_.max_paths;
  }
  bool nothing_open() const {
    return std::all_of(path_.begin(), path_.end(), [](const Configuration& c) { return c.wakeup.empty(); });
  }

  /// ODPOR's Sleep' = {q ∈ sleep(E) | p ◊ q}, sleep(E) holding the choices explored before p.
  SleepSet sleep_after(const Configuration& from, const WakeupEvent& p) const {
    std::vector<Key> done;
    for (const Pending& d : from.done) done.push_back(d.message);
    return from.sleep.after(p.message, p.receiver, done, [&](Key m) {
      for (const Pending& d : from.done) {
        if (d.message == m) return d.receiver;
      }
      return kNoKey;
    });
  }

  /// The hook gets the sleep set before the prefix's last entry, which it delivers as a step of
  /// its own: it wakes that receiver's messages, and when a guard holds the entry back (a
  /// tentative one) the run goes on from there, its choices kept from what sleeps.
  WorkItem issue(std::size_t depth, const WakeupEvent& first, WakeupTree rest, SleepSet child_sleep,
                 SleepSet explored) {
    Out out;
    out.depth = depth;
    for (std::size_t k = 1; k <= depth; ++k) out.prefix.push_back(path_[k].via);
    WorkItem& item = out.item;
    item.id = next_id_++;
    item.whole = true;
    if (first.message != kNoKey) {
      const WakeupSequence branch = rest.leftmost();
      out.prefix.push_back(first.message);
      out.last = branch.empty() ? first : branch.back();
      SleepSet sleep = branch.empty() ? std::move(explored) : child_sleep;
      for (std::size_t k = 0; k < branch.size(); ++k) {
        out.prefix.push_back(branch[k].message);
        if (k + 1 < branch.size()) sleep = sleep.passed_through(branch[k].receiver);
      }
      item.wakeup_entries = 1 + branch.size();
      for (const Pending& p : sleep) item.sleep.push_back(names_.name(p.message));
      out.before_last = std::move(sleep);
    }
    for (Key m : out.prefix) item.prefix.push_back(names_.name(m));
    out.rest = std::move(rest);
    out.child_sleep = std::move(child_sleep);
    out_ = std::move(out);
    return out_->item;
  }

  /// The run followed the item's prefix, but for its last entry, which a guard may have held
  /// back (a blocked run as far as it went, and past the path).
  bool follows(const Out& out, bool blocked) const {
    const std::size_t firm = out.prefix.empty() ? 0 : out.prefix.size() - 1;
    if (trace_.size() < (blocked ? out.depth : firm)) return false;
    const std::size_t checked = std::min(trace_.size(), firm);
    for (std::size_t k = 1; k <= checked; ++k) {
      if (trace_.step(k).message != out.prefix[k - 1]) return false;
    }
    return true;
  }

  /// The configurations after the run's new steps: each takes the wakeup subtree of the step that
  /// reached it from its parent's tree (the branch the run followed), and its sleep set.
  void extend_path(Out out) {
    path_.resize(out.depth + 1);
    const std::size_t last = out.prefix.size();  // the last entry's step (0: no prefix)
    const bool held_back = last != 0 && (trace_.size() < last || trace_.step(last).message != out.last.message);
    for (std::size_t k = out.depth + 1; k <= trace_.size(); ++k) {
      const ViewStep& step = trace_.step(k);
      Configuration& parent = path_[k - 1];
      if (k - 1 > out.depth || out.prefix.empty() || (k == last && held_back)) {
        parent.done.push_back({step.message, step.actor});
      }
      Configuration child;
      child.via = step.message;
      if (k == last && held_back) {
        // The run went on from where the guard held the last entry back, with the hook's sleep set.
        child.sleep = out.before_last.passed_through(step.actor);
        if (auto subtree = parent.wakeup.take(step.message)) child.wakeup = std::move(*subtree);
      } else if (k == out.depth + 1 && !out.prefix.empty()) {
        child.sleep = std::move(out.child_sleep);
        child.wakeup = std::move(out.rest);
      } else {
        child.sleep = parent.sleep.passed_through(step.actor);
        if (auto subtree = parent.wakeup.take(step.message)) child.wakeup = std::move(*subtree);
      }
      path_.push_back(std::move(child));
    }
    // The held-back entry is done where it was held back: the last one, or (the hook ends the run
    // there) an earlier one. It is the first branch left there, on the leftmost path the run
    // followed; at the item's own configuration it is `first`, done already. Its races, found
    // below, carry it to earlier steps.
    if (held_back) {
      const std::size_t at = std::min(trace_.size(), last - 1);
      if (at > out.depth && at < path_.size() && !path_[at].wakeup.empty()) {
        const WakeupEvent entry = path_[at].wakeup.take_first().first;
        path_[at].done.push_back({entry.message, entry.receiver});
      }
    }
  }

  void analyse_races(std::size_t first_new_step) {
    for (std::size_t k = first_new_step; k <= trace_.size(); ++k) {
      const ViewStep& step = trace_.step(k);
      analyse(step.message, k - 1);
      for (Key m : step.dead_letters) analyse(m, k);
    }
    for (Key m : trace_.pending_at_end()) analyse(m, trace_.size());
  }

  void analyse(Key m, std::size_t point) {
    find_races(trace_, m, trace_.receiver(m), point, races_);
    for (const Race& race : races_) insert(race.step, m);
  }

  /// v = notdep(e, E).e' for the race of step i with message m, into the tree at pre(E, i).
  void insert(std::size_t i, Key m) {
    WakeupSequence v;
    for (std::size_t k = i + 1; k <= trace_.size(); ++k) {
      if (trace_.happens_before(i, k)) continue;
      v.push_back(event_of(trace_.step(k).message, trace_.step(k).actor, i));
    }
    WakeupEvent last = event_of(m, trace_.receiver(m), i);
    last.tentative = trace_.send_step(m) >= i;
    v.push_back(last);
    Configuration& at = path_[i - 1];
    const Key taken = path_[i].via;
    for (const Pending& q : at.sleep) {
      if (weak_initial(v, {q.message, q.receiver})) return;
    }
    for (const Pending& q : at.done) {
      if (q.message != taken && weak_initial(v, {q.message, q.receiver})) return;
    }
    at.wakeup.insert(std::move(v));
  }

  /// The delivery of `m` to `receiver` in a sequence that starts at pre(E, i).
  WakeupEvent event_of(Key m, Key receiver, std::size_t i) const {
    WakeupEvent event{m, receiver};
    const std::size_t sender = trace_.send_step(m);
    if (sender > i && !trace_.happens_before(i, sender)) event.sender = trace_.step(sender).message;
    return event;
  }

  ExplorerOptions options_;
  std::vector<Configuration> path_;  // path_[k]: the configuration after k steps
  bool started_ = false;
  std::uint64_t next_id_ = 1;
  std::optional<Out> out_;
  bool reissue_ = false;
  Stats stats_;
  Names names_;
  TraceView trace_;
  std::vector<Race> races_;
  ClassSet classes_;
};

}  // namespace

std::unique_ptr<Exploration> make_optimal_exploration(const ExplorerOptions& options) {
  return std::make_unique<OptimalExploration>(options);
}

}  // namespace exocheck::engine
