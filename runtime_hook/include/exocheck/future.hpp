#pragma once
// Futures as actors (actors-and-futures paper, Section 4). A future is an actor that computes
// once and answers every Get with its value; a Get that arrives before the value stays pending.
//
//   class Square : public exocheck::Future<int> {
//     void compute() override { resolve(7 * 7); }   // may send, call, spawn before resolving
//   };
//   auto f = spawn<Square>();
//   call<int>(f, exocheck::Get{}, [this](int v) { ... });

#include <functional>
#include <optional>

#include "exocheck/actor.hpp"

namespace exocheck {

/// Asks a future for its value (a synchronous call; the reply is Reply<T>).
struct Get {
  static constexpr const char* type_name = "Get";
};

/// Starts a future's computation; sent by the future to itself when it is created.
struct Evaluate {
  static constexpr const char* type_name = "Evaluate";
};

template <typename T>
class Future : public Actor {
 public:
  Future() {
    on<Evaluate>([this](const Evaluate&) { compute(); });
    on<Get>([this](const Get&) { reply(*value_); });
    guard<Get>([this] { return value_.has_value(); }, [](bool resolved, const Get&) { return resolved; });
    send(self(), Evaluate{});
  }

 protected:
  /// Computes the value, now or in later steps, and ends with resolve().
  virtual void compute() = 0;
  /// Sets the value; every pending and later Get is answered with it. Only the first counts.
  void resolve(T value) {
    if (!value_) value_ = std::move(value);
  }

 private:
  std::optional<T> value_;
};

/// A future computed by a plain function.
template <typename T>
class FunctionFuture : public Future<T> {
 public:
  explicit FunctionFuture(std::function<T()> body) : body_(std::move(body)) {}

 private:
  void compute() override { this->resolve(body_()); }
  std::function<T()> body_;
};

}  // namespace exocheck
