#include "exocheck/coordinator/determinism_check.hpp"

#include <algorithm>
#include <iterator>

namespace exocheck::coordinator {

std::optional<std::string> DeterminismCheck::observe(const std::vector<std::string>& state) {
  if (!reference_) {
    reference_ = state;
    return std::nullopt;
  }
  if (state == *reference_ || !reported_.insert(state).second) return std::nullopt;
  return final_state_diff(*reference_, state);
}

std::vector<std::vector<std::string>> DeterminismCheck::seen() const {
  std::vector<std::vector<std::string>> states;
  if (!reference_) return states;
  states.push_back(*reference_);
  states.insert(states.end(), reported_.begin(), reported_.end());
  return states;
}

std::string final_state_diff(const std::vector<std::string>& before, const std::vector<std::string>& after,
                             std::size_t max_lines) {
  std::vector<std::string> only_before;
  std::vector<std::string> only_after;
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(only_before));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(only_after));
  std::vector<std::string> lines;
  for (const auto& line : only_before) lines.push_back("-" + line);
  for (const auto& line : only_after) lines.push_back("+" + line);
  std::string diff;
  for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i) diff += (i == 0 ? "" : ", ") + lines[i];
  if (lines.size() > max_lines) diff += ", and " + std::to_string(lines.size() - max_lines) + " more";
  return diff;
}

}  // namespace exocheck::coordinator
