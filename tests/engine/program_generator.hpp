#pragma once
// Random small actor programs for differential testing. Messages have levels and handlers only
// send to higher levels, so every program terminates; guards, calls, destroy, dead letters,
// assertions and deadlocks all occur.

#include <cstdint>

#include "program.hpp"

namespace exocheck::engine::testing {

/// What a generated program may use beyond messages, guards, calls and destroy. With none, the
/// programs are those every earlier test ran (the same random draws).
struct Features {
  bool timers = false;   ///< one-shot timers, periodic ones (cancelled after a few firings), cancels, call timeouts
  bool choices = false;  ///< handlers that choose a value (exocheck::choose) that changes what they do
  /// With timers: some one-shot timers sent quiescent, as an adapter sends its events of the whole
  /// run (a CAF stream's idle tick, caf_main's return from await_all_actors_done()).
  bool quiescent_timers = false;
  /// Actors that monitor others (Actor::monitor) and handle their Down.
  bool monitors = false;
  /// Handlers that notify specification monitors (exocheck::notify), two of them, whose state
  /// depends on the order of their notifications and whose check may fail.
  bool specifications = false;
  /// Handlers that may assert() as a C++ program does: a failure ends the process, and the run,
  /// with that step, whatever was still enabled.
  bool aborts = false;
  /// The faults each run may suffer (the budget, the same for every program); with crashes, some
  /// actor types restart.
  FaultBudget faults{};
};

Program generate_program(std::uint64_t seed, Features features = {});

}  // namespace exocheck::engine::testing
