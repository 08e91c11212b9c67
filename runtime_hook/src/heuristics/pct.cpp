// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010) with messages in the place of
// threads. A message is the unit this model schedules: a delivery is one macro-step, and the
// order of deliveries (to one actor or to several) is all a schedule decides. So every message
// gets a random priority when the run first sees it enabled (independent uniform draws: a random
// permutation, as PCT's initial priorities), each step delivers the enabled message of highest
// priority, and at d - 1 change points k_1..k_{d-1}, drawn from the steps 1..k, the message about
// to be delivered at step k_i is lowered to priority d - i, below every drawn one, and the choice
// is made again. In PCT the thread that just ran is lowered; a message runs once, so here the one
// that would run is held back instead, which is what reorders it after others. The guarantee's
// argument carries over with n = the messages of a run: a bug that needs d ordering constraints
// is hit with probability at least 1 / (n k^(d-1)) per run.
#include <algorithm>
#include <unordered_map>

#include "heuristics/randomized.hpp"
#include "heuristics/seeded_random.hpp"

namespace exocheck::detail::heuristics {
namespace {

// Drawn priorities lie above every lowered one (1 .. d - 1, d being a 32-bit number).
constexpr std::uint64_t kDrawnAbove = std::uint64_t{1} << 32;

class Pct final : public RandomizedChoice {
 public:
  Pct(std::uint64_t seed, std::uint32_t depth, std::uint32_t steps) : random_(seed) {
    // d - 1 distinct steps of 1..k (fewer when k is smaller); the i-th drawn lowers to d - i.
    const std::uint32_t points = depth > 1 ? std::min(depth - 1, steps) : 0;
    while (change_points_.size() < points) {
      const auto step = static_cast<std::uint32_t>(1 + random_.below(steps));
      if (std::find(change_points_.begin(), change_points_.end(), step) == change_points_.end()) {
        change_points_.push_back(step);
      }
    }
    depth_ = depth;
  }

  std::size_t choose(const std::vector<Candidate>& enabled, std::uint32_t step) override {
    std::size_t best = highest(enabled);
    const auto point = std::find(change_points_.begin(), change_points_.end(), step);
    if (point != change_points_.end()) {
      const auto i = static_cast<std::uint64_t>(point - change_points_.begin()) + 1;
      priority_[enabled[best].send_seq] = depth_ - i;
      best = highest(enabled);
    }
    return best;
  }

 private:
  std::uint64_t priority_of(std::uint64_t send_seq) {
    const auto [it, fresh] = priority_.try_emplace(send_seq, 0);
    if (fresh) it->second = kDrawnAbove + (random_.next() >> 1);
    return it->second;
  }

  std::size_t highest(const std::vector<Candidate>& enabled) {
    std::size_t best = 0;
    std::uint64_t best_priority = priority_of(enabled[0].send_seq);
    for (std::size_t i = 1; i < enabled.size(); ++i) {
      const std::uint64_t p = priority_of(enabled[i].send_seq);
      if (p > best_priority) {
        best = i;
        best_priority = p;
      }
    }
    return best;
  }

  SeededRandom random_;
  std::uint64_t depth_ = 1;
  std::vector<std::uint32_t> change_points_;
  std::unordered_map<std::uint64_t, std::uint64_t> priority_;  // by send_seq
};

}  // namespace

std::unique_ptr<RandomizedChoice> make_pct(std::uint64_t seed, std::uint32_t depth, std::uint32_t steps) {
  return std::make_unique<Pct>(seed, depth, steps);
}

}  // namespace exocheck::detail::heuristics
