// An exploration's options on the wire: what the client encodes is what every agent decodes, a
// field left 0 means the default, and the coordinator refuses what the CLI refuses, in its words.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/options/option_rules.hpp"

namespace exocheck::coordinator {
namespace {

using std::chrono::milliseconds;

constexpr char kSha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

ExplorationOptions every_field_set() {
  ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kDpor;
  options.explorer.sleep_sets = false;
  options.explorer.heuristic = engine::Heuristic::kSgr;
  options.explorer.max_paths = 77;
  options.explorer.strategy = engine::Strategy::kPct;
  options.explorer.seed = 123456789;
  options.explorer.pct_depth = 5;
  options.explorer.delivery = engine::Delivery::kCausal;
  options.step_limit = 42;
  options.run_timeout = milliseconds(2'500);
  options.time_limit = milliseconds(90'000);
  options.keep_going = true;
  options.explorer.checks.determinism = true;
  options.explorer.checks.termination = true;
  options.subject = "/bin/subject";
  options.args = {"--n=3", "x"};
  return options;
}

proto::SubmitRequest submission_of(const ExplorationOptions& options) {
  proto::SubmitRequest request;
  request.set_subject(options.subject);
  for (const auto& arg : options.args) request.add_args(arg);
  request.set_sha256(kSha);
  *request.mutable_settings() = to_wire(options);
  return request;
}

void expect_same(const ExplorationOptions& a, const ExplorationOptions& b) {
  EXPECT_EQ(a.explorer.reduction, b.explorer.reduction);
  EXPECT_EQ(a.explorer.sleep_sets, b.explorer.sleep_sets);
  EXPECT_EQ(a.explorer.heuristic, b.explorer.heuristic);
  EXPECT_EQ(a.explorer.max_paths, b.explorer.max_paths);
  EXPECT_EQ(a.explorer.strategy, b.explorer.strategy);
  EXPECT_EQ(a.explorer.seed, b.explorer.seed);
  EXPECT_EQ(a.explorer.pct_depth, b.explorer.pct_depth);
  EXPECT_EQ(a.explorer.delivery, b.explorer.delivery);
  EXPECT_EQ(a.step_limit, b.step_limit);
  EXPECT_EQ(a.run_timeout, b.run_timeout);
  EXPECT_EQ(a.time_limit, b.time_limit);
  EXPECT_EQ(a.keep_going, b.keep_going);
  EXPECT_EQ(a.explorer.checks.determinism, b.explorer.checks.determinism);
  EXPECT_EQ(a.explorer.checks.termination, b.explorer.checks.termination);
  EXPECT_EQ(a.subject, b.subject);
  EXPECT_EQ(a.args, b.args);
}

TEST(ExplorationSettings, WhatTheClientEncodesTheCoordinatorAndEveryAgentDecode) {
  const auto sent = every_field_set();
  const auto job = to_job_settings(submission_of(sent));
  expect_same(job.exploration, sent);
  EXPECT_EQ(job.sha256, kSha);
  // The offer is the coordinator's own encoding of what it checked.
  proto::JobOffer offer;
  offer.set_subject(job.exploration.subject);
  for (const auto& arg : job.exploration.args) offer.add_args(arg);
  *offer.mutable_settings() = to_wire(job.exploration);
  expect_same(options_of(offer), sent);
}

TEST(ExplorationSettings, AFieldLeftZeroIsTheDefault) {
  proto::SubmitRequest request;
  request.set_subject("/bin/subject");
  request.set_sha256(kSha);
  request.mutable_settings()->set_reduction(proto::REDUCTION_TRANSDPOR);
  request.mutable_settings()->set_heuristic(proto::FIFO);
  request.mutable_settings()->set_sleep_sets(true);
  const ExplorationOptions defaults;
  const auto decoded = to_job_settings(request).exploration;
  EXPECT_EQ(decoded.step_limit, defaults.step_limit);
  EXPECT_EQ(decoded.run_timeout, defaults.run_timeout);
  EXPECT_EQ(decoded.explorer.pct_depth, defaults.explorer.pct_depth);
  EXPECT_EQ(decoded.time_limit, milliseconds(0));
}

TEST(ExplorationSettings, TheCoordinatorRefusesWhatTheCliRefusesInItsWords) {
  auto options = every_field_set();
  options.explorer.reduction = engine::Reduction::kOptimal;
  options.explorer.sleep_sets = false;
  const auto refusal = options::refusal(options.explorer);
  EXPECT_EQ(refusal,
            "--reduction optimal (the default) always uses sleep sets (its wakeup trees need them): --no-sleep-sets "
            "needs --reduction dpor, transdpor or exhaustive");
  try {
    (void)to_job_settings(submission_of(options));
    FAIL() << "a submission the CLI refuses was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), refusal);
  }
  options = every_field_set();
  options.explorer.pct_depth = 65;
  EXPECT_EQ(options::refusal(options.explorer), "--depth must be from 1 to 64, not 65");
  EXPECT_THROW((void)to_job_settings(submission_of(options)), std::invalid_argument);
  // A fault budget's range, which the CLI's --crash checks too.
  options = every_field_set();
  options.faults.set_crashes(1001);
  try {
    (void)to_job_settings(submission_of(options));
    FAIL() << "a fault budget the CLI refuses was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "--crash must be from 0 to 1000, not 1001");
  }
  // A portfolio is a job like any other: each lease a portfolio over its subtree.
  options = every_field_set();
  options.explorer.strategy = engine::Strategy::kPortfolio;
  EXPECT_EQ(to_job_settings(submission_of(options)).exploration.explorer.strategy, engine::Strategy::kPortfolio);
  // An agent decodes what the coordinator checked: it does not check again, but it cannot decode
  // a value it does not know.
  proto::JobOffer offer;
  *offer.mutable_settings() = to_wire(every_field_set());
  offer.mutable_settings()->set_reduction(static_cast<proto::Reduction>(99));
  EXPECT_THROW((void)options_of(offer), std::invalid_argument);
}

}  // namespace
}  // namespace exocheck::coordinator
