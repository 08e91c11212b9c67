#pragma once
// A mutex that spins a little before it sleeps. The session's lock is held for a few
// microseconds per result; a worker that finds it taken and goes to sleep leaves its CPU idle,
// and on a virtual machine an idle vCPU is slow to wake (the hypervisor deschedules it). Spinning
// for about as long as the lock is usually held keeps the waiter on its CPU. Meets Lockable.

#include <atomic>
#include <chrono>
#include <mutex>

namespace exocheck::coordinator {

/// Tells the CPU that the caller is spinning: the pause costs it less power and its sibling
/// hyperthread less time, and the loop's end less of a pipeline flush.
inline void relax_cpu() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class SpinningMutex {
 public:
  void lock() {
    if (try_lock()) return;
    const auto until = std::chrono::steady_clock::now() + kSpinFor;
    for (unsigned spin = 1;; ++spin) {
      relax_cpu();
      // Reading the hint first keeps the waiter off the lock's cache line while it is held.
      if (!held_.load(std::memory_order_relaxed) && try_lock()) return;
      if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) break;
    }
    mutex_.lock();
    held_.store(true, std::memory_order_relaxed);
  }

  bool try_lock() {
    if (!mutex_.try_lock()) return false;
    held_.store(true, std::memory_order_relaxed);
    return true;
  }

  void unlock() {
    held_.store(false, std::memory_order_relaxed);
    mutex_.unlock();
  }

 private:
  // About as long as one result's work under the lock in exocheck-bench's explorations.
  static constexpr std::chrono::microseconds kSpinFor{20};

  std::mutex mutex_;
  std::atomic<bool> held_{false};
};

}  // namespace exocheck::coordinator
