#pragma once
// A lock as an actor (actors-and-futures paper): Acquire is a synchronous call answered when
// the lock is free; Release frees it. The explorer sees the lock's messages like any others.
//
//   call<exocheck::Done>(lock, exocheck::Acquire{}, [this](exocheck::Done) { ...; send(lock, exocheck::Release{}); });

#include <string>

#include "exocheck/actor.hpp"

namespace exocheck {

struct Acquire {
  static constexpr const char* type_name = "Acquire";
};
struct Release {
  static constexpr const char* type_name = "Release";
};

class Lock : public Actor {
 public:
  Lock() {
    on<Acquire>([this](const Acquire&) {
      holder_ = sender();
      reply();
    });
    guard<Acquire>([this] { return holder_.valid(); }, [](bool held, const Acquire&) { return !held; });
    on<Release>([this](const Release&) {
      if (sender() == holder_) holder_ = ActorRef();
    });
  }

  std::string final_state() const override { return holder_.valid() ? "held by " + holder_.id() : "free"; }

 private:
  ActorRef holder_;
};

}  // namespace exocheck
