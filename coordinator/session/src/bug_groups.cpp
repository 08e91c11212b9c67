#include "exocheck/coordinator/bug_groups.hpp"

#include <utility>

namespace exocheck::coordinator {

namespace {

/// Whether a run of `steps` steps (`sampled` or not) would represent a bug better than `held`.
bool better(std::uint64_t steps, bool sampled, const Bug& held) {
  return steps < held.steps() || (steps == held.steps() && held.sampled && !sampled);
}

}  // namespace

BugGroups::Offered BugGroups::offer(Bug& run) {
  const auto key = run.signature.key();
  const auto found = index_.find(key);
  const bool traced = run.has_trace() && traces_held_ < traces_;
  if (found == index_.end()) {
    const std::size_t index = groups_.size();
    index_.emplace(key, index);
    if (!traced) {
      run.trace.Clear();
      run.reference.reset();
    }
    traces_held_ += traced ? 1 : 0;
    run.number = index + 1;
    run.paths = 0;
    run.classes = 0;
    groups_.push_back({std::move(run), {}, 0});
    return {index, true, true};
  }
  Bug& held = groups_[found->second].bug;
  const bool shorter = held.has_trace() ? run.has_trace() && better(run.steps(), run.sampled, held) : traced;
  if (!shorter) return {found->second, false, false};
  traces_held_ += held.has_trace() ? 0 : 1;
  run.number = held.number;
  // Who found the bug first stays so: a shorter run of it is only a better representative.
  run.found_at_run = held.found_at_run;
  run.found_by = std::move(held.found_by);
  run.paths = held.paths;
  run.classes = held.classes;
  held = std::move(run);
  return {found->second, false, true};
}

void BugGroups::count(std::size_t index, std::uint64_t paths, const std::vector<engine::ClassKey>& classes,
                      std::uint64_t counted_classes) {
  Group& group = groups_.at(index);
  group.bug.paths += paths;
  group.classes.insert(classes.begin(), classes.end());
  group.counted_classes += counted_classes;
  group.bug.classes = group.classes.size() + group.counted_classes;
}

BugGroups::Wanted BugGroups::wanted(const std::string& signature_key, std::uint64_t steps, bool sampled) const {
  const bool room = traces_held_ < traces_;
  const auto found = index_.find(signature_key);
  if (found == index_.end()) return {true, room};
  const Bug& held = groups_[found->second].bug;
  const bool shorter = held.has_trace() ? better(steps, sampled, held) : room;
  return {shorter, shorter};
}

std::optional<std::size_t> BugGroups::find(const std::string& signature_key) const {
  const auto found = index_.find(signature_key);
  if (found == index_.end()) return std::nullopt;
  return found->second;
}

std::vector<Bug> BugGroups::bugs() const {
  std::vector<Bug> bugs;
  bugs.reserve(groups_.size());
  for (const auto& group : groups_) bugs.push_back(group.bug);
  return bugs;
}

std::vector<BugTally> BugGroups::tallies() const {
  std::vector<BugTally> tallies;
  tallies.reserve(groups_.size());
  for (const auto& group : groups_) {
    tallies.push_back({group.bug.signature.key(),
                       group.bug.paths,
                       {group.classes.begin(), group.classes.end()},
                       group.counted_classes});
  }
  return tallies;
}

}  // namespace exocheck::coordinator
