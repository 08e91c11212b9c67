// RANDOM_WALK: every enabled message equally likely at every step (Coyote's random strategy).
#include "heuristics/randomized.hpp"
#include "heuristics/seeded_random.hpp"

namespace exocheck::detail::heuristics {
namespace {

class RandomWalk final : public RandomizedChoice {
 public:
  explicit RandomWalk(std::uint64_t seed) : random_(seed) {}
  std::size_t choose(const std::vector<Candidate>& enabled, std::uint32_t) override {
    return static_cast<std::size_t>(random_.below(enabled.size()));
  }

 private:
  SeededRandom random_;
};

}  // namespace

std::unique_ptr<RandomizedChoice> make_random_walk(std::uint64_t seed) {
  return std::make_unique<RandomWalk>(seed);
}

}  // namespace exocheck::detail::heuristics
