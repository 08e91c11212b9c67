// The portfolio (Strategy::kPortfolio): the reduction's systematic exploration and randomized
// members side by side in one exploration, their items interleaved. Depth-first search finds a bug
// late when the bug lies to the right of a large subtree (SCTBench, PPoPP'14), where PCT finds
// one of depth d with probability at least 1/(n k^(d-1)) per run (Burckhardt et al., ASPLOS'10):
// the randomized members find such bugs early, the systematic one still proves the rest.
//
// What it promises: every figure of completeness is the systematic member's (its paths, classes,
// frontier and share; "complete" only when it explored completely), and the randomized members
// only add runs (Stats::sampled) and bugs. Once the systematic member is finished, nothing more is
// handed out: a program the systematic strategy completes alone is completed the same, with at
// most as many sampled runs again as it took.
//
// The ratio: one sampled run per systematic one until a run ends in a bug, then one in four (the
// rest of the exploration is wanted, --keep-going, and bugs are already known), in turns of
// kTurn items, a sampled turn first at the root (randomized runs find shallow bugs soonest) and a
// systematic one in a subtree given away (a small subtree would otherwise start with more sampled
// runs than it has paths). Whenever the
// systematic member has nothing to hand out (its choices are all out with other workers), a
// sampled run keeps the worker busy. The randomized members take turns: random walk, then PCT of
// depth 2, 3 and 5, then POS (Yuan et al., CAV'18: classes sampled more evenly than by a random
// walk), each with a stream of seeds of its own.
//
// In a coordinator's job every lease is a portfolio over its subtree: split() gives away the
// systematic member's subtrees, and each lease samples the whole program with seeds of its own
// (salted with its subtree), so the job's workers split between the members as an embedded
// exploration's do.

#include <array>
#include <string_view>
#include <unordered_map>

#include "exploration.hpp"

namespace exocheck::engine {
namespace {

/// The randomized members, in the order they take turns.
constexpr std::array<std::pair<Strategy, std::uint32_t>, 5> kSamplers{{
    {Strategy::kRandomWalk, 0},
    {Strategy::kPct, 2},
    {Strategy::kPct, 3},
    {Strategy::kPct, 5},
    {Strategy::kPos, 0},
}};
/// Sampled runs per systematic one handed out, as (sampled, out of): before and after a bug.
constexpr std::pair<unsigned, unsigned> kShareBeforeABug{1, 2};
constexpr std::pair<unsigned, unsigned> kShareAfterABug{1, 4};
/// Items each side hands out in a row: a systematic run replays most of the last one's prefix, whose
/// events the hook then keeps (runtime_hook/src/kept_steps.hpp); a sampled run between two of them
/// would make the second build every event again.
constexpr std::uint64_t kTurn = 16;

std::unique_ptr<Exploration> make_systematic(ExplorerOptions options, const Subtree* subtree) {
  options.strategy = Strategy::kSystematic;
  if (options.reduction == Reduction::kOptimal) return make_optimal_exploration(options, subtree);
  return make_tree_exploration(options, subtree);
}

bool at_root(const Subtree* subtree) {
  return subtree == nullptr || (subtree->prefix.empty() && subtree->wakeup.empty());
}

/// 0 at the root; else FNV-1a over what tells the subtree apart from every other of the job (its
/// path and the wakeup tree at its root), so that no two leases sample the same runs.
std::uint64_t salt_of(const Subtree* subtree) {
  if (at_root(subtree)) return 0;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto mix = [&](std::string_view text) {
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    hash = (hash ^ 0xff) * 0x100000001b3ULL;  // a separator: ("ab", "c") differs from ("a", "bc")
  };
  for (const auto& message : subtree->prefix) mix(message);
  for (const auto& step : subtree->wakeup) mix(step.message);
  return hash;
}

std::unique_ptr<Exploration> make_sampler(ExplorerOptions options, std::size_t index, std::uint64_t salt) {
  options.strategy = kSamplers[index].first;
  if (options.strategy == Strategy::kPct) options.pct_depth = kSamplers[index].second;
  options.max_paths = 0;  // no end of its own: the systematic member's end is the portfolio's
  // Seeds of their own per member (and per subtree of a job): the same base seed, streams apart.
  options.seed = (options.seed ^ salt) ^ (0x706f7274666f6c69ULL * (index + 1));
  // Classes are the systematic member's figure: a sampler holding a key per class it hits would
  // grow with the runs of a long job.
  return make_sampled_runs(options, nullptr, /*count_classes=*/false);
}

class Portfolio final : public Exploration {
 public:
  Portfolio(const ExplorerOptions& options, const Subtree* subtree)
      : options_(options), systematic_(make_systematic(options, subtree)), sampled_first_(at_root(subtree)) {
    const std::uint64_t salt = salt_of(subtree);
    for (std::size_t i = 0; i < kSamplers.size(); ++i) samplers_.push_back(make_sampler(options, i, salt));
    stats_ = systematic_->stats();
  }

