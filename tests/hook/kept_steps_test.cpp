// The table of the last run's steps (kept_steps.hpp): which steps a run may keep, given its
// prefix, its settings and the bytes the agent left intact. The traces that come of it are
// compared with a process of their own in tests/runner/fork_server_test.cpp.

#include "kept_steps.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace exocheck::detail {
namespace {

class KeptStepsTest : public ::testing::Test {
 protected:
  KeptStepsTest() : table_(4096), kept_(table_.data(), table_.size()) {}

  /// The last run, which kept nothing, under the settings of `under`: step 0, then one step per
  /// delivery, each event 100 bytes.
  void last_run(const std::vector<std::pair<std::string, std::vector<std::uint32_t>>>& deliveries,
                proto::RunRequest under = {}) {
    under.clear_prefix();
    kept_.shared_with_last(under, 0);
    kept_.record(0, delivery_hash("", {}), 100);
    for (std::uint32_t i = 0; i < deliveries.size(); ++i) {
      kept_.record(i + 1, delivery_hash(deliveries[i].first, deliveries[i].second), 100 * (i + 2));
    }
  }

  static proto::RunRequest prefix(const std::vector<std::string>& labels) {
    proto::RunRequest request;
    for (const auto& label : labels) request.add_prefix(label);
    return request;
  }

  std::vector<char> table_;
  KeptSteps kept_;
};

TEST_F(KeptStepsTest, KeepsStepZeroAndTheStepsThePrefixDeliversAsTheLastRunDid) {
  EXPECT_EQ(kept_.shared_with_last(prefix({}), 1000), 0u);  // a first run: nothing known
  last_run({{"0#1", {}}, {"1#1", {2, 0}}, {"0#2", {}}});
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "1#1?2", "0#2"}), 1000), 4u);
  EXPECT_EQ(kept_.end_of(3), 400u);
  last_run({{"0#1", {}}, {"1#1", {2, 0}}, {"0#2", {}}});
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "1#1?2", "0#3"}), 1000), 3u);
  last_run({{"0#1", {}}, {"1#1", {2, 0}}, {"0#2", {}}});
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "1#1", "0#2"}), 1000), 2u);  // other choices
  last_run({{"0#1", {}}, {"1#1", {2, 0}}, {"0#2", {}}});
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1"}), 1000), 2u);                  // the run goes its own way after
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "1#1?2", "0#2"}), 1000), 2u);  // only 2 held now
}

TEST_F(KeptStepsTest, KeepsNoStepBeyondTheBytesTheAgentLeftIntact) {
  last_run({{"0#1", {}}, {"0#2", {}}, {"0#3", {}}});
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "0#2", "0#3"}), 350), 3u);  // step 2 ends at 300
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "0#2", "0#3"}), 50), 0u);
}

TEST_F(KeptStepsTest, KeepsNothingUnderOtherSettingsOrForAWholeResult) {
  last_run({{"0#1", {}}, {"0#2", {}}});
  auto lossy = prefix({"0#1", "0#2"});
  lossy.mutable_faults()->set_losses(1);
  EXPECT_EQ(kept_.shared_with_last(lossy, 1000), 0u);
  last_run({{"0#1", {}}, {"0#2", {}}}, lossy);
  EXPECT_EQ(kept_.shared_with_last(lossy, 1000), 3u);
  auto causal = lossy;
  causal.set_delivery(proto::DELIVERY_CAUSAL);
  EXPECT_EQ(kept_.shared_with_last(causal, 1000), 0u);
  last_run({{"0#1", {}}, {"0#2", {}}}, causal);
  auto whole = causal;
  whole.set_whole_result(true);
  EXPECT_EQ(kept_.shared_with_last(whole, 1000), 0u);
}

TEST_F(KeptStepsTest, HoldsNoStepPastOneThatWasNotRecordedOrWasCut) {
  kept_.shared_with_last(proto::RunRequest{}, 0);
  kept_.record(0, delivery_hash("", {}), 100);
  kept_.record(2, delivery_hash("0#2", {}), 300);  // step 1 missing: not held
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "0#2"}), 1000), 1u);
  last_run({{"0#1", {}}, {"0#2", {}}, {"0#3", {}}});
  kept_.truncate(2);
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "0#2", "0#3"}), 1000), 2u);
  kept_.forget();
  EXPECT_EQ(kept_.shared_with_last(prefix({"0#1", "0#2", "0#3"}), 1000), 0u);
}

TEST(KeptSteps, AWriteToASocketKeepsNothing) {
  KeptSteps none;
  none.record(0, 1, 100);
  EXPECT_EQ(none.shared_with_last(proto::RunRequest{}, 1000), 0u);
}

TEST(DeliveryHash, IgnoresTrailingDefaultChoicesAsLabelsDo) {
  EXPECT_EQ(delivery_hash("0#1", {2, 0, 0}), delivery_hash("0#1", {2}));
  EXPECT_NE(delivery_hash("0#1", {2}), delivery_hash("0#1", {}));
  EXPECT_NE(delivery_hash("0#1", {0, 2}), delivery_hash("0#1", {2}));
  EXPECT_NE(delivery_hash("0#1", {}), delivery_hash("0#11", {}));
}

}  // namespace
}  // namespace exocheck::detail
