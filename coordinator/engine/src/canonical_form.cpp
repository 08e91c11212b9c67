#include <map>

#include "exocheck/engine/explorer.hpp"

namespace exocheck::engine {

std::string canonical_form(const Execution& execution) {
  std::map<std::string, std::string> deliveries;  // actor -> its messages, in delivery order
  for (const auto& step : execution.steps) {
    auto& sequence = deliveries[step.actor];
    if (!sequence.empty()) sequence += ',';
    sequence += step.message;
  }
  std::string form;
  for (const auto& [actor, sequence] : deliveries) {
    form += actor;
    form += ':';
    form += sequence;
    form += ';';
  }
  return form;
}

}  // namespace exocheck::engine
