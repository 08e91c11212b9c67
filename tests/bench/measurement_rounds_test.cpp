// Rounds of one exploration figure put back together (exocheck-bench --rounds).
#include "measurement_rounds.hpp"

#include <gtest/gtest.h>

namespace exocheck::bench {
namespace {

using nlohmann::json;

json round_of(std::uint64_t executions, double wall, double coordinator_us, long peak, bool complete = true) {
  return {{"cores", 2},
          {"mode", "in-place"},
          {"explorations", 10},
          {"executions", executions},
          {"complete", complete},
          {"classes", 120},
          {"bugs", 0},
          {"wall_seconds", wall},
          {"executions_per_second", static_cast<double>(executions) / wall},
          {"us_per_execution", wall * 1e6 / static_cast<double>(executions)},
          {"steps_per_execution", 16.0},
          {"replayed_steps_per_execution", 8.0},
          {"cpu_us_per_execution", {{"coordinator", coordinator_us}, {"agent", 40.0}}},
          {"worker_wait_us_per_execution", {{"for_a_lease", 10.0}}},
          {"peak_rss_kib", {{"explorer", peak}, {"largest_subject_process", 7000}}},
          {"runs", {{"in_place", executions}, {"server_starts", 2}}}};
}

TEST(CombineRounds, SumsCountsTakesRatesFromTheSumsAndWeighsPerExecutionFigures) {
  // A slow round and a fast one: 1,000 executions in 1 s, then 3,000 in 1 s.
  const json combined = combine_rounds({round_of(1000, 1.0, 40.0, 8000), round_of(3000, 1.0, 20.0, 9000)});
  EXPECT_EQ(combined["rounds"], 2);
  EXPECT_EQ(combined["executions"], 4000);
  EXPECT_EQ(combined["explorations"], 20);
  EXPECT_DOUBLE_EQ(combined["wall_seconds"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(combined["executions_per_second"].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(combined["us_per_execution"].get<double>(), 500.0);
  EXPECT_DOUBLE_EQ(combined["cpu_us_per_execution"]["coordinator"].get<double>(), 25.0);  // (40 + 3 x 20) / 4
  EXPECT_DOUBLE_EQ(combined["cpu_us_per_execution"]["agent"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(combined["worker_wait_us_per_execution"]["for_a_lease"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(combined["steps_per_execution"].get<double>(), 16.0);
  EXPECT_EQ(combined["peak_rss_kib"]["explorer"], 9000);
  EXPECT_EQ(combined["runs"]["in_place"], 4000);
  EXPECT_EQ(combined["runs"]["server_starts"], 4);
  EXPECT_EQ(combined["complete"], true);
  EXPECT_EQ(combined["classes"], 120);
  EXPECT_EQ(combined["mode"], "in-place");
}

TEST(CombineRounds, WeighsTheCpusSharesByEachRoundsTime) {
  json short_round = round_of(1000, 1.0, 40.0, 8000);
  short_round["cpu_shares"] = {{"stolen", 0.6}, {"idle", 0.0}};
  json long_round = round_of(1000, 3.0, 40.0, 8000);
  long_round["cpu_shares"] = {{"stolen", 0.2}, {"idle", 0.04}};
  const json combined = combine_rounds({short_round, long_round});
  EXPECT_DOUBLE_EQ(combined["cpu_shares"]["stolen"].get<double>(), 0.3);  // (0.6 + 3 x 0.2) / 4
  EXPECT_DOUBLE_EQ(combined["cpu_shares"]["idle"].get<double>(), 0.03);
}

TEST(CombineRounds, IsIncompleteWhenARoundWas) {
  EXPECT_EQ(combine_rounds({round_of(100, 1.0, 20.0, 1), round_of(100, 1.0, 20.0, 1, false)})["complete"], false);
}

TEST(CombineRounds, OneRoundIsItselfAndAFailedRoundIsTheResult) {
  const json one = round_of(100, 1.0, 20.0, 1);
  EXPECT_EQ(combine_rounds({one}), one);
  const json failed{{"error", "measurement failed: ..."}};
  EXPECT_EQ(combine_rounds({one, failed, one}), failed);
  EXPECT_TRUE(combine_rounds({}).contains("error"));
}

TEST(RatiosPerRound, EachRoundsSummedRateOverTheSameRoundsBase) {
  const std::vector<json> base{round_of(100, 1.0, 20.0, 1), round_of(200, 1.0, 20.0, 1), round_of(50, 1.0, 20.0, 1)};
  // Side by side: two measurements a round, their rates summed.
  const std::vector<std::vector<json>> faster{{round_of(90, 1.0, 20.0, 1), round_of(100, 1.0, 20.0, 1)},
                                              {round_of(300, 1.0, 20.0, 1), round_of(100, 1.0, 20.0, 1)},
                                              {round_of(75, 1.0, 20.0, 1), round_of(25, 1.0, 20.0, 1)}};
  EXPECT_EQ(ratios_per_round(faster, base), (std::vector<double>{1.9, 2.0, 2.0}));
  // One measurement a round (all cores); a failed one counts 0, not a ratio of nothing.
  const std::vector<std::vector<json>> one_each{{round_of(150, 1.0, 20.0, 1)}, {{{"error", "measurement failed"}}}};
  EXPECT_EQ(ratios_per_round(one_each, base), (std::vector<double>{1.5, 0.0}));
}

}  // namespace
}  // namespace exocheck::bench
