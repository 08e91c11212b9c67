#include "exocheck/engine/explorer.hpp"

#include "exploration.hpp"

namespace exocheck::engine {
namespace {

std::unique_ptr<Exploration> make_exploration(const ExplorerOptions& options, const Subtree* subtree) {
  if (options.strategy == Strategy::kPortfolio) return make_portfolio(options, subtree);
  if (options.strategy != Strategy::kSystematic) return make_sampled_runs(options, subtree);
  if (options.reduction == Reduction::kOptimal) return make_optimal_exploration(options, subtree);
  return make_tree_exploration(options, subtree);
}

}  // namespace

Explorer::Explorer(ExplorerOptions options) : state_(make_exploration(options, nullptr)) {}
Explorer::Explorer(ExplorerOptions options, const Subtree& subtree) : state_(make_exploration(options, &subtree)) {}
Explorer::~Explorer() = default;
std::optional<WorkItem> Explorer::next() {
  if (state_->interrupted()) return std::nullopt;
  return state_->next();
}
bool Explorer::complete(std::uint64_t id, const Execution& execution) {
  return state_->complete(id, execution);
}
void Explorer::abandon(std::uint64_t id) {
  state_->abandon(id);
}
std::optional<Subtree> Explorer::split() {
  if (state_->interrupted()) return std::nullopt;
  return state_->split();
}
void Explorer::subtree_finished(std::uint64_t id) {
  state_->subtree_finished(id);
}
bool Explorer::request_backtrack(const BacktrackRequest& request) {
  return state_->request_backtrack(request);
}
std::vector<BacktrackRequest> Explorer::take_backtrack_requests() {
  return state_->take_backtrack_requests();
}
std::size_t Explorer::backtrack_requests_held() const {
  return state_->backtrack_requests_held();
}
void Explorer::interrupt() {
  state_->interrupt();
}
// Interrupted, it waits for no subtree given away: whoever explores that was stopped too.
bool Explorer::finished() const {
  return state_->finished() || (state_->interrupted() && state_->outstanding() == 0);
}
// A path cut at the step limit leaves what comes after it unexplored: unless that is a bug
// (--check termination), the exploration is bounded, never complete. So does a run whose races
// were analysed in part, or cut short to hold the wakeup trees within their budget.
bool Explorer::explored_completely() const {
  const Stats& stats = state_->stats();
  return !state_->interrupted() && state_->explored_completely() && stats.analysed_in_part == 0 &&
         stats.cut_for_memory == 0 && (stats.step_limited == 0 || state_->options().checks.termination);
}
std::size_t Explorer::outstanding() const {
  return state_->outstanding();
}
std::size_t Explorer::frontier() const {
  return state_->frontier();
}
double Explorer::explored_share() const {
  return state_->explored_share();
}
std::size_t Explorer::configurations() const {
  return state_->configurations();
}
const Stats& Explorer::stats() const {
  return state_->stats();
}
const ExplorerOptions& Explorer::options() const {
  return state_->options();
}
std::set<std::string> Explorer::classes() const {
  return state_->classes();
}
std::vector<ClassKey> Explorer::class_keys() const {
  return state_->class_keys();
}
bool Explorer::new_class() const {
  return state_->new_class();
}

bool counts_classes(const ExplorerOptions& options) {
  return (options.strategy == Strategy::kSystematic || options.strategy == Strategy::kPortfolio) &&
         options.reduction == Reduction::kOptimal;
}

}  // namespace exocheck::engine
