// The CPUs' time shares read from /proc/stat (exocheck-bench's cpu_shares in each measurement).
#include "cpu_shares.hpp"

#include <gtest/gtest.h>

namespace exocheck::bench {
namespace {

// A 4.x+ kernel's lines: user nice system idle iowait irq softirq steal guest guest_nice.
constexpr std::string_view kBefore =
    "cpu  300 0 100 1000 10 0 5 40 0 0\n"
    "cpu0 100 0 50 400 5 0 0 20 7 0\n"
    "cpu1 200 0 50 600 5 0 5 20 0 0\n"
    "cpu12 1 2 3 4 5 6 7 8 9 10\n"
    "intr 12345 0 0\n"
    "ctxt 999\n";
constexpr std::string_view kAfter =
    "cpu  600 0 200 1100 10 0 5 140 0 0\n"
    "cpu0 150 0 100 420 5 0 0 100 7 0\n"
    "cpu1 250 0 100 680 5 0 5 40 0 0\n"
    "cpu12 1 2 3 4 5 6 7 8 9 10\n"
    "intr 12346 0 0\n";

TEST(CpuShares, SumsTheCountersOfTheCpusAskedForOnly) {
  const auto one = cpu_ticks_in(kBefore, {1});
  EXPECT_EQ(one.total, 880u);  // guest is already in user: not added twice
  EXPECT_EQ(one.idle, 605u);
  EXPECT_EQ(one.stolen, 20u);
  const auto both = cpu_ticks_in(kBefore, {0, 1});
  EXPECT_EQ(both.total, 575u + 880u);
  EXPECT_EQ(both.stolen, 40u);
  // cpu1 is not cpu12, and the summary line "cpu " is no CPU.
  EXPECT_EQ(cpu_ticks_in(kBefore, {12}).total, 36u);
  EXPECT_EQ(cpu_ticks_in(kBefore, {3}).total, 0u);
  EXPECT_EQ(cpu_ticks_in("", {0}).total, 0u);
}

TEST(CpuShares, GivesTheStolenAndIdleFractionsBetweenTwoReadings) {
  // cpu0: 200 more ticks of which 80 stolen and 20 idle; cpu1: 200 more, 20 stolen, 80 idle.
  const auto shares = cpu_shares(cpu_ticks_in(kBefore, {0, 1}), cpu_ticks_in(kAfter, {0, 1}));
  EXPECT_DOUBLE_EQ(shares["stolen"].get<double>(), 100.0 / 400.0);
  EXPECT_DOUBLE_EQ(shares["idle"].get<double>(), 100.0 / 400.0);
  const auto cpu0 = cpu_shares(cpu_ticks_in(kBefore, {0}), cpu_ticks_in(kAfter, {0}));
  EXPECT_DOUBLE_EQ(cpu0["stolen"].get<double>(), 0.4);
  // No time between the readings: nothing to share.
  const auto none = cpu_shares(cpu_ticks_in(kBefore, {0}), cpu_ticks_in(kBefore, {0}));
  EXPECT_EQ(none["stolen"].get<double>(), 0.0);
}

TEST(CpuShares, ScalesARateToTheCpuTimeGiven) {
  const nlohmann::json measured{{"executions_per_second", 6000.0}, {"cpu_shares", {{"stolen", 0.25}, {"idle", 0.1}}}};
  EXPECT_DOUBLE_EQ(rate_with_cpus_given(6000.0, measured), 8000.0);
  EXPECT_DOUBLE_EQ(rate_with_cpus_given(6000.0, nlohmann::json::object()), 6000.0);  // not measured: as is
}

TEST(CpuShares, ReadsThisMachinesCounters) {
  const auto ticks = cpu_ticks({0});
  EXPECT_GT(ticks.total, 0u);  // every Linux machine has a cpu0
  EXPECT_LE(ticks.idle + ticks.stolen, ticks.total);
}

}  // namespace
}  // namespace exocheck::bench
