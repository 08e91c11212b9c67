// fib: Fibonacci by divide and conquer with one actor per call (TransDPOR Section 6, SEJAP
// thesis Section 7.2). A boot actor sends the root Fib(n) a Compute request and receives the
// final result; a Fib actor for n >= 3 creates two children Fib(n-1) and Fib(n-2), asks each,
// adds their two Result replies and answers its requester; n < 3 answers 1 directly.
//
// Porting note (SUBJECTS.md): leaves are n < 3, as in the original tool's example. Children are
// created when the request arrives, so each Fib actor's request happens before its children's
// replies, and the only nondeterminism is the order of the two replies at each inner actor.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

/// "Compute your number and send me a Result".
struct Compute {
  static constexpr const char* type_name = "Compute";
};

struct Result {
  static constexpr const char* type_name = "Result";
  std::uint64_t value = 0;
  void describe(exocheck::Describer& d) const { d("value", value); }
};

/// The reference value, computed sequentially.
std::uint64_t sequential_fib(int n) {
  std::uint64_t previous = 0;
  std::uint64_t current = 1;
  for (int i = 1; i < n; ++i) {
    const std::uint64_t next = previous + current;
    previous = current;
    current = next;
  }
  return current;
}

/// Computes fib(n) for whoever sends it Compute.
class Fib : public exocheck::Actor {
 public:
  explicit Fib(int n) : n_(n) {
    on([this](const Compute&) { compute(); });
    on([this](const Result& m) { add(m.value); });
  }

 private:
  void compute() {
    requester_ = sender();
    if (n_ < 3) {
      send(requester_, Result{1});
      return;
    }
    auto smaller = spawn<Fib>(n_ - 1);
    auto smallest = spawn<Fib>(n_ - 2);
    send(smaller, Compute{});
    send(smallest, Compute{});
  }

  void add(std::uint64_t value) {
    sum_ += value;
    if (++replies_ == 2) send(requester_, Result{sum_});
  }

  int n_;
  exocheck::ActorRef requester_;
  int replies_ = 0;
  std::uint64_t sum_ = 0;
};

/// Starts the computation (in the initial step) and checks the answer.
class Boot : public exocheck::Actor {
 public:
  explicit Boot(int n) : n_(n) {
    on([this](const Result& m) { finish(m.value); });
    send(spawn<Fib>(n_), Compute{});
  }

  /// "fib(n)=value" once the answer arrived.
  std::string final_state() const override { return answer_.empty() ? "no answer" : answer_; }

 private:
  void finish(std::uint64_t value) {
    answer_ = "fib(" + std::to_string(n_) + ")=" + std::to_string(value);
    std::cout << "fib(" << n_ << ") = " << value << std::endl;
    const std::uint64_t expected = sequential_fib(n_);
    exocheck::check(value == expected, answer_ + " but the sequential computation gives " + std::to_string(expected));
  }

  int n_;
  std::string answer_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fib: Fibonacci with one actor per call (TransDPOR Section 6)"};
  int n = 5;
  // fib(n) creates 2*fib(n)-1 actors; 25 already makes 150,000 of them.
  app.add_option("-n,--n", n, "which Fibonacci number to compute")->check(CLI::Range(1, 25));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  exocheck::System system;
  system.spawn<Boot>(n);
  return system.run();
}
