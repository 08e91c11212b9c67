#include "backtrack_policy.hpp"

namespace exocheck::engine {
namespace {

/// TransDPOR (TransDPOR paper, Fig. 2 with the underlined lines): a frozen configuration takes no
/// addition until its last one is explored (line 4'); E holds at most the message of the minimal
/// j (line 5); an empty E adds nothing (line 7 deleted). With sleep sets, a message asleep at
/// pre(S, i) is neither added nor freezes the configuration.
class TransDporPolicy final : public RaceDrivenPolicy {
 public:
  void on_race(Node& pre, const Race& race) const override {
    if (pre.freeze || race.minimal == kNoKey || pre.asleep(race.minimal)) return;
    if (pre.add_backtrack(race.minimal)) pre.freeze = true;
  }
};

}  // namespace

std::unique_ptr<BacktrackPolicy> make_transdpor_policy() {
  return std::make_unique<TransDporPolicy>();
}

}  // namespace exocheck::engine
