#pragma once
// `explore --check determinism`: every completed path must end in the final state of the first
// one. A final state is the sorted per-actor summaries the actor API exposes (Actor::final_state).
// No I/O; the session keeps the traces.

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace exocheck::coordinator {

class DeterminismCheck {
 public:
  /// The final state of one more completed path. The first one becomes the reference. Returns a
  /// short diff against the reference ("-" its lines, "+" this one's) when `state` differs from
  /// it and from every state reported before, so that each distinct final state is one finding.
  std::optional<std::string> observe(const std::vector<std::string>& state);
  /// The states observed: the reference first, then each one reported; observed again in this
  /// order, they make the same check (a compacted journal's).
  std::vector<std::vector<std::string>> seen() const;

 private:
  std::optional<std::vector<std::string>> reference_;
  std::set<std::vector<std::string>> reported_;
};

/// "-0.1: x=4, +0.1: x=5": the lines only in `before` then those only in `after` (both sorted),
/// at most `max_lines` of them, then "and N more".
std::string final_state_diff(const std::vector<std::string>& before, const std::vector<std::string>& after,
                             std::size_t max_lines = 6);

}  // namespace exocheck::coordinator
