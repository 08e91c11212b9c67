#include "backtrack_policy.hpp"

namespace exocheck::engine {
namespace {

/// Every enabled message at every configuration (minus those asleep): all interleavings.
class ExhaustivePolicy final : public BacktrackPolicy {
 public:
  void initialize(Node& node, Key chosen) const override {
    node.add_backtrack(chosen);
    node.done.push_back(chosen);
    for (Key m : node.enabled) {
      if (!node.asleep(m)) node.add_backtrack(m);
    }
  }
  bool analyses_races() const override { return false; }
  void on_race(Node&, const Race&) const override {}
};

}  // namespace

std::unique_ptr<BacktrackPolicy> make_exhaustive_policy() {
  return std::make_unique<ExhaustivePolicy>();
}

std::unique_ptr<BacktrackPolicy> make_policy(Reduction reduction) {
  switch (reduction) {
    case Reduction::kExhaustive:
      return make_exhaustive_policy();
    case Reduction::kDpor:
      return make_dpor_policy();
    case Reduction::kTransDpor:
      return make_transdpor_policy();
    case Reduction::kOptimal:  // not a backtracking rule: optimal_exploration.cpp
      break;
  }
  return make_transdpor_policy();
}

}  // namespace exocheck::engine
