// The session's lock (spinning_mutex.hpp): a mutex first, however long it is held.
#include "exocheck/coordinator/spinning_mutex.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace exocheck::coordinator {
namespace {

TEST(SpinningMutex, KeepsOutEveryOtherThreadWhileHeld) {
  SpinningMutex mutex;
  std::uint64_t counter = 0;  // not atomic: the mutex alone keeps the increments apart
  constexpr int kThreads = 4, kIncrements = 20'000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kIncrements; ++i) {
        std::lock_guard lock(mutex);
        ++counter;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(counter, std::uint64_t{kThreads} * kIncrements);
}

TEST(SpinningMutex, TryLockFailsWhileAnotherHoldsIt) {
  SpinningMutex mutex;
  mutex.lock();
  bool taken = true;
  std::thread([&] { taken = mutex.try_lock(); }).join();
  EXPECT_FALSE(taken);
  mutex.unlock();
  std::thread([&] {
    taken = mutex.try_lock();
    if (taken) mutex.unlock();
  }).join();
  EXPECT_TRUE(taken);
}

// Held far longer than the spin: the waiter sleeps, and still gets the lock once it is free.
TEST(SpinningMutex, AWaiterBeyondTheSpinGetsTheLockWhenItIsUnlocked) {
  SpinningMutex mutex;
  mutex.lock();
  std::atomic<bool> acquired{false};
  std::thread waiter([&] {
    std::lock_guard lock(mutex);
    acquired = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(acquired.load());
  mutex.unlock();
  waiter.join();
  EXPECT_TRUE(acquired.load());
}

}  // namespace
}  // namespace exocheck::coordinator
