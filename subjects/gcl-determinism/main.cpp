// gcl-determinism: Example 5 of the guarded-command paper (Fagiani et al.) as actors. Two
// processes share x, y and flag (x = 0, y = 0, flag = true). Process 1 doubles x once its guard
// "x == 0 or flag" holds; process 2, four times over, adds 2 to x if flag else subtracts 1, and
// negates flag; then it increments y. The final x depends on where process 1's step falls: 2,
// 3, 4 or 5. The program is not buggy in itself; `exocheck explore --check determinism` reports
// its final state as not unique (the paper's point: x = 4 and x = 5 are both reachable).

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

// One guarded statement each: the memory executes it atomically, as the paper's semantics does.
struct DoubleX {
  static constexpr const char* type_name = "DoubleX";
};
struct AddOrSubtract {
  static constexpr const char* type_name = "AddOrSubtract";
};
struct NegateFlag {
  static constexpr const char* type_name = "NegateFlag";
};
struct IncrementY {
  static constexpr const char* type_name = "IncrementY";
};

/// The shared variables. A process's statement is a call: the process goes on when it is done.
class Memory : public exocheck::Actor {
 public:
  Memory() {
    on([this](const DoubleX&) { step([this] { x_ = 2 * x_; }); });
    guard<DoubleX>([this](const DoubleX&) { return x_ == 0 || flag_; });
    on([this](const AddOrSubtract&) { step([this] { x_ = flag_ ? x_ + 2 : x_ - 1; }); });
    on([this](const NegateFlag&) { step([this] { flag_ = !flag_; }); });
    on([this](const IncrementY&) { step([this] { ++y_; }); });
  }

  std::string final_state() const override {
    return "x=" + std::to_string(x_) + " y=" + std::to_string(y_) + " flag=" + (flag_ ? "true" : "false");
  }

 private:
  template <typename F>
  void step(F statement) {
    statement();
    reply();
    // Both processes end with a statement here: the 10th is the last one of the program.
    if (++statements_ == 10) std::cout << final_state() + "\n" << std::flush;
  }

  int x_ = 0;
  int y_ = 0;
  bool flag_ = true;
  int statements_ = 0;
};

/// Process 1: (x == 0 or flag) |> x := 2 * x.
class Doubler : public exocheck::Actor {
 public:
  explicit Doubler(exocheck::ActorRef memory) {
    call<exocheck::Done>(memory, DoubleX{}, [](exocheck::Done) {});
  }
};

/// Process 2: four times (x := x + 2 <| flag |> x := x - 1; flag := not flag), then y := y + 1.
class Toggler : public exocheck::Actor {
 public:
  explicit Toggler(exocheck::ActorRef memory) : memory_(memory) { next(); }

 private:
  void next() {
    if (round_ == 4) {
      call<exocheck::Done>(memory_, IncrementY{}, [](exocheck::Done) {});
      return;
    }
    call<exocheck::Done>(memory_, AddOrSubtract{}, [this](exocheck::Done) {
      call<exocheck::Done>(memory_, NegateFlag{}, [this](exocheck::Done) {
        ++round_;
        next();
      });
    });
  }

  exocheck::ActorRef memory_;
  int round_ = 0;
};

/// Process 0: spawns the shared memory and the two processes.
class Boot : public exocheck::Actor {
 public:
  Boot() {
    const auto memory = spawn<Memory>();
    spawn<Doubler>(memory);
    spawn<Toggler>(memory);
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gcl-determinism: two guarded-command processes on shared x, y and flag (Fagiani et al., Example 5)"};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Boot>();
  return system.run();
}
