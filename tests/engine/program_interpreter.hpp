#pragma once
// The interpreter of a Program (interpreter.hpp's run_program): one run of it, as the hook's
// controlled mode runs a real subject. Its faults and monitors are interpreter_faults.cpp's, the
// rest interpreter.cpp's.

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "interpreted_state.hpp"
#include "interpreter.hpp"
#include "scheduling_order.hpp"

namespace exocheck::engine::testing::interpreted {

class Interpreter {
 public:
  Interpreter(const Program& program, const RunSpec& spec) : program_(program), spec_(spec), order_(request_of(spec)) {}
  Execution run();

 private:
  /// Whether the sleeping message `id` notifies on a lane the step in progress notified on (the
  /// hook's sleep set, RunSpec::sleep_notifying_lanes).
  bool notifies_on_lanes_of_step(const std::string& id) const;
  const Message* pending_named(const std::string& id) const;
  bool quiescent_firing(const Message& m) const;
  std::vector<std::size_t> awake_messages(const std::vector<std::size_t>& enabled,
                                          const std::vector<std::string>& sleep) const;

  // The hook's messages are the same proto messages, compiled in their own package (wire_messages.hpp).
  static exocheck::detail::proto::RunRequest request_of(const RunSpec& spec);
  std::size_t choose(const std::vector<std::size_t>& candidates, std::size_t step);
  bool is_enabled(const Message& m) const;

  /// Whether the guard of actor type `actor_type` for `message_type` accepts it at `count` steps.
  bool guard_accepts(int actor_type, int count, int message_type) const;
  std::vector<std::size_t> enabled_messages() const;
  int spawn(int parent, int type);
  void post(Message m);
  void enqueue(Message m);

  // Faults, as the hook's controlled_faults.cpp has them.
  enum class NetworkFault { kNone, kLost, kDuplicated };
  NetworkFault network_fault(const Message& m);

  // As the hook's ControlledRuntime::partitioned: the sender's own link state.
  bool partitioned(const Message& m);
  void post_copy(const Message& original);
  std::uint32_t fault_choice(std::uint32_t range);
  void offer_crash(int self);
  void tell_monitors(int self);
  void monitor(int self, int target);
  void answer_monitor_request(const Message& request);
  /// exocheck::notify (Action::Op::kNotify): false when the monitor's check fails.
  bool notify(int self, const Action& action);

  /// Takes the first pending message `matches` accepts out of the run, lost in this step.
  template <typename Matches>
  bool withdraw(Matches matches) {
    const auto found = std::find_if(pending_.begin(), pending_.end(), matches);
    if (found == pending_.end()) return false;
    current_->dead_letters.push_back(found->id);
    pending_.erase(found);
    return true;
  }
  void arm(int self, TimerKind kind, int type, long value, int delay, std::string answers = {}, bool quiescent = false);
  void cancel(int self, const std::string& series);
  int resolve(int self, Target target, int slot, const Message* handled) const;

  // Returns false when a check failed.
  bool run_actions(int self, const Handler& handler, const Message* handled);
  bool run_action(int self, const Action& action, const Message* handled);
  Message make_message(int self, int to, int type, long value);
  void send(int self, const Action& action, const Message* handled);

  // As the hook's ControlledRuntime::choose: the prefix entry's values, a randomized strategy's
  // draws from a stream of its own, else 0.
  std::uint32_t choose(std::uint32_t range);

  /// The step's label and alternatives from its choices (the session's take_choices).
  void record_choices();
  bool deliver(std::size_t index);
  void destroy(int index);
  void finish_destroys();
  Execution finish(Ending ending, std::string detail);
  Execution finish_quiescent();

  const Program& program_;
  const RunSpec& spec_;
  exocheck::detail::SchedulingOrder order_;
  Execution execution_;
  Step* current_ = nullptr;
  std::vector<Actor> actors_;
  std::vector<Message> pending_;
  std::shared_ptr<const VectorClock> step_clock_;
  std::uint64_t send_seq_ = 0;
  std::uint64_t now_ = 0;                                    ///< virtual time: the due time of the latest timer fired
  std::vector<std::uint32_t> prescribed_, ranges_, values_;  ///< the step in progress's choices
  bool random_choices_ =
      spec_.heuristic == proto::RANDOM_WALK || spec_.heuristic == proto::PCT || spec_.heuristic == proto::POS;
  std::mt19937_64 choice_random_{spec_.seed ^ 0x63686f6f7365ULL};
  std::uint64_t creation_seq_ = 0;
  int environment_sent_ = 0;
  int roots_spawned_ = 0;
  /// The specification monitors' (Action::Op::kNotify): monitor 0's, and monitor 1's two parts'.
  std::array<long, 3> monitor_states_{};
  std::map<std::string, VectorClock> monitor_clocks_;  ///< per monitors' lane, its latest step's clock
  std::string failure_;   ///< the first failed check; the run goes on without the failed actor
  bool aborted_ = false;  ///< a kAbort failed: the run ends with the step in progress
  bool copying_ = false;  ///< posting the network's copy of a message: no fault for it
};

}  // namespace exocheck::engine::testing::interpreted
