// retry: a client that retries a request when its reply does not come in time, against a server
// whose operation is not idempotent: the textbook duplicate of at-least-once delivery ("Designing
// Data-Intensive Applications", Kleppmann, ch. 8 and 11: a request whose response is lost or late
// is retried, and a non-idempotent operation is then applied twice).
//
// The client deposits --amount into an account with a call that times out after 100 ms, and
// retries a timed-out deposit up to --retries times; once a deposit is acknowledged it asks the
// server to audit its balance against what it meant to deposit. The bug: the first request
// reaches the server and is applied, its acknowledgement is late (the timeout fires first), the
// client retries, and the server applies the same deposit again: the audit fails. Under
// exploration the timeout is a choice, not a clock: it may fire before the acknowledgement is
// delivered whatever the durations (--timers anytime, the default). With --fixed the server
// remembers the request ids it applied and acknowledges a repeated one without applying it.
//
// Started by hand (real time, a fast server), the deposit is acknowledged in time, once.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <set>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;

struct Deposit {
  static constexpr const char* type_name = "Deposit";
  std::uint64_t request = 0;  ///< the client's id for the deposit, the same in every retry
  long amount = 0;
  void describe(exocheck::Describer& d) const { d("request", request)("amount", amount); }
};

struct Audit {
  static constexpr const char* type_name = "Audit";
  long expected = 0;
  void describe(exocheck::Describer& d) const { d("expected", expected); }
};

class Account : public exocheck::Actor {
 public:
  explicit Account(bool idempotent) {
    on([this, idempotent](const Deposit& d) {
      if (!idempotent || applied_.insert(d.request).second) balance_ += d.amount;
      reply();
    });
    on([this](const Audit& a) {
      exocheck::check(balance_ == a.expected, "balance " + std::to_string(balance_) + " after depositing " +
                                                  std::to_string(a.expected) + ": a retried deposit was applied twice");
    });
  }

  std::string final_state() const override { return "balance=" + std::to_string(balance_); }

 private:
  long balance_ = 0;
  std::set<std::uint64_t> applied_;
};

class Client : public exocheck::Actor {
 public:
  Client(exocheck::ActorRef account, long amount, int retries) : account_(account), amount_(amount), left_(retries) {
    attempt();
  }

  std::string final_state() const override { return acknowledged_ ? "acknowledged" : "gave up"; }

 private:
  void attempt() {
    call<exocheck::Done>(
        account_, Deposit{1, amount_},
        [this](const exocheck::Done&) {
          acknowledged_ = true;
          send(account_, Audit{amount_});
        },
        100ms,
        [this] {
          if (left_-- > 0) attempt();
        });
  }

  exocheck::ActorRef account_;
  long amount_;
  int left_;
  bool acknowledged_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"retry: a client retries a timed-out deposit against a server that applies each deposit it gets"};
  long amount = 10;
  int retries = 1;
  bool fixed = false;
  app.add_option("--amount", amount, "the deposit")->capture_default_str();
  app.add_option("--retries", retries, "retries of a timed-out deposit")->check(CLI::Range(0, 10))->capture_default_str();
  app.add_flag("--fixed", fixed, "the server applies a request id once (idempotent deposits)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto account = system.spawn<Account>(fixed);
  system.spawn<Client>(account, amount, retries);
  const int code = system.run();
  if (!system.controlled()) std::cout << "retry: done" << std::endl;
  return code;
}
