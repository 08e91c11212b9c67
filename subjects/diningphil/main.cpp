// diningphil: dining philosophers with forks as lock actors (TransDPOR Section 6). Each
// philosopher acquires its left fork, then its right one (each a synchronous Acquire call on an
// exocheck::Lock), eats once, and releases both. When every philosopher holds its left fork,
// nobody can take a right one: a deadlock. With --fixed the last philosopher takes its right
// fork first (a global order on forks), which removes the deadlock.

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Start {
  static constexpr const char* type_name = "Start";
};

class Philosopher : public exocheck::Actor {
 public:
  Philosopher(int index, exocheck::ActorRef first, exocheck::ActorRef second)
      : index_(index), first_(first), second_(second) {
    on([this](const Start&) { dine(); });
  }

  std::string final_state() const override { return meals_ == 1 ? "ate" : "hungry"; }

 private:
  void dine() {
    call<exocheck::Done>(first_, exocheck::Acquire{}, [this](exocheck::Done) {
      call<exocheck::Done>(second_, exocheck::Acquire{}, [this](exocheck::Done) {
        ++meals_;
        // One write: philosophers print from several threads.
        std::cout << "philosopher " + std::to_string(index_) + " ate\n" << std::flush;
        send(second_, exocheck::Release{});
        send(first_, exocheck::Release{});
      });
    });
  }

  int index_;
  exocheck::ActorRef first_;
  exocheck::ActorRef second_;
  int meals_ = 0;
};

/// Lays the table in its constructor (step 0): the forks, then the philosophers, each started.
class Table : public exocheck::Actor {
 public:
  Table(int n, bool fixed) {
    std::vector<exocheck::ActorRef> forks;
    for (int i = 0; i < n; ++i) forks.push_back(spawn<exocheck::Lock>());
    for (int i = 0; i < n; ++i) {
      auto left = forks[static_cast<std::size_t>(i)];
      auto right = forks[static_cast<std::size_t>((i + 1) % n)];
      if (fixed && i == n - 1) std::swap(left, right);
      send(spawn<Philosopher>(i, left, right), Start{});
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"diningphil: dining philosophers with forks as locks (TransDPOR Section 6)"};
  int n = 3;
  bool fixed = false;
  app.add_option("-n,--n", n, "philosophers (and forks)")->check(CLI::Range(2, 20));
  app.add_flag("--fixed", fixed, "the last philosopher takes its right fork first: no deadlock");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Table>(n, fixed);
  return system.run();
}
