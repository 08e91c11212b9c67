#include "program_generator.hpp"

#include <random>
#include <vector>

namespace exocheck::engine::testing {
namespace {

constexpr int kMessageTypes = 4;  // message type t has level t
constexpr int kRootTypes = 2;
constexpr int kChildTypes = 2;

class Generator {
 public:
  Generator(std::uint64_t seed, Features features) : random_(seed), features_(features) {}

  Program program() {
    Program p;
    for (int t = 0; t < kMessageTypes; ++t) p.message_names.push_back("M" + std::to_string(t));
    for (int t = 0; t < kRootTypes; ++t) p.types.push_back(actor_type(true, "Root" + std::to_string(t)));
    for (int t = 0; t < kChildTypes; ++t) p.types.push_back(actor_type(false, "Child" + std::to_string(t)));
    p.faults = features_.faults;
    const int roots = 1 + pick(2);
    for (int r = 0; r < roots; ++r) p.roots.push_back(pick(kRootTypes));
    const int initial = 1 + pick(3);
    for (int i = 0; i < initial; ++i) {
      p.initial.push_back({pick(roots), pick(2), pick(3), chance(2) ? pick(roots) : -1});
    }
    return p;
  }

 private:
  int pick(int n) { return static_cast<int>(random_() % static_cast<std::uint64_t>(n)); }
  bool chance(int one_in) { return pick(one_in) == 0; }

  ActorType actor_type(bool root, std::string name) {
    ActorType type;
    type.name = std::move(name);
    periodic_cancel_ = 0;
    if (root) {
      const int children = pick(3);
      for (int c = 0; c < children; ++c) {
        type.constructor.push_back({.op = Action::Op::kSpawn, .type = kRootTypes + pick(kChildTypes), .slot = c});
      }
      if (children > 0 && chance(3)) type.constructor.push_back(send_action(0, /*in_constructor=*/true));
      if (features_.timers) add_constructor_timers(type);
    }
    for (int t = 0; t < kMessageTypes; ++t) type.handlers.emplace_back(t, handler(t));
    type.continuations.push_back(chance(2) ? Handler{} : Handler{send_action(2, false)});
    if (features_.timers) {
      type.continuations.push_back(chance(2) ? Handler{} : Handler{send_action(1, false)});
      // Every delivery runs a handler or a continuation: one of them sees the count at which the
      // periodic timer is cancelled.
      for (auto& continuation : type.continuations) add_periodic_cancel(continuation);
    }
    if (features_.monitors) add_monitors(type, root);
    if (features_.faults.crashes != 0 && chance(2)) {
      type.restarts = true;
      if (chance(2)) type.restart.push_back(send_action(1, false));
    }
    if (chance(3)) {
      const int guarded = pick(kMessageTypes);
      const int min_count = 1 + pick(2);
      type.guards.push_back({guarded, min_count, chance(2) ? pick(2) : -1});
    }
    return type;
  }

  Action send_action(int level, bool in_constructor) {
    Action a{.op = Action::Op::kSend};
    a.type = level + 1 + pick(kMessageTypes - level - 1);
    const int where = pick(in_constructor ? 2 : 5);
    a.to = where < 2 ? Target::kSlot : where == 2 ? Target::kSender : where == 3 ? Target::kCarried : Target::kSlot;
    a.slot = where == 4 ? 2 : where;
    a.value = pick(3);
    if (chance(3)) a.carry = Target::kSelf;
    return a;
  }

