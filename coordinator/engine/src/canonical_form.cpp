#include "exocheck/engine/explorer.hpp"
#include "names.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

std::string canonical_form(const Execution& execution, Timers timers) {
  Names names;
  TraceView view;
  view.set_timers(timers);
  view.assign(execution, names);
  return view.canonical_form(names);
}

}  // namespace exocheck::engine
