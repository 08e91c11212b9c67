// caf-retry: a deposit retried on its request timeout, on CAF 0.17, with the duplicated effect
// that retry has against a server that is not idempotent. The client starts on a delayed_send of
// its own, requests (deposit, 1, 10) with a timeout of 100 ms and, when the timeout comes first,
// sends the same deposit again and waits as long as it takes. The reply to the first request may
// only have been late: then the account applies the deposit twice. Once a deposit is answered the
// client reads the balance, asserts that it is 10, and stops the account with
// send_exit(user_shutdown) (an end CAF does not call an error). With --fixed the account applies
// each deposit id once. --slow-ms N: the account takes N ms over its first deposit, as a server
// under load would (free runs only; under control, time is the schedule's): with N near 100 the
// timeout races the reply by hand too.

#include <cassert>
#include <chrono>
#include <iostream>
#include <set>
#include <thread>

#include "caf/all.hpp"

namespace {

using start_atom = caf::atom_constant<caf::atom("start")>;
using deposit_atom = caf::atom_constant<caf::atom("deposit")>;
using balance_atom = caf::atom_constant<caf::atom("balance")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  int slow_ms = 0;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "the account applies each deposit id once")
        .add(slow_ms, "slow-ms", "milliseconds the account takes over its first deposit (free runs)");
  }
};

struct account_state {
  int balance = 0;
  std::set<int> applied;
  bool slowed = false;
};

/// The account: applies deposits (each id once with `fixed`) and answers the balance.
caf::behavior account(caf::stateful_actor<account_state>* self, bool fixed, int slow_ms) {
  return {
      [=](deposit_atom, int id, int amount) {
        if (slow_ms > 0 && !self->state.slowed) {
          self->state.slowed = true;
          std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms));
        }
        if (!fixed || self->state.applied.insert(id).second) self->state.balance += amount;
        return self->state.balance;
      },
      [=](balance_atom) { return self->state.balance; },
  };
}

/// Reads the balance, checks it, and stops the account.
void check(caf::event_based_actor* self, const caf::actor& acc) {
  self->request(acc, caf::infinite, balance_atom::value).then([=](int balance) {
    std::cout << "retry: balance " << balance << ", expected 10" << std::endl;
    assert(balance == 10);
    self->send_exit(acc, caf::exit_reason::user_shutdown);
    self->quit();
  });
}

/// Deposits 10 under id 1; the first attempt gives up after 100 ms and is sent once more.
void deposit(caf::event_based_actor* self, const caf::actor& acc, bool first) {
  const caf::duration timeout = first ? caf::duration{std::chrono::milliseconds(100)} : caf::infinite;
  self->request(acc, timeout, deposit_atom::value, 1, 10)
      .then([=](int) { check(self, acc); },
            [=](caf::error& error) {
              if (first && error == caf::sec::request_timeout) {
                deposit(self, acc, false);
              } else {
                self->quit(error);
              }
            });
}

caf::behavior client(caf::event_based_actor* self, const caf::actor& acc) {
  self->delayed_send(self, std::chrono::milliseconds(10), start_atom::value);
  return {
      [=](start_atom) { deposit(self, acc, true); },
  };
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  auto acc = sys.spawn(account, cfg.fixed, cfg.slow_ms);
  sys.spawn(client, acc);
}

CAF_MAIN()
