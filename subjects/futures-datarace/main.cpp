// futures-datarace: the order in which two futures take a lock decides the final state (the
// actors-and-futures paper, Section 6, "datarace"). The balance, 1, lives in an account actor;
// each future takes the lock, reads the balance, writes its update, releases the lock. Every
// access is under the lock, yet doubling then adding 3 gives 5 and adding 3 then doubling gives
// 8: `exocheck explore --check determinism` reports the final state as not unique. With --fixed
// the adding future first waits for the doubling future's value, so the balance always ends at 5.

#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

struct Read {
  static constexpr const char* type_name = "Read";
};
struct Write {
  static constexpr const char* type_name = "Write";
  int balance = 0;
};

/// The shared variable of the paper's program, as an actor.
class Account : public exocheck::Actor {
 public:
  Account() {
    on([this](const Read&) { reply(balance_); });
    on([this](const Write& write) {
      balance_ = write.balance;
      reply();
    });
  }

  std::string final_state() const override { return "balance=" + std::to_string(balance_); }

 private:
  int balance_ = 1;
};

/// Under the lock, replaces the balance b by update(b); resolves to the balance it wrote.
class Update : public exocheck::Future<int> {
 public:
  Update(exocheck::ActorRef lock, exocheck::ActorRef account, std::function<int(int)> update,
         exocheck::ActorRef after = {})
      : lock_(lock), account_(account), update_(std::move(update)), after_(after) {}

 private:
  void compute() override {
    if (!after_.valid()) return update();
    call<int>(after_, exocheck::Get{}, [this](int) { update(); });
  }

  void update() {
    call<exocheck::Done>(lock_, exocheck::Acquire{}, [this](exocheck::Done) {
      call<int>(account_, Read{}, [this](int balance) {
        const int updated = update_(balance);
        call<exocheck::Done>(account_, Write{updated}, [this, updated](exocheck::Done) {
          send(lock_, exocheck::Release{});
          resolve(updated);
        });
      });
    });
  }

  exocheck::ActorRef lock_;
  exocheck::ActorRef account_;
  std::function<int(int)> update_;
  exocheck::ActorRef after_;  // a future to wait for first (--fixed); null: none
};

/// Waits for both futures, then reads and prints the final balance.
class Main : public exocheck::Actor {
 public:
  explicit Main(bool fixed) {
    const auto lock = spawn<exocheck::Lock>();
    account_ = spawn<Account>();
    const auto doubled = spawn<Update>(lock, account_, [](int b) { return 2 * b; });
    const auto added = spawn<Update>(
        lock, account_, [](int b) { return b + 3; }, fixed ? doubled : exocheck::ActorRef());
    call<int>(doubled, exocheck::Get{}, [this, added](int) {
      call<int>(added, exocheck::Get{}, [this](int) {
        call<int>(account_, Read{}, [](int balance) { std::cout << "balance " << balance << std::endl; });
      });
    });
  }

 private:
  exocheck::ActorRef account_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"futures-datarace: two futures update a balance under a lock, in either order"};
  bool fixed = false;
  app.add_flag("--fixed", fixed, "the adding future waits for the doubling one: the balance always ends at 5");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Main>(fixed);
  return system.run();
}
