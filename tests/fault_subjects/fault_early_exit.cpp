// fault_early_exit: exits with code 7 while handling the third hop, after steps 0, 1 and 2 were
// recorded: std::exit(7) by default (static destructors and atexit handlers run), _exit(7) with
// --immediate (nothing runs). Started by hand, it injects no fault: exiting from a pool thread
// while others run proves nothing; the relay runs its five hops and the program exits 0.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "relay.hpp"

int main(int argc, char** argv) {
  CLI::App app{"fault_early_exit: exits with code 7 in the middle of a controlled run"};
  bool immediate = false;
  app.add_flag("--immediate", immediate, "use _exit(7) instead of std::exit(7)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  exocheck::System system;
  exocheck::fault_subjects::FaultPlan plan;
  if (system.controlled()) {
    plan.fault = immediate ? [] { ::_exit(7); } : [] { std::exit(7); };
  }
  return exocheck::fault_subjects::run_relay(system, plan);
}
