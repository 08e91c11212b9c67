// `exocheck explore --delivery fifo|causal` on the real subjects: the hook enables messages in the
// order asked, every reduction reaches the classes exhaustive exploration reaches under it, the
// trace records the order, and a bug found under an order replays under it.
#include "explore_fixture.hpp"

#include "exocheck/wire/trace_file.hpp"

namespace exocheck::explore_test {
namespace {

// registry: the master's Register (sent in step 0, before the workers get the registry's address)
// is causally before each worker's, so causal delivery leaves only the workers' two orders; FIFO
// constrains nothing there (each sender sends one Register). shortpath's nodes send one another
// several messages, which FIFO orders.
TEST_F(ExploreTest, EachDeliveryOrderHasItsClassesUnderEveryReduction) {
  if (!built("registry") || !built("shortpath")) GTEST_SKIP() << "registry or shortpath not built";
  const struct {
    std::string subject, delivery;
    std::uint64_t classes;
  } cases[] = {{"registry", "unordered", 6},   {"registry", "fifo", 6},   {"registry", "causal", 2},
               {"shortpath", "unordered", 76}, {"shortpath", "fifo", 40}, {"shortpath", "causal", 9}};
  for (const auto& c : cases) {
    for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
      const auto f = figures({"--reduction", reduction, "--delivery", c.delivery, "--workers", "1"}, c.subject);
      const std::string what = c.subject + ", " + c.delivery + ", " + reduction;
      EXPECT_EQ(f.exit_code, 0) << what << "\n" << f.summary.dump(2);
      EXPECT_EQ(f.classes, c.classes) << what;
      EXPECT_EQ(f.summary.at("options").at("delivery"), c.delivery) << what;
      if (reduction == "optimal") {
        EXPECT_EQ(f.paths, c.classes) << what << ": one execution per class";
      }
    }
  }
}

// clientserver's atomicity violation needs one client's two requests to reach the server out of
// order: under FIFO and causal delivery it cannot happen.
TEST_F(ExploreTest, ABugThatNeedsReorderedMessagesIsGoneUnderFifoAndItsTraceRecordsTheOrder) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  EXPECT_EQ(figures({"--delivery", "fifo"}, "clientserver").exit_code, 0);
  EXPECT_EQ(figures({"--delivery", "causal"}, "clientserver").exit_code, 0);
  const auto unordered = figures({}, "clientserver");
  EXPECT_EQ(unordered.exit_code, 1);
  EXPECT_EQ(wire::read_trace_file(dir().path() / "out" / "bug-1.trace").delivery(), proto::DELIVERY_UNORDERED);
}

// A timeout races the reply it waits for under every order: a firing is held back by nothing sent
// after its arming. Under causal delivery the request's timer was taken as causally before the
// reply (its "send" is its arming), and retry's bug, a late reply taken for the retry's, was gone
// (2 classes, no bug).
TEST_F(ExploreTest, ATimeoutRacesItsReplyUnderEveryDeliveryOrder) {
  if (!built("retry") || !built("caf-retry")) GTEST_SKIP() << "retry or caf-retry not built";
  struct Case {
    const char* subject;
    const char* delivery;
    std::uint64_t classes;
  };
  for (const Case& c :
       {Case{"retry", "unordered", 6}, Case{"retry", "fifo", 3}, Case{"retry", "causal", 3},
        Case{"caf-retry", "unordered", 3}, Case{"caf-retry", "fifo", 3}, Case{"caf-retry", "causal", 3}}) {
    const auto f = figures({"--keep-going", "--delivery", c.delivery}, c.subject);
    const std::string what = std::string(c.subject) + " --delivery " + c.delivery;
    EXPECT_EQ(f.exit_code, 1) << what << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.classes, c.classes) << what;
    const auto replay = exocheck({"replay", (dir().path() / "out" / "bug-1.trace").string()});
    EXPECT_EQ(replay.exit_code, 1) << what << "\n" << replay.out << replay.err;
  }
}

TEST_F(ExploreTest, ATraceRecordedUnderAnOrderReplaysUnderIt) {
  if (!built("shortpath")) GTEST_SKIP() << "shortpath not built";
  const auto run =
      exocheck({"run", "--delivery", "causal", "--out", "r.trace", "--", cli_test::subject_path("shortpath").string()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const auto trace = wire::read_trace_file(dir().path() / "r.trace");
  EXPECT_EQ(trace.delivery(), proto::DELIVERY_CAUSAL);
  EXPECT_NE(run.out.find("delivery causal"), std::string::npos) << run.out;
  const auto replay = exocheck({"replay", "r.trace"});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
}

}  // namespace
}  // namespace exocheck::explore_test
