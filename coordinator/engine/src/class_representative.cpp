#include "class_representative.hpp"

namespace exocheck::engine {
namespace {

enum class Starts { kNo, kYes, kUnknown };

/// Whether c's own run has come back: whether its delivery ended that run (Taken::cut_off) is known.
bool came_back(const Configuration& at, const Taken& c) {
  if (c.finished || c.cut_off) return true;
  const Configuration* child = at.child_of(c.serial);
  return child != nullptr && child->step.has_value();
}

/// Whether the message of the choice `c` taken at `at`, the configuration after step k, is an
/// initial of the rest of the run: the first step after k dependent with it delivers it, with c's
/// label or another (each label of a message delivered there is explored from there:
/// dependency.md, "Choices"). A delivery that ends the process (an abort(), a crash) ends c's own
/// run there, which then explores nothing of what this one delivered after k before it: c's own
/// run was cut off at it (Taken::cut_off), or this one was, in that step.
Starts starts_the_rest(const TraceView& trace, const Names& names, bool cut_off, std::size_t k, const Configuration& at,
                       const Taken& c) {
  const std::size_t first = trace.first_dependent_step_after(c.receiver, k, c.notifies);
  if (first == 0 || names.base(trace.step(first).label) != names.base(c.message)) return Starts::kNo;
  if (first == k + 1) return Starts::kYes;
  // The steps between are independent of the delivery: with c's label it meets the state and the
  // content c's own run met, and fails there exactly when c's did. A failure that ended the process
  // with messages pending (this run cut off in it) ended c's run too; one the run went on after
  // ended only its actor. One at the end with nothing pending may have been either, and another
  // label may fail where c's did not: only c's run tells.
  if (trace.step(first).label == c.message) {
    if (!trace.step(first).failed || first != trace.size()) return Starts::kYes;
    if (cut_off) return Starts::kNo;
  } else if (first == trace.size() && cut_off) {
    return Starts::kNo;
  }
  if (!came_back(at, c)) return Starts::kUnknown;
  return c.cut_off ? Starts::kNo : Starts::kYes;
}

}  // namespace

ClassVerdict represents_its_class(const TraceView& trace, const std::vector<Configuration*>& path, const Names& names,
                                  bool cut_off, const Configuration* started_at) {
  ClassVerdict verdict;
  // A run a failure ended where its item started ran nothing new: the run that reached that
  // configuration ended there too (the same delivery ends the process), and counted its class.
  // Not so at a subtree's root (no parent, a depth): its giver chose the step to it, never ran it.
  if (started_at != nullptr && trace.size() <= started_at->depth) {
    const bool given_root = started_at->parent == nullptr && started_at->depth > 0 && trace.size() == started_at->depth;
    if (!given_root) return verdict;
  }
  for (std::size_t k = 0; k < trace.size(); ++k) {
    Configuration* at = path[k];
    if (at == nullptr) continue;
    // The choices that sleep below the run's own, as the hook's sleep sets have it (configuration_
    // sleep.hpp, taken_before): those taken before it, or before the first other label of its
    // message. The own is the taking that reached the next configuration: a label taken twice
    // there (by an item issued before another's run came back) was first taken by the other.
    const std::uint32_t own = path[k + 1]->via_serial;
    const Key label = trace.step(k + 1).label;
    for (Taken& c : at->done) {
      if (c.serial == own || (c.message != label && names.base(c.message) == names.base(label))) break;
      switch (starts_the_rest(trace, names, cut_off, k, *at, c)) {
        case Starts::kYes:
          return {false, nullptr};
        case Starts::kUnknown:
          if (verdict.waits_on == nullptr) verdict.waits_on = &c;
          break;
        case Starts::kNo:
          break;
      }
    }
  }
  verdict.represents = verdict.waits_on == nullptr;
  return verdict;
}

}  // namespace exocheck::engine
