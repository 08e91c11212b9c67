#include "exocheck/coordinator/exploration_settings.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "exocheck/options/check.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/option_rules.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/sleep_sets.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"

namespace exocheck::coordinator {
namespace {

bool is_hex_digest(const std::string& text) {
  return text.size() == 64 &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A value this build does not know (a newer client, or none set) is refused, never defaulted.
template <typename Table, typename Wire>
const typename Table::value_type& row_on_wire(const Table& table, Wire value, const char* axis) {
  const auto* row = options::row_on_wire(table, value);
  if (row == nullptr) throw std::invalid_argument(std::string("unknown ") + axis + " number " + std::to_string(value));
  return *row;
}

// A field left 0 on the wire means the default, which ExplorationOptions{} holds.
template <typename Value>
Value or_default(std::uint64_t wire, Value fallback) {
  return wire == 0 ? fallback : static_cast<Value>(wire);
}

ExplorationOptions from_wire(const proto::ExplorationSettings& settings, const std::string& subject,
                             const google::protobuf::RepeatedPtrField<std::string>& args) {
  const ExplorationOptions defaults;
  ExplorationOptions options;
  auto& explorer = options.explorer;
  explorer.reduction = row_on_wire(options::kReductions, settings.reduction(), "reduction").engine;
  explorer.heuristic = row_on_wire(options::kHeuristics, settings.heuristic(), "heuristic").engine;
  explorer.sleep_sets = row_on_wire(options::kSleepSets, settings.sleep_sets(), "sleep sets").engine;
  explorer.max_paths = settings.max_paths();
  explorer.strategy = row_on_wire(options::kStrategies, settings.strategy(), "strategy").engine;
  explorer.seed = settings.seed();
  explorer.pct_depth = or_default(settings.pct_depth(), defaults.explorer.pct_depth);
  explorer.delivery = row_on_wire(options::kDeliveries, settings.delivery(), "delivery order").engine;
  explorer.timers = row_on_wire(options::kTimers, settings.timers(), "timer semantics").engine;
  explorer.held_wakeup_events = or_default(settings.wakeup_budget(), defaults.explorer.held_wakeup_events);
  options.keep_going = settings.keep_going();
  options.bug_traces = or_default(settings.bug_traces(), defaults.bug_traces);
  options.max_bugs = settings.max_bugs();
  options.faults = settings.faults();
  options.liveness_bound = settings.liveness_bound();
  for (const int check : settings.checks()) {
    if (!options::add_check(options::row_on_wire(options::kChecks, static_cast<proto::Check>(check)),
                            options.explorer.checks)) {
      throw std::invalid_argument("unknown check number " + std::to_string(check));
    }
  }
  options.step_limit = or_default(settings.step_limit(), defaults.step_limit);
  options.run_timeout = std::chrono::milliseconds(or_default(settings.run_timeout_ms(), defaults.run_timeout.count()));
  options.time_limit = std::chrono::milliseconds(settings.time_limit_ms());
  options.root_prefix.assign(settings.root_prefix().begin(), settings.root_prefix().end());
  options.nearest_to.assign(settings.nearest_to().begin(), settings.nearest_to().end());
  options.subject = subject;
  options.args.assign(args.begin(), args.end());
  return options;
}

}  // namespace

proto::ExplorationSettings to_wire(const ExplorationOptions& options) {
  const auto& explorer = options.explorer;
  proto::ExplorationSettings wire;
  wire.set_reduction(options::row_of(options::kReductions, explorer.reduction).wire);
  wire.set_sleep_sets(options::row_of(options::kSleepSets, explorer.sleep_sets).wire);
  wire.set_heuristic(options::row_of(options::kHeuristics, explorer.heuristic).wire);
  wire.set_max_paths(explorer.max_paths);
  wire.set_strategy(options::row_of(options::kStrategies, explorer.strategy).wire);
  wire.set_seed(explorer.seed);
  wire.set_pct_depth(explorer.pct_depth);
  wire.set_delivery(options::row_of(options::kDeliveries, explorer.delivery).wire);
  wire.set_timers(options::row_of(options::kTimers, explorer.timers).wire);
  wire.set_wakeup_budget(explorer.held_wakeup_events);
  wire.set_time_limit_ms(static_cast<std::uint64_t>(options.time_limit.count()));
  wire.set_keep_going(options.keep_going);
  wire.set_bug_traces(options.bug_traces);
  wire.set_max_bugs(options.max_bugs);
  *wire.mutable_faults() = options.faults;
  wire.set_liveness_bound(options.liveness_bound);
  for (const auto& id : options.root_prefix) wire.add_root_prefix(id);
  for (const auto& id : options.nearest_to) wire.add_nearest_to(id);
  for (const auto* row : options::rows_of(explorer.checks)) {
    if (row->engine != nullptr) wire.add_checks(row->wire);
  }
  wire.set_run_timeout_ms(static_cast<std::uint64_t>(options.run_timeout.count()));
  wire.set_step_limit(options.step_limit);
  return wire;
}

JobSettings to_job_settings(const proto::SubmitRequest& request) {
  if (request.subject().empty()) throw std::invalid_argument("the subject path is empty");
  if (!is_hex_digest(request.sha256())) {
    throw std::invalid_argument("sha256 must be 64 lower-case hex characters, got '" + request.sha256() + "'");
  }
  JobSettings job{from_wire(request.settings(), request.subject(), request.args()), request.sha256()};
  for (const auto& refusal : {options::refusal(job.exploration.explorer), options::refusal(job.exploration.faults)}) {
    if (!refusal.empty()) throw std::invalid_argument(refusal);
  }
  return job;
}

ExplorationOptions options_of(const proto::JobOffer& offer) {
  return from_wire(offer.settings(), offer.subject(), offer.args());
}

}  // namespace exocheck::coordinator
