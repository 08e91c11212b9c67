#pragma once
// The actor system a program's main creates. Started by hand, it runs the actors on a thread
// pool until nothing is left to do. Started by an exocheck agent (EXOCHECK_CONTROL_FD set),
// it runs one macro-step at a time under the agent's control and records every step.
//
//   int main(int argc, char** argv) {
//     exocheck::System system;
//     auto master = system.spawn<Master>(5);
//     system.send(master, Start{});
//     return system.run();
//   }

#include <memory>

#include "exocheck/actor.hpp"
#include "exocheck/monitor.hpp"

namespace exocheck {

class System {
 public:
  /// Chooses the mode from the environment; throws std::runtime_error if the control channel
  /// named there is unusable.
  System();
  ~System();
  System(const System&) = delete;
  System& operator=(const System&) = delete;

  /// Spawns a top-level actor ("0", "1", ... in spawn order); its constructor runs now.
  template <typename A, typename... Args>
  ActorRef spawn(Args&&... args) {
    static_assert(std::is_base_of_v<Actor, A>, "spawn<A>: A must derive from exocheck::Actor");
    return detail::construct_actor(*runtime_, nullptr,
                                   [&] { return std::unique_ptr<Actor>(new A(std::forward<Args>(args)...)); });
  }

  /// Sends a message from the environment ("env#n").
  template <typename M>
  void send(const ActorRef& to, M message) {
    post(to, detail::message_type_of<M>(), detail::make_payload(std::move(message)));
  }

  /// Registers a specification monitor of type M (monitor.hpp), made of `args`, for
  /// exocheck::notify<M>: before run(), one per type. Returns it.
  template <typename M, typename... Args>
  M& add_monitor(Args&&... args) {
    static_assert(std::is_base_of_v<Monitor, M>, "add_monitor<M>: M must derive from exocheck::Monitor");
    return static_cast<M&>(detail::register_monitor(typeid(M), std::make_unique<M>(std::forward<Args>(args)...)));
  }

  /// Runs to the end. Returns the process exit code: 0 when every actor finished cleanly,
  /// 1 after an assertion failure, an uncaught exception or a deadlock.
  int run();

  /// True when an exocheck agent controls this process.
  bool controlled() const;

 private:
  void post(const ActorRef& to, const detail::MessageType& type, detail::Payload payload);

  class Mode;
  std::unique_ptr<Mode> mode_;
  detail::Runtime* runtime_;
};

}  // namespace exocheck
