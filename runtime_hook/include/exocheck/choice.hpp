#pragma once
// Controlled choice: a value the program picks from a range. Started by hand it is random; under
// exploration every value is a branch the engine explores (the delivery runs once per value, in
// runs of their own), recorded in the trace and replayed exactly. For modelling what a program's
// environment may do (a client that may send any of three requests) and randomized protocols
// (an election timeout drawn from a range).
//
//   on([this](const Tick&) {
//     if (exocheck::choose_bool()) send(server_, Read{}); else send(server_, Write{exocheck::choose(3)});
//   });

#include <cstddef>

namespace exocheck {

/// One of 0 .. n - 1 (n at least 1). Call it in a handler, or in a constructor a handler runs; in
/// main before System::run() it throws std::logic_error (those values could not be explored).
std::size_t choose(std::size_t n);

/// choose(2) == 1.
inline bool choose_bool() {
  return choose(2) == 1;
}

}  // namespace exocheck
