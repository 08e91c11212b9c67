// POS, partial order sampling (Yuan, Yang, Gu, CAV 2018), with messages as its events: every
// message gets a random priority, each step delivers the enabled message of highest priority, and
// the messages that race with the one delivered get fresh priorities. Here two deliveries race when
// they go to the same actor (the dependency of this model), so a delivery to actor a redraws the
// priorities of every message to a. A random walk samples the orders of a run's deliveries far
// from uniformly among its classes (a message that waits long is ever likelier to go at some
// step); POS, by redrawing only what races, comes close to sampling the partial orders alike.
#include <unordered_map>

#include "heuristics/randomized.hpp"
#include "heuristics/seeded_random.hpp"

namespace exocheck::detail::heuristics {
namespace {

class Pos final : public RandomizedChoice {
 public:
  explicit Pos(std::uint64_t seed) : random_(seed) {}

  std::size_t choose(const std::vector<Candidate>& enabled, std::uint32_t) override {
    std::size_t best = 0;
    std::uint64_t best_priority = priority_of(enabled[0]);
    for (std::size_t i = 1; i < enabled.size(); ++i) {
      const std::uint64_t p = priority_of(enabled[i]);
      if (p > best_priority) {
        best = i;
        best_priority = p;
      }
    }
    // Every message to that actor, enabled now or later, is drawn again when next seen.
    ++deliveries_to_[enabled[best].actor];
    return best;
  }

 private:
  struct Drawn {
    std::uint64_t priority;
    std::uint64_t deliveries;  ///< deliveries to its receiver when it was drawn
  };

  std::uint64_t priority_of(const Candidate& message) {
    const std::uint64_t now = deliveries_to_[message.actor];
    auto [it, fresh] = drawn_.try_emplace(message.send_seq, Drawn{0, now});
    if (fresh || it->second.deliveries != now) it->second = Drawn{random_.next(), now};
    return it->second.priority;
  }

  SeededRandom random_;
  std::unordered_map<std::uint64_t, Drawn> drawn_;                  // by send_seq
  std::unordered_map<std::uint32_t, std::uint64_t> deliveries_to_;  // by receiver
};

}  // namespace

std::unique_ptr<RandomizedChoice> make_pos(std::uint64_t seed) {
  return std::make_unique<Pos>(seed);
}

}  // namespace exocheck::detail::heuristics
