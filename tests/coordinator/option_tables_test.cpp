// The option and ending tables: every engine value and every wire value has exactly one row,
// names are unique, and the conversions each axis offers agree with the rows.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "exocheck/endings/run_ending.hpp"
#include "exocheck/endings/verdict.hpp"
#include "exocheck/options/bounds.hpp"
#include "exocheck/options/check.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/sleep_sets.hpp"
#include "exocheck/options/strategy.hpp"

namespace exocheck::options {
namespace {

template <typename Table>
void expect_unique_names_and_wire_values(const Table& table) {
  std::set<std::string> names;
  std::set<int> wire;
  for (const auto& row : table) {
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
    EXPECT_TRUE(wire.insert(static_cast<int>(row.wire)).second) << row.name;
    EXPECT_FALSE(row.help.empty()) << row.name;
    EXPECT_EQ(parse(table, row.name), row.engine) << row.name;
    EXPECT_EQ(row_on_wire(table, row.wire), &row) << row.name;
  }
}

TEST(OptionTables, EveryReductionHasOneRowAndRoundTrips) {
  expect_unique_names_and_wire_values(kReductions);
  for (auto reduction : {engine::Reduction::kExhaustive, engine::Reduction::kDpor, engine::Reduction::kTransDpor}) {
    EXPECT_EQ(parse_reduction(name_of(reduction)), reduction);
    EXPECT_EQ(row_on_wire(kReductions, row_of(kReductions, reduction).wire)->engine, reduction);
  }
  EXPECT_EQ(name_of(engine::Reduction::kTransDpor), "transdpor");
  EXPECT_FALSE(parse_reduction("odpor"));
  // A submission that names no reduction is refused, not given a default.
  EXPECT_EQ(row_on_wire(kReductions, proto::REDUCTION_UNSET), nullptr);
}

TEST(OptionTables, EveryStrategyHasOneRowAndSampledOnesReachTheHookAsTheirOwnChoice) {
  expect_unique_names_and_wire_values(kStrategies);
  for (auto strategy : {engine::Strategy::kSystematic, engine::Strategy::kRandomWalk, engine::Strategy::kPct,
                        engine::Strategy::kPos, engine::Strategy::kPortfolio}) {
    EXPECT_EQ(parse_strategy(name_of(strategy)), strategy);
  }
  // The default of a submission that names none is the systematic exploration it always was.
  EXPECT_EQ(row_on_wire(kStrategies, proto::STRATEGY_SYSTEMATIC)->engine, engine::Strategy::kSystematic);
  EXPECT_EQ(to_hook(engine::Strategy::kRandomWalk), proto::RANDOM_WALK);
  EXPECT_EQ(to_hook(engine::Strategy::kPct), proto::PCT);
  EXPECT_EQ(to_hook(engine::Strategy::kPos), proto::POS);
  EXPECT_EQ(name_of(engine::Strategy::kPct), "pct");
}

TEST(OptionTables, EveryHeuristicHasOneRowAndLearntOnesReachTheHookRanked) {
  expect_unique_names_and_wire_values(kHeuristics);
  for (auto heuristic :
       {engine::Heuristic::kFifo, engine::Heuristic::kLifo, engine::Heuristic::kEca, engine::Heuristic::kLca,
        engine::Heuristic::kLdm, engine::Heuristic::kHdm, engine::Heuristic::kHms, engine::Heuristic::kSgr}) {
    EXPECT_EQ(parse_heuristic(name_of(heuristic)), heuristic);
  }
  EXPECT_EQ(to_hook(engine::Heuristic::kLca), proto::LCA);
  EXPECT_EQ(to_hook(engine::Heuristic::kHms), proto::RANKED);
  EXPECT_EQ(to_hook(engine::Heuristic::kSgr), proto::RANKED);
  std::set<std::string> applied;
  for (const auto& row : kHeuristics) {
    if (applied_by_hook(row)) applied.insert(std::string(row.name));
  }
  EXPECT_EQ(applied, (std::set<std::string>{"fifo", "lifo", "eca", "lca", "ldm", "hdm"}));
  // Every value of the wire's enum is a row's but RANKED, which only the coordinator sends, and
  // the sampled strategies' choices (kStrategies), which a submission names as its strategy.
  for (int value = proto::Heuristic_MIN; value <= proto::Heuristic_MAX; ++value) {
    if (value == proto::RANKED || value == proto::RANDOM_WALK || value == proto::PCT || value == proto::POS) continue;
    EXPECT_NE(row_on_wire(kHeuristics, static_cast<proto::Heuristic>(value)), nullptr) << value;
  }
  EXPECT_FALSE(parse_heuristic("random"));
  EXPECT_FALSE(parse_heuristic("ranked"));
}

TEST(OptionTables, SleepSetsAndChecksNameTheirValues) {
  expect_unique_names_and_wire_values(kSleepSets);
  EXPECT_EQ(sleep_sets_name(true), "on");
  EXPECT_EQ(sleep_sets_name(false), "off");
  std::set<std::string_view> names;
  for (const auto& row : kChecks) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_EQ(row_on_wire(kChecks, row.wire), &row) << row.name;
  }
  for (int value = proto::Check_MIN; value <= proto::Check_MAX; ++value) {
    EXPECT_NE(row_on_wire(kChecks, static_cast<proto::Check>(value)), nullptr) << value;
  }
  EXPECT_EQ(names_of(engine::Checks{}), "none");
  engine::Checks checks;
  EXPECT_TRUE(add_check(row_named(kChecks, "termination"), checks));
  EXPECT_TRUE(add_check(row_named(kChecks, "none"), checks));
  EXPECT_FALSE(add_check(row_named(kChecks, "liveness"), checks));
  EXPECT_TRUE(checks.termination);
  EXPECT_FALSE(checks.determinism);
  EXPECT_TRUE(add_check(row_on_wire(kChecks, proto::CHECK_DETERMINISM), checks));
  EXPECT_EQ(names_of(checks), "determinism,termination");
}

TEST(OptionTables, EveryDeliveryOrderHasOneRowAndTheWireKnowsEach) {
  expect_unique_names_and_wire_values(kDeliveries);
  EXPECT_EQ(name_of(engine::ExplorerOptions{}.delivery), "unordered");
  EXPECT_EQ(parse_delivery("fifo"), engine::Delivery::kFifo);
  EXPECT_EQ(parse_delivery("causal"), engine::Delivery::kCausal);
  for (int value = proto::DeliveryOrder_MIN; value <= proto::DeliveryOrder_MAX; ++value) {
    EXPECT_NE(row_on_wire(kDeliveries, static_cast<proto::DeliveryOrder>(value)), nullptr) << value;
  }
}

TEST(OptionTables, EveryBoundHasItsOwnFlag) {
  std::set<std::string_view> flags;
  for (const auto& row : kBounds) EXPECT_TRUE(flags.insert(row.flag).second) << row.flag;
  EXPECT_EQ(kMaxPaths.flag, "--max-paths");
  EXPECT_EQ(kStepLimit.flag, "--step-limit");
}

}  // namespace
}  // namespace exocheck::options