  std::optional<WorkItem> next() override {
    if (systematic_->finished()) return std::nullopt;
    const auto [sampled, out_of] = bug_seen_ ? kShareAfterABug : kShareBeforeABug;
    const std::uint64_t turn = handed_out_++ / kTurn % out_of;
    const bool sampled_turn = sampled_first_ ? turn < sampled : turn >= out_of - sampled;
    if (!sampled_turn) {
      if (auto item = from(kSystematic, systematic_->next())) return item;
    }
    // A sampler may have nothing to hand out for a while (PCT before its step estimate is back).
    for (std::size_t tried = 0; tried < samplers_.size(); ++tried) {
      const std::size_t member = next_sampler_;
      next_sampler_ = (next_sampler_ + 1) % samplers_.size();
      if (auto item = from(member, samplers_[member]->next())) return item;
    }
    return sampled_turn ? from(kSystematic, systematic_->next()) : std::nullopt;
  }

  bool complete(std::uint64_t id, const Execution& execution) override {
    const auto it = out_.find(id);
    if (it == out_.end()) return false;
    const Out out = it->second;
    out_.erase(it);
    Exploration& member = member_at(out.member);
    const std::uint64_t paths_before = member.stats().paths;
    const bool accepted = member.complete(out.id, execution);
    last_was_systematic_ = out.member == kSystematic;
    if (!accepted) return false;
    if (is_bug(execution.ending, options_.checks.termination)) bug_seen_ = true;
    if (!last_was_systematic_) {
      const std::uint64_t counted = member.stats().paths - paths_before;  // none for a calibration run
      sampled_stats_.sampled += counted;
      if (counted != 0 && is_bug(execution.ending, options_.checks.termination)) ++sampled_stats_.bugs;
      // Counted for the report's warning. It bounds nothing the systematic part would not: a run
      // that long has a class, whose path the systematic part cuts at the same step.
      if (counted != 0 && execution.ending == Ending::kStepLimit) ++sampled_stats_.step_limited;
    }
    refresh_stats();
    return true;
  }

  void abandon(std::uint64_t id) override {
    const auto it = out_.find(id);
    if (it == out_.end()) return;
    member_at(it->second.member).abandon(it->second.id);
    out_.erase(it);
  }

  std::optional<Subtree> split() override { return systematic_->split(); }
  void subtree_finished(std::uint64_t id) override { systematic_->subtree_finished(id); }
  bool request_backtrack(const BacktrackRequest& request) override { return systematic_->request_backtrack(request); }
  std::vector<BacktrackRequest> take_backtrack_requests() override { return systematic_->take_backtrack_requests(); }
  std::size_t backtrack_requests_held() const override { return systematic_->backtrack_requests_held(); }

  /// Sampled runs still out are waited for: their bugs are the report's too.
  bool finished() const override { return systematic_->finished() && out_.empty(); }
  bool explored_completely() const override { return systematic_->explored_completely(); }
  std::size_t outstanding() const override { return out_.size(); }
  std::size_t frontier() const override { return systematic_->frontier(); }
  double explored_share() const override { return systematic_->explored_share(); }
  std::size_t configurations() const override { return systematic_->configurations(); }
  const Stats& stats() const override { return stats_; }
  const ExplorerOptions& options() const override { return options_; }
  std::set<std::string> classes() const override { return systematic_->classes(); }
  std::vector<ClassKey> class_keys() const override { return systematic_->class_keys(); }
  bool new_class() const override { return last_was_systematic_ && systematic_->new_class(); }

  void interrupt() override {
    Exploration::interrupt();
    systematic_->interrupt();
    for (auto& sampler : samplers_) sampler->interrupt();
  }

 private:
  static constexpr std::size_t kSystematic = kSamplers.size();  ///< members: samplers 0.., then this

  struct Out {
    std::size_t member;
    std::uint64_t id;  ///< the member's own id of the item
  };

  Exploration& member_at(std::size_t member) { return member == kSystematic ? *systematic_ : *samplers_[member]; }

  // The member's item under an id of the portfolio's (an item a member hands out again after
  // abandon() gets a new one).
  std::optional<WorkItem> from(std::size_t member, std::optional<WorkItem> item) {
    if (!item) return std::nullopt;
    const std::uint64_t id = next_id_++;
    out_.emplace(id, Out{member, item->id});
    item->id = id;
    return item;
  }

  void refresh_stats() {
    stats_ = systematic_->stats();
    stats_.sampled = sampled_stats_.sampled;
    stats_.bugs += sampled_stats_.bugs;
    stats_.step_limited += sampled_stats_.step_limited;
  }

  ExplorerOptions options_;
  std::unique_ptr<Exploration> systematic_;
  std::vector<std::unique_ptr<Exploration>> samplers_;
  bool sampled_first_;  ///< a sampled turn first (at the root) or a systematic one (a subtree)
  std::size_t next_sampler_ = 0;
  std::uint64_t handed_out_ = 0;
  bool bug_seen_ = false;
  bool last_was_systematic_ = false;
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::uint64_t, Out> out_;
  Stats sampled_stats_;  ///< the randomized members' runs and bugs
  Stats stats_;
};

}  // namespace

std::unique_ptr<Exploration> make_portfolio(const ExplorerOptions& options, const Subtree* subtree) {
  return std::make_unique<Portfolio>(options, subtree);
}

}  // namespace exocheck::engine
