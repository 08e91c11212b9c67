#pragma once
// Who may run the program's code: the run's thread (which drives the schedule) or the thread of
// one blocking actor spawned with blocking_api. Exactly one runs at a time, so that the adapter's
// state and CAF's test scheduler are touched by one thread at a time, in the schedule's order;
// the mutex gives each handover its happens-before.

#include <condition_variable>
#include <mutex>

namespace exocheck::caf_adapter {

class ThreadBaton {
 public:
  /// The run's thread: `holder`'s thread runs from now on (a thread started after this call may
  /// take it at once).
  void give(const void* holder) {
    std::lock_guard lock(mutex_);
    holder_ = holder;
    changed_.notify_all();
  }
  /// The run's thread: waits until the holder hands the baton back.
  void await_return() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return holder_ == nullptr; });
  }
  /// A blocking actor's thread: hands the baton back and waits until it is given to `self` again.
  void hand_back_and_await(const void* self) {
    std::unique_lock lock(mutex_);
    holder_ = nullptr;
    changed_.notify_all();
    changed_.wait(lock, [this, self] { return holder_ == self; });
  }
  /// A blocking actor's thread as it ends: hands the baton back for good.
  void hand_back() { give(nullptr); }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  const void* holder_ = nullptr;
};

}  // namespace exocheck::caf_adapter
