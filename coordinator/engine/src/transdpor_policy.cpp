#include "backtrack_policy.hpp"

namespace exocheck::engine {
namespace {

/// TransDPOR (TransDPOR paper, Fig. 2 with the underlined lines): a frozen configuration takes no
/// addition until its last one is explored (line 4'); E holds at most the message of the minimal
/// j (line 5); an empty E adds nothing (line 7 deleted). With sleep sets, a message asleep at
/// pre(S, i) is neither added nor freezes the configuration.
///
/// Under parallelism, a race is also ignored when the execution left pre(S, i) through a message
/// handed out there before the latest one. One worker never sees such a race: depth-first, the
/// subtree under pre's latest choice is the only one still running. With several, the subtree of
/// an older choice may still be running after a newer choice was handed out (which cleared the
/// freeze flag); one worker would have met those races while pre was frozen, so they are dropped
/// as the frozen node would drop them. Without this rule, 2 agents explored pi 5 (LCA) with
/// 2 to 4 times the paths of one.
class TransDporPolicy final : public RaceDrivenPolicy {
 public:
  void on_race(Node& pre, const Race& race) const override {
    // TransDPOR's freezing rests on races being within one lane (its transitivity); a race about
    // a monitor is on two: DPOR's rule for it (dpor_policy.cpp).
    if (race.monitors) return dpor_->on_race(pre, race);
    if (race.taken != pre.latest) return;
    if (pre.freeze || race.minimal == kNoKey || pre.sleep.asleep(race.minimal_message)) return;
    if (pre.add_backtrack(race.minimal, race.minimal_message)) pre.freeze = true;
  }

 private:
  std::unique_ptr<BacktrackPolicy> dpor_ = make_dpor_policy();
};

}  // namespace

std::unique_ptr<BacktrackPolicy> make_transdpor_policy() {
  return std::make_unique<TransDporPolicy>();
}

}  // namespace exocheck::engine
