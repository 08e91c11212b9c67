#include <algorithm>
#include <string_view>
#include <vector>

#include "exocheck/engine/explorer.hpp"

namespace exocheck::engine {

std::string canonical_form(const Execution& execution) {
  // Deliveries sorted by actor, each actor's in delivery order (a stable sort keeps it): one
  // allocation for the result instead of a map of strings per run.
  std::vector<const Step*> steps;
  steps.reserve(execution.steps.size());
  std::size_t length = 0;
  for (const auto& step : execution.steps) {
    steps.push_back(&step);
    length += step.actor.size() + step.message.size() + 2;
  }
  std::stable_sort(steps.begin(), steps.end(), [](const Step* a, const Step* b) { return a->actor < b->actor; });
  std::string form;
  form.reserve(length);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool first_of_actor = i == 0 || steps[i - 1]->actor != steps[i]->actor;
    if (first_of_actor) {
      form += steps[i]->actor;
      form += ':';
    } else {
      form += ',';
    }
    form += steps[i]->message;
    const bool last_of_actor = i + 1 == steps.size() || steps[i + 1]->actor != steps[i]->actor;
    if (last_of_actor) form += ';';
  }
  return form;
}

}  // namespace exocheck::engine
