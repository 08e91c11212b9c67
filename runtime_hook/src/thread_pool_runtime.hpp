#pragma once
// Normal mode: an ordinary multi-threaded actor runtime. Actors run on a Boost.Asio thread
// pool, one message at a time per actor; run() returns when nothing is left to do.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "exocheck/detail/actor_cell.hpp"
#include "exocheck/detail/runtime.hpp"
#include "free_run_recording.hpp"

namespace exocheck::detail {

class ThreadPoolRuntime : public Runtime {
 public:
  /// `threads` = 0: one per core.
  explicit ThreadPoolRuntime(unsigned threads = 0);
  ~ThreadPoolRuntime() override;

  ActorCell* create_cell(ActorCell* parent) override;
  void adopt(ActorCell* cell, std::unique_ptr<Actor> actor) override;
  void send(std::unique_ptr<Envelope> envelope) override;
  void destroy(ActorCell* cell) override;
  void arm(std::unique_ptr<Envelope> firing) override;
  void cancel(ActorCell* cell, const std::string& series) override;
  void abandon_reply(ActorCell* cell, const std::string& call) override;
  std::uint32_t choose(std::uint32_t range) override;

  /// Runs until quiescent. Returns 0, or 1 after a failed check, an exception or a deadlock.
  int run();

 private:
  /// A timer armed: its firing waits in `firing` until the time comes.
  struct ArmedTimer {
    std::unique_ptr<Envelope> firing;
    std::unique_ptr<boost::asio::steady_timer> clock;  ///< null until run() starts it
  };
  using TimerKey = std::pair<const ActorCell*, std::string>;  ///< its actor and its series

  void start_locked(const TimerKey& key, ArmedTimer& armed);
  void fire(const TimerKey& key);
  void schedule_locked(ActorCell& cell);
  /// A drain task or a timer ended: the last one wakes run().
  void work_done();
  void drain(ActorCell& cell);
  std::unique_ptr<Envelope> take_enabled_locked(ActorCell& cell);
  /// Ends `cell`: its mailbox's messages are dead letters, its monitors are told `reason`.
  void finish_destroy(ActorCell& cell, const char* reason);
  void report_failure(const ActorCell& cell, const Envelope& envelope, const std::string& what);
  bool report_deadlock();

  unsigned threads_;
  FreeRunRecorder* recorder_ = FreeRunRecorder::from_environment();  ///< null: not recording
  std::unique_ptr<boost::asio::thread_pool> pool_;
  std::mutex cells_mutex_;
  std::deque<std::unique_ptr<ActorCell>> cells_;
  std::uint32_t top_level_actors_ = 0;
  std::atomic<std::uint64_t> creation_seq_{0};
  std::atomic<bool> running_{false};
  std::atomic<bool> failed_{false};
  std::atomic<std::int64_t> active_{0};  ///< scheduled drain tasks not yet finished
  std::mutex idle_mutex_;
  std::condition_variable idle_;
  std::mutex output_mutex_;
  std::mutex timers_mutex_;
  std::map<TimerKey, ArmedTimer> timers_;  ///< armed and not yet fired or cancelled
};

}  // namespace exocheck::detail
