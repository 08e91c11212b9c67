#pragma once
// The papers' programs whose figures are exact consequences of their description, as data.

#include "program.hpp"

namespace exocheck::engine::testing {

/// TransDPOR paper Fig. 1 (SUBJECTS.md "registry"): the master's code is the initial step.
Program registry_program(int workers = 2);

/// Heuristics paper Fig. 3 (SUBJECTS.md "pi"): workers created in the master's constructor.
Program pi_program(int workers);

}  // namespace exocheck::engine::testing
