#include "exocheck/coordinator/exploration_settings.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "exocheck/options/check.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/sleep_sets.hpp"
#include "exocheck/options/strategy.hpp"

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

engine::ExplorerOptions to_explorer_options(const proto::ExplorationSettings& settings) {
  engine::ExplorerOptions explorer;
  explorer.reduction = row_on_wire(options::kReductions, settings.reduction(), "reduction").engine;
  explorer.heuristic = row_on_wire(options::kHeuristics, settings.heuristic(), "heuristic").engine;
  explorer.sleep_sets = row_on_wire(options::kSleepSets, settings.sleep_sets(), "sleep sets").engine;
  explorer.max_paths = settings.max_paths();
  if (explorer.reduction == engine::Reduction::kOptimal && !explorer.sleep_sets) {
    throw std::invalid_argument("reduction optimal always uses sleep sets (its wakeup trees need them)");
  }
  explorer.strategy = row_on_wire(options::kStrategies, settings.strategy(), "strategy").engine;
  explorer.seed = settings.seed();
  explorer.pct_depth = settings.pct_depth() == 0 ? options::kDefaultPctDepth : settings.pct_depth();
  return explorer;
}

}  // namespace

JobSettings to_job_settings(const proto::SubmitRequest& request) {
  if (request.subject().empty()) throw std::invalid_argument("the subject path is empty");
  if (!is_hex_digest(request.sha256())) {
    throw std::invalid_argument("sha256 must be 64 lower-case hex characters, got '" + request.sha256() + "'");
  }
  const auto& settings = request.settings();
  JobSettings job;
  job.exploration.explorer = to_explorer_options(settings);
  job.exploration.keep_going = settings.keep_going();
  job.exploration.check_determinism = row_on_wire(options::kChecks, settings.check(), "check").engine;
  job.exploration.step_limit = settings.step_limit() == 0 ? options::kDefaultStepLimit : settings.step_limit();
  job.exploration.subject = request.subject();
  job.exploration.args.assign(request.args().begin(), request.args().end());
  if (settings.run_timeout_ms() != 0) job.run_timeout = std::chrono::milliseconds(settings.run_timeout_ms());
  job.time_limit = std::chrono::milliseconds(settings.time_limit_ms());
  job.sha256 = request.sha256();
  return job;
}

JobSettings to_job_settings(const proto::JobOffer& offer) {
  proto::SubmitRequest submitted;
  submitted.set_subject(offer.subject());
  *submitted.mutable_args() = offer.args();
  submitted.set_sha256(offer.sha256());
  *submitted.mutable_settings() = offer.settings();
  return to_job_settings(submitted);
}

}  // namespace exocheck::coordinator
