#include "exploration_settings.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace exocheck::coordinator {
namespace {

bool is_hex_digest(const std::string& text) {
  return text.size() == 64 &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

engine::ExplorerOptions to_explorer_options(const proto::ExplorationSettings& settings) {
  engine::ExplorerOptions options;
  const auto reduction = engine::parse_reduction(settings.reduction());
  if (!reduction) throw std::invalid_argument("unknown reduction '" + settings.reduction() + "'");
  const auto heuristic = engine::parse_heuristic(settings.heuristic());
  if (!heuristic) throw std::invalid_argument("unknown heuristic '" + settings.heuristic() + "'");
  options.reduction = *reduction;
  options.heuristic = *heuristic;
  options.sleep_sets = settings.sleep_sets();
  options.max_paths = settings.max_paths();
  return options;
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
  job.exploration.check_determinism = settings.check_determinism();
  job.exploration.step_limit = settings.step_limit() == 0 ? kDefaultStepLimit : settings.step_limit();
  job.exploration.subject = request.subject();
  job.exploration.args.assign(request.args().begin(), request.args().end());
  if (settings.run_timeout_ms() != 0) job.run_timeout = std::chrono::milliseconds(settings.run_timeout_ms());
  job.time_limit = std::chrono::milliseconds(settings.time_limit_ms());
  job.sha256 = request.sha256();
  return job;
}

}  // namespace exocheck::coordinator