  Handler handler(int level) {
    Handler h;
    if (chance(3)) h.push_back({.op = Action::Op::kStore, .slot = 2});
    const int actions = pick(3);
    for (int i = 0; i < actions && level + 1 < kMessageTypes; ++i) {
      Action a = send_action(level, false);
      if (chance(5)) {
        a.op = Action::Op::kCall;
        a.then = 0;
      }
      if (features_.timers && a.op == Action::Op::kCall && chance(2)) a.timeout = 1;
      h.push_back(a);
      if (a.op == Action::Op::kCall) break;  // the rest of this step waits for the reply
    }
    if (features_.timers) add_handler_timers(h, level);
    // A choice before the rest of the handler: what it sends and checks depends on it.
    if (features_.choices && chance(3)) h.insert(h.begin(), {.op = Action::Op::kChoose, .value = 2 + pick(2)});
    if (chance(2)) h.push_back({.op = Action::Op::kReply});
    if (chance(6)) h.push_back({.op = Action::Op::kDestroy, .when_count = 1 + pick(3)});
    if (chance(5)) h.push_back({.op = Action::Op::kCheck, .value = pick(3)});
    if (features_.specifications && chance(2)) {
      h.insert(h.begin() + pick(static_cast<int>(h.size()) + 1),
               {.op = Action::Op::kNotify, .slot = pick(2), .value = pick(7)});
    }
    if (features_.aborts && chance(4)) h.push_back({.op = Action::Op::kAbort, .value = pick(3)});
    return h;
  }

  // A root may monitor its children, a handler the sender of its message; a Down is handled by
  // sending on (never by monitoring again: a monitor of an ended actor is answered at once).
  void add_monitors(ActorType& type, bool root) {
    if (root) {
      for (const auto& action : std::vector<Action>(type.constructor)) {
        if (action.op == Action::Op::kSpawn && chance(2)) {
          type.constructor.push_back({.op = Action::Op::kMonitor, .to = Target::kSlot, .slot = action.slot});
        }
      }
    }
    for (auto& [message, handler] : type.handlers) {
      if (message < 2 && chance(4))
        handler.insert(handler.begin(), {.op = Action::Op::kMonitor, .to = Target::kSender});
    }
    Handler down;
    if (chance(2)) down.push_back(send_action(1, false));
    if (chance(4)) down.push_back({.op = Action::Op::kCheck, .value = pick(3)});
    type.handlers.emplace_back(kDownType, down);
  }

  // A root may arm a one-shot timer (slot 0) and a periodic one (slot 1) that every handler of
  // the actor cancels once it has handled a few messages, so that every run ends.
  void add_constructor_timers(ActorType& type) {
    if (chance(2)) {
      type.constructor.push_back(
          {.op = Action::Op::kAfter, .type = pick(kMessageTypes), .slot = 0, .delay = 1 + pick(3)});
      type.constructor.back().quiescent = features_.quiescent_timers && chance(2);
    }
    if (chance(3)) {
      type.constructor.push_back(
          {.op = Action::Op::kEvery, .type = 1 + pick(kMessageTypes - 1), .slot = 1, .delay = 1 + pick(3)});
      periodic_cancel_ = 1 + pick(2);
    }
  }

  // A handler may arm a one-shot timer of a higher level (runs still end) and cancel slot 0's.
  void add_periodic_cancel(Handler& h) const {
    if (periodic_cancel_ > 0)
      h.insert(h.begin(), {.op = Action::Op::kCancel, .slot = 1, .when_count = periodic_cancel_});
  }

  void add_handler_timers(Handler& h, int level) {
    add_periodic_cancel(h);
    if (level + 1 < kMessageTypes && chance(4)) {
      h.push_back({.op = Action::Op::kAfter,
                   .type = level + 1 + pick(kMessageTypes - level - 1),
                   .slot = 0,
                   .delay = 1 + pick(3)});
      h.back().quiescent = features_.quiescent_timers && chance(2);
    }
    if (chance(5)) h.push_back({.op = Action::Op::kCancel, .slot = 0});
  }

  std::mt19937_64 random_;
  Features features_;
  int periodic_cancel_ = 0;  ///< the actor type being made: the count at which its periodic timer is cancelled
};

}  // namespace

Program generate_program(std::uint64_t seed, Features features) {
  Program program = Generator(seed, features).program();
  program.guard_views = seed % 4 != 0;  // a quarter keep guards without views: races found by running
  return program;
}

}  // namespace exocheck::engine::testing
