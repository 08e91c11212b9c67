// fault_threads: starts a helper thread before the actor system runs and keeps it running (as a
// logger or a pool would), so a fork server of this process would copy only one of its threads.
// The runner must notice, warn and run it one process per run; the relay itself is faultless
// (five hops). Started by hand, it runs the relay the same way and exits 0.

#include <condition_variable>
#include <mutex>
#include <thread>

#include "relay.hpp"

int main() {
  std::mutex mutex;
  std::condition_variable stop;
  bool stopping = false;
  std::thread helper([&] {
    std::unique_lock lock(mutex);
    stop.wait(lock, [&] { return stopping; });
  });
  exocheck::System system;
  const int code = exocheck::fault_subjects::run_relay(system, exocheck::fault_subjects::FaultPlan{});
  {
    std::lock_guard lock(mutex);
    stopping = true;
  }
  stop.notify_one();
  helper.join();
  return code;
}
