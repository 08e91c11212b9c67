#include "held_steps.hpp"

namespace exocheck::engine {

bool HeldSteps::prefix_of(const Configuration& c, std::size_t root_depth, std::vector<const ViewStep*>& prefix) const {
  if (above_root_.size() != root_depth + 1) return false;
  prefix.assign(c.depth + 1, nullptr);
  for (const Configuration* n = &c; n->depth > root_depth; n = n->parent) {
    if (!n->step) return false;
    prefix[n->depth] = &*n->step;
  }
  for (std::size_t k = 0; k <= root_depth; ++k) prefix[k] = &above_root_[k];
  return true;
}

void HeldSteps::hold_above_root(const TraceView& trace, std::size_t root_depth) {
  if (above_root_.size() == root_depth + 1 || trace.size() < root_depth) return;
  above_root_.clear();
  for (std::size_t k = 0; k <= root_depth; ++k) above_root_.push_back(trace.step(k));
}

void HeldSteps::hold_path(const TraceView& trace, const std::vector<Configuration*>& path, std::size_t root_depth) {
  for (std::size_t k = root_depth + 1; k < path.size(); ++k) {
    if (!path[k]->step) path[k]->step = trace.step(k);
  }
}

}  // namespace exocheck::engine
