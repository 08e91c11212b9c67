// Sampled strategies (ExplorerOptions::strategy): no tree and no races, but runs 0, 1, 2, ...,
// each with a seed of its own from which the hook draws its whole schedule (random walk or PCT,
// runtime_hook/src/heuristics/randomized.hpp). The engine numbers the runs, counts the distinct
// classes they hit and hands ranges of run numbers to other explorers (agents).
//
// PCT needs an estimate k of a run's steps before the run. It is the length of run 0, which runs
// alone first with no change point (PCT with depth 1): run 0's schedule is a function of the seed
// alone, so k is too, and so is every run's request. An explorer of a range without run 0 runs
// run 0's schedule once for k alone, uncounted.
#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "class_set.hpp"
#include "exploration.hpp"
#include "names.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {
namespace {

constexpr std::uint64_t kNoEnd = std::numeric_limits<std::uint64_t>::max();
// Runs per range given away when the number of runs has no end (a time limit ends them): enough
// for an agent to stay busy a while, few enough that the runs left over at the end are not many.
constexpr std::uint64_t kOpenEndedRange = 512;

/// Run `run`'s seed: SplitMix64's output function over seed + (run + 1) * its increment, so that
/// neighbouring runs (and neighbouring seeds) get unrelated streams.
std::uint64_t run_seed(std::uint64_t seed, std::uint64_t run) {
  std::uint64_t z = seed + (run + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class SampledRuns final : public Exploration {
 public:
  SampledRuns(const ExplorerOptions& options, const Subtree* range, bool count_classes)
      : options_(options), count_classes_(count_classes) {
    trace_.set_timers(options.timers);
    // A range of no count (the whole exploration, as a coordinator leases it first) runs to the end.
    end_run_ = options.max_paths == 0 ? kNoEnd : options.max_paths;
    if (range != nullptr) {
      first_run_ = range->first_run;
      if (range->run_count != 0) end_run_ = range->first_run + range->run_count;
    }
    next_run_ = first_run_;
    if (options.strategy != Strategy::kPct) pct_steps_ = 0;
  }

  std::optional<WorkItem> next() override {
    while (!reissue_.empty()) {
      const auto id = reissue_.front();
      reissue_.pop_front();
      const auto it = out_.find(id);
      if (it != out_.end()) return item(id, it->second);
    }
    if (!pct_steps_) {
      // Only the run that gives k may go before k is known.
      if (calibrating_) return std::nullopt;
      calibrating_ = true;
      return issue({0, /*calibration=*/first_run_ != 0});
    }
    if (next_run_ >= end_run_) return std::nullopt;
    return issue({next_run_++, false});
  }

  bool complete(std::uint64_t id, const Execution& execution) override {
    const auto it = out_.find(id);
    if (it == out_.end()) return false;
    if (execution.first_step != 0) {
      // Sampled runs have no prefix to leave out: only a broken agent sends this. Run it again.
      reissue_.push_back(id);
      return false;
    }
    const Out out = it->second;
    out_.erase(it);
    // Its steps after step 0 (a sampled run comes whole: first_step is 0).
    const std::size_t steps = execution.steps.size();
    if (!pct_steps_ && out.run == 0) {
      pct_steps_ = static_cast<std::uint32_t>(std::max<std::size_t>(1, steps));
      if (first_run_ == 0) next_run_ = 1;
    }
    new_class_ = false;
    if (out.calibration) return true;
    count_path(stats_, execution, options_);
    stats_.executed_steps += steps;
    stats_.transitions += steps;
    // The trace is made only to count its class: a portfolio's samplers count none.
    if (count_classes_ && execution.ending != Ending::kDivergence) {
      trace_.assign(execution, names_);
      new_class_ = classes_.insert(trace_, names_);
    }
    stats_.classes = classes_.size();
    return true;
  }

  void abandon(std::uint64_t id) override {
    if (out_.count(id)) reissue_.push_back(id);
  }

  std::optional<Subtree> split() override {
    if (!pct_steps_ || next_run_ >= end_run_) return std::nullopt;
    const std::uint64_t left = end_run_ - next_run_;
    const std::uint64_t count = end_run_ == kNoEnd ? kOpenEndedRange : left / 2;
    if (count == 0) return std::nullopt;
    Subtree range;
    range.id = next_id_++;
    range.first_run = next_run_;
    range.run_count = count;
    next_run_ += count;
    given_away_.insert(range.id);
    return range;
  }

  void subtree_finished(std::uint64_t id) override { given_away_.erase(id); }
  bool request_backtrack(const BacktrackRequest&) override { return false; }
  std::vector<BacktrackRequest> take_backtrack_requests() override { return {}; }
  std::size_t backtrack_requests_held() const override { return 0; }

  bool finished() const override { return out_.empty() && given_away_.empty() && next_run_ >= end_run_; }
  /// Samples never cover every class, however many runs end.
  bool explored_completely() const override { return false; }
  std::size_t outstanding() const override { return out_.size(); }
  std::size_t frontier() const override {
    return end_run_ == kNoEnd ? 0 : static_cast<std::size_t>(end_run_ - next_run_);
  }
  /// The share of the runs done (0 without an end: a time limit ends them).
  double explored_share() const override {
    if (end_run_ == kNoEnd || end_run_ == first_run_) return 0.0;
    return static_cast<double>(stats_.paths) / static_cast<double>(end_run_ - first_run_);
  }
  std::size_t configurations() const override { return 0; }
  const Stats& stats() const override { return stats_; }
  const ExplorerOptions& options() const override { return options_; }
  std::set<std::string> classes() const override { return classes_.texts(); }
  std::vector<ClassKey> class_keys() const override { return classes_.class_keys(); }
  bool new_class() const override { return new_class_; }

 private:
  struct Out {
    std::uint64_t run;
    bool calibration;  ///< run 0's schedule run only to learn k
  };

  WorkItem issue(Out out) {
    const std::uint64_t id = next_id_++;
    out_.emplace(id, out);
    return item(id, out);
  }

  WorkItem item(std::uint64_t id, const Out& out) const {
    WorkItem work;
    work.id = id;
    WorkItem::Sample sample;
    sample.strategy = options_.strategy;
    sample.run = out.run;
    sample.seed = run_seed(options_.seed, out.run);
    sample.pct_depth = options_.pct_depth;
    sample.pct_steps = pct_steps_.value_or(0);
    work.sample = sample;
    return work;
  }

  ExplorerOptions options_;
  bool count_classes_;
  std::uint64_t first_run_ = 0;
  std::uint64_t end_run_ = kNoEnd;
  std::uint64_t next_run_ = 0;
  std::optional<std::uint32_t> pct_steps_;  // PCT's k, once known (0 for a random walk)
  bool calibrating_ = false;
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::uint64_t, Out> out_;
  std::deque<std::uint64_t> reissue_;
  std::unordered_set<std::uint64_t> given_away_;
  Stats stats_;
  Names names_;
  TraceView trace_;
  ClassSet classes_;
  bool new_class_ = false;
};

}  // namespace

std::unique_ptr<Exploration> make_sampled_runs(const ExplorerOptions& options, const Subtree* subtree,
                                               bool count_classes) {
  return std::make_unique<SampledRuns>(options, subtree, count_classes);
}

}  // namespace exocheck::engine
