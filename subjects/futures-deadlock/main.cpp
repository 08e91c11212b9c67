// futures-deadlock: an actor and a future take two locks in opposite orders (actors-and-futures
// paper, Section 6). The worker actor takes lock A then lock B; the future, while computing its
// value, takes lock B then lock A. When each holds its first lock, both wait forever: a
// deadlock. With --fixed the future takes the locks in the worker's order.

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

struct Start {
  static constexpr const char* type_name = "Start";
};

/// Computes 6 * 7 while holding both locks, taken in `first`, `second` order.
class Product : public exocheck::Future<int> {
 public:
  Product(exocheck::ActorRef first, exocheck::ActorRef second) : first_(first), second_(second) {}

 private:
  void compute() override {
    call<exocheck::Done>(first_, exocheck::Acquire{}, [this](exocheck::Done) {
      call<exocheck::Done>(second_, exocheck::Acquire{}, [this](exocheck::Done) {
        resolve(6 * 7);
        send(second_, exocheck::Release{});
        send(first_, exocheck::Release{});
      });
    });
  }

  exocheck::ActorRef first_;
  exocheck::ActorRef second_;
};

/// Takes lock A then lock B, releases them, then asks the future for its value.
class Worker : public exocheck::Actor {
 public:
  Worker(exocheck::ActorRef a, exocheck::ActorRef b, exocheck::ActorRef future) : a_(a), b_(b), future_(future) {
    on([this](const Start&) { work(); });
  }

  std::string final_state() const override { return value_ < 0 ? "no value" : "value " + std::to_string(value_); }

 private:
  void work() {
    call<exocheck::Done>(a_, exocheck::Acquire{}, [this](exocheck::Done) {
      call<exocheck::Done>(b_, exocheck::Acquire{}, [this](exocheck::Done) {
        send(b_, exocheck::Release{});
        send(a_, exocheck::Release{});
        call<int>(future_, exocheck::Get{}, [this](int value) {
          value_ = value;
          std::cout << "value " << value << std::endl;
          exocheck::check(value == 42, "the future computed " + std::to_string(value));
        });
      });
    });
  }

  exocheck::ActorRef a_;
  exocheck::ActorRef b_;
  exocheck::ActorRef future_;
  int value_ = -1;
};

class Boot : public exocheck::Actor {
 public:
  explicit Boot(bool fixed) {
    const auto a = spawn<exocheck::Lock>();
    const auto b = spawn<exocheck::Lock>();
    const auto future = fixed ? spawn<Product>(a, b) : spawn<Product>(b, a);
    send(spawn<Worker>(a, b, future), Start{});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"futures-deadlock: an actor and a future take two locks in opposite orders"};
  bool fixed = false;
  app.add_flag("--fixed", fixed, "the future takes the locks in the worker's order: no deadlock");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Boot>(fixed);
  return system.run();
}
