// caf-philosophers: dining philosophers on CAF 0.17 that can deadlock. Chopsticks are actors
// answering take requests: a free chopstick answers at once; a held one keeps the response
// promise and delivers it when its holder puts it back. Philosopher i takes its left chopstick
// (i), then its right one (i+1 mod N), eats once and puts both back. When every philosopher
// holds its left chopstick, each waits forever for its right one: a deadlock. With --fixed the
// last philosopher takes its right chopstick first (one global order), so there is none.
// With --timed they think and eat for ever as CAF's own dining_philosophers example does, on
// delayed_send timers (thinking 10 ms, eating 5 ms): the deadlock is still found, and the fixed
// table never ends (explored to the step limit: bounded).

#include <chrono>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

#include "caf/all.hpp"

namespace {

using start_atom = caf::atom_constant<caf::atom("start")>;
using take_atom = caf::atom_constant<caf::atom("take")>;
using taken_atom = caf::atom_constant<caf::atom("taken")>;
using put_atom = caf::atom_constant<caf::atom("put")>;
using hungry_atom = caf::atom_constant<caf::atom("hungry")>;
using full_atom = caf::atom_constant<caf::atom("full")>;

struct config : caf::actor_system_config {
  int philosophers = 2;
  bool fixed = false;
  bool timed = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(philosophers, "philosophers", "number of philosophers and chopsticks (>= 2)")
        .add(fixed, "fixed", "the last philosopher takes its right chopstick first")
        .add(timed, "timed", "think and eat for ever, on delayed_send timers");
  }
};

struct chopstick_state {
  bool held = false;
  int puts = 0;
  std::deque<caf::typed_response_promise<taken_atom>> waiting;  // takes to answer on put
};

/// A chopstick shared by two neighbours: quits once both have put it back (`forever`: never).
caf::behavior chopstick(caf::stateful_actor<chopstick_state>* self, bool forever) {
  return {
      [=](take_atom) -> caf::result<taken_atom> {
        auto& st = self->state;
        if (!st.held) {
          st.held = true;
          return taken_atom::value;
        }
        auto promise = self->make_response_promise<taken_atom>();
        st.waiting.push_back(promise);
        return promise;  // answered later, by put
      },
      [=](put_atom) {
        auto& st = self->state;
        if (st.waiting.empty()) {
          st.held = false;
        } else {  // hand it straight to the next taker
          st.waiting.front().deliver(taken_atom::value);
          st.waiting.pop_front();
        }
        if (++st.puts == 2 && !forever) self->quit();
      },
  };
}

/// Takes `first`, then `second`, eats once, puts both back and quits.
caf::behavior philosopher(caf::event_based_actor* self, int id, caf::actor first, caf::actor second) {
  return {
      [=](start_atom) {
        self->request(first, caf::infinite, take_atom::value).then([=](taken_atom) {
          self->request(second, caf::infinite, take_atom::value).then([=](taken_atom) {
            std::cout << "philosopher " + std::to_string(id) + " eats\n" << std::flush;
            self->send(first, put_atom::value);
            self->send(second, put_atom::value);
            self->quit();
          });
        });
      },
  };
}

/// Thinks (10 ms), takes `first`, then `second`, eats (5 ms), puts both back: for ever.
caf::behavior timed_philosopher(caf::event_based_actor* self, int id, caf::actor first, caf::actor second) {
  const auto think = [=] { self->delayed_send(self, std::chrono::milliseconds(10), hungry_atom::value); };
  return {
      [=](start_atom) { think(); },
      [=](hungry_atom) {
        self->request(first, caf::infinite, take_atom::value).then([=](taken_atom) {
          self->request(second, caf::infinite, take_atom::value).then([=](taken_atom) {
            std::cout << "philosopher " + std::to_string(id) + " eats\n" << std::flush;
            self->delayed_send(self, std::chrono::milliseconds(5), full_atom::value);
          });
        });
      },
      [=](full_atom) {
        self->send(first, put_atom::value);
        self->send(second, put_atom::value);
        think();
      },
  };
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  int n = cfg.philosophers;
  if (n < 2) {
    std::cerr << "philosophers: --philosophers must be at least 2" << std::endl;
    return;
  }
  std::vector<caf::actor> chopsticks;
  for (int i = 0; i < n; ++i) chopsticks.push_back(sys.spawn(chopstick, cfg.timed));
  const auto seat = [&](int id, const caf::actor& first, const caf::actor& second) {
    return cfg.timed ? sys.spawn(timed_philosopher, id, first, second) : sys.spawn(philosopher, id, first, second);
  };
  std::vector<caf::actor> philosophers;
  for (int i = 0; i < n; ++i) {
    auto left = chopsticks[i];
    auto right = chopsticks[(i + 1) % n];
    if (cfg.fixed && i == n - 1)
      philosophers.push_back(seat(i, right, left));
    else
      philosophers.push_back(seat(i, left, right));
  }
  for (const auto& p : philosophers) caf::anon_send(p, start_atom::value);
}

CAF_MAIN()