namespace exocheck::endings {
namespace {

TEST(EndingTables, EveryRunStatusHasOneRow) {
  std::set<int> statuses;
  for (const auto& row : kRunEndings) EXPECT_TRUE(statuses.insert(row.status).second) << row.words;
  for (int value = proto::RunStatus_MIN; value <= proto::RunStatus_MAX; ++value) {
    if (!proto::RunStatus_IsValid(value)) continue;
    EXPECT_NE(run_ending_row(static_cast<proto::RunStatus>(value)), nullptr) << value;
  }
  EXPECT_EQ(to_ending(proto::RUN_SLEEP_BLOCKED), engine::Ending::kSleepBlocked);
  EXPECT_EQ(to_ending(proto::RUN_HANG), engine::Ending::kCrash);
  EXPECT_EQ(to_ending(static_cast<proto::RunStatus>(99)), engine::Ending::kCrash);
  EXPECT_EQ(words_of(proto::RUN_DEADLOCK), "deadlock");
  EXPECT_EQ(words_of(static_cast<proto::RunStatus>(99)), "status 99");
}

TEST(EndingTables, VerdictsMapToJobStatesAndExitStatuses) {
  EXPECT_EQ(row_of(Verdict::kCompleteNoBug).state, proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(row_of(Verdict::kBugFound).exit_status, kBug);
  EXPECT_EQ(row_of(Verdict::kLimitReached).exit_status, kStoppedByLimit);
  EXPECT_EQ(row_of(Verdict::kCompleteNoBug).word, "complete");
  for (const auto& row : kVerdicts) EXPECT_EQ(verdict_of(row.state), row.verdict);
  EXPECT_FALSE(verdict_of(proto::JOB_QUEUED));
  EXPECT_FALSE(verdict_of(proto::JOB_FAILED));
}

}  // namespace
}  // namespace exocheck::endings
