// Controlled choice under exploration, on the election subject (subjects/election): each node draws
// its election timeout with exocheck::choose, and every value drawn is a branch the engine
// explores, recorded in the trace, replayed and shrunk. With a node that forgets its vote two
// leaders win one term; with --fixed the exploration completes with no bug, the same classes under
// every reduction; with --timers quiescent elections never overlap. Election Safety is a
// specification monitor; --judge-actor checks it in an actor instead, the subject's form before
// monitors, with the classes its messages add.
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, ANodeThatForgetsItsVoteLetsTwoLeadersWinATerm) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  expect_bug_replays(figures({"--strategy", "systematic"}, "election"), "RUN_ASSERTION_FAILED",
                     {"two leaders in term 1"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"});
  EXPECT_NE(shown.out.find("[chose 0 of 2]"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("[timer fired at 150 ms]"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("[notified OneLeaderPerTerm: Elected"), std::string::npos) << shown.out;
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  EXPECT_NE(shrunk.out.find("fails the same way"), std::string::npos) << shrunk.out;
  const auto replayed = exocheck({"replay", "s.trace"});
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
}

// The later timeout drawn (200 ms) is a branch of its own: the trace that draws it replays it.
TEST_F(ExploreTest, EveryValueDrawnIsExploredAndReplayedAsDrawn) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  const auto one = figures({"--workers", "1"}, "election", {"--fixed", "--spread=1"});
  const auto two = figures({"--workers", "1"}, "election", {"--fixed", "--spread=2"});
  ASSERT_EQ(one.exit_code, 0) << one.summary.dump(2);
  ASSERT_EQ(two.exit_code, 0) << two.summary.dump(2);
  EXPECT_EQ(one.classes, 195u);
  EXPECT_EQ(two.classes, 780u);  // each node's draw doubles them: the values are told apart
  // An exploration keeps one trace per distinct bug, its shortest run's: random runs from a few
  // seeds find failing runs whose node drew the later value.
  bool drawn_late = false;
  for (const char* seed : {"1", "2", "3", "4", "5"}) {
    const auto found = figures({"--strategy", "random", "--runs", "200", "--seed", seed, "--workers", "1"}, "election",
                               {"--heartbeats=0"});
    ASSERT_EQ(found.exit_code, 1) << found.summary.dump(2);
    const auto trace = (dir() / found.summary.at("bugs").at(0).at("trace").get<std::string>()).string();
    if (exocheck({"trace", "show", trace}).out.find("[chose 1 of 2]") == std::string::npos) continue;
    drawn_late = true;
    const auto replayed = exocheck({"replay", trace});
    EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
    break;
  }
  EXPECT_TRUE(drawn_late) << "no bug with a node that drew 200 ms";
}

TEST_F(ExploreTest, ANodeThatRemembersItsVoteExploresCompletelyUnderEveryReduction) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
    const auto fixed = figures({"--reduction", reduction, "--workers", "1"}, "election", {"--fixed"});
    EXPECT_EQ(fixed.exit_code, 0) << reduction << "\n" << fixed.summary.dump(2);
    EXPECT_EQ(fixed.classes, 780u) << reduction;
    if (reduction == "optimal") {
      EXPECT_EQ(fixed.paths, 780u);
    }
    const auto buggy = figures({"--reduction", reduction, "--workers", "1", "--keep-going"}, "election");
    EXPECT_EQ(buggy.exit_code, 1) << reduction;
    EXPECT_EQ(buggy.classes, 888u) << reduction;
    // A run ends at the notification that fails the monitor: what would come after is no class.
    EXPECT_EQ(buggy.failing_classes, 24u) << reduction;
    EXPECT_EQ(buggy.bugs, 1u) << reduction;  // "two leaders", whoever they are
  }
}

// The judge actor's Elected messages are deliveries of their own, each interleaved with the rest:
// more classes for the same property, and a failing run goes on to its end.
TEST_F(ExploreTest, AJudgeActorInPlaceOfTheMonitorMultipliesTheClasses) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  const auto fixed = figures({"--strategy", "systematic", "--workers", "1"}, "election", {"--fixed", "--judge-actor"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
  EXPECT_EQ(fixed.classes, 1404u);
  const auto buggy =
      figures({"--strategy", "systematic", "--workers", "1", "--keep-going"}, "election", {"--judge-actor"});
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  EXPECT_EQ(buggy.classes, 2328u);
  EXPECT_EQ(buggy.failing_classes, 840u);
}

// Under --timers quiescent a timeout fires only when no message is in flight: one node stands at
// a time, the first drawn timeout first, and no term has two candidates.
TEST_F(ExploreTest, WhenTimersFireOnlyAtQuiescenceNoTwoElectionsOverlap) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  for (const std::string variant : {"--fixed", "--heartbeats=1"}) {
    const auto f = figures({"--timers", "quiescent", "--keep-going"}, "election", {variant, "--nodes=3"});
    EXPECT_EQ(f.exit_code, 0) << variant << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.classes, 60u) << variant;
  }
}

}  // namespace
}  // namespace exocheck::explore_test
