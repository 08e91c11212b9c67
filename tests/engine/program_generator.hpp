#pragma once
// Random small actor programs for differential testing. Messages have levels and handlers only
// send to higher levels, so every program terminates; guards, calls, destroy, dead letters,
// assertions and deadlocks all occur.

#include <cstdint>

#include "program.hpp"

namespace exocheck::engine::testing {

Program generate_program(std::uint64_t seed);

}  // namespace exocheck::engine::testing
