#include "interruption.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace exocheck::cli {
namespace {

std::atomic<bool> interrupted{false};
struct sigaction previous_int {};
struct sigaction previous_term {};

// Async-signal-safe only: an atomic store, write(2), and going back to the default action so
// that the next signal ends the process.
void on_signal(int signal) {
  if (interrupted.exchange(true)) return;
  constexpr char kNote[] = "\nexocheck: stopping: the runs in progress are given up (again to quit at once)\n";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, kNote, sizeof kNote - 1);
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigemptyset(&fallback.sa_mask);
  ::sigaction(signal == SIGINT ? SIGINT : SIGTERM, &fallback, nullptr);
  ::sigaction(signal == SIGINT ? SIGTERM : SIGINT, &fallback, nullptr);
}

}  // namespace

Interruption::Interruption() {
  interrupted = false;
  struct sigaction action {};
  action.sa_handler = on_signal;
  ::sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_int);
  ::sigaction(SIGTERM, &action, &previous_term);
}

Interruption::~Interruption() {
  ::sigaction(SIGINT, &previous_int, nullptr);
  ::sigaction(SIGTERM, &previous_term, nullptr);
}

bool Interruption::requested() {
  return interrupted.load();
}

}  // namespace exocheck::cli
