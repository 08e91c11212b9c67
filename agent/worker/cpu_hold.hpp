#pragma once
// A worker that is not pinned to a CPU holds on to the one it runs on for a while at a time. A run
// and its worker take turns, each waking the other; left to the scheduler, the one woken was often
// placed on another, idle CPU, and on a virtual machine waking an idle CPU costs tens of
// microseconds, as much as a run (its fork server follows the worker: ForkServerClient). Every
// kHoldFor the worker lets go for one run, so that the scheduler may move it where the machine's
// load leaves room, and then holds on to where it woke.

#include <sched.h>

#include <chrono>
#include <utility>
#include <vector>

#include "cpu_pinning.hpp"

namespace exocheck::agent {

class CpuHold {
 public:
  static constexpr std::chrono::milliseconds kHoldFor{100};

  explicit CpuHold(std::vector<int> allowed) : allowed_(std::move(allowed)) {}
  ~CpuHold() { let_go(); }
  CpuHold(const CpuHold&) = delete;
  CpuHold& operator=(const CpuHold&) = delete;

  /// Before a run: lets go of the CPU once held long enough.
  void before_run() {
    if (held_ && std::chrono::steady_clock::now() - since_ >= kHoldFor) let_go();
  }
  /// After a run: holds on to the CPU the thread woke on, unless held already.
  void after_run() {
    if (held_ || allowed_.size() < 2) return;
    const int cpu = ::sched_getcpu();
    if (cpu < 0 || !pin_this_thread({cpu})) return;
    held_ = true;
    since_ = std::chrono::steady_clock::now();
  }

 private:
  void let_go() {
    if (held_) pin_this_thread(allowed_);
    held_ = false;
  }

  const std::vector<int> allowed_;
  bool held_ = false;
  std::chrono::steady_clock::time_point since_;
};

}  // namespace exocheck::agent
