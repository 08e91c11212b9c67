// caf_faults: a CAF program that misbehaves in the ways the CAF adapter must report, one per
// option (CAF syntax):
//   --throw           a handler throws: the actor fails (an uncaught exception)
//   --dead-letter     main sends an actor two messages; it quits after the first (a dead letter)
//   --scoped-receive  main waits in a scoped_actor's receive for an actor's answer
//   --user-shutdown   an actor stops another with send_exit(user_shutdown) and quits: no bug
//   --await=WHAT      main awaits its actors itself, then: "check" asserts what they did (it holds),
//                     "fail" asserts what they did not, "spawn" spawns another actor and pings it;
//                     "chain": an asker holds a forwarder, which holds an echo; the asker ends when
//                     answered, and the other two end as CAF ends actors nothing refers to;
//                     "monitored": main's scoped_actor monitors an echo main lets go of (by hand
//                     the await never returns; refused under exploration, as the echo's end
//                     would send a down message); "hang": main holds a latch that two actors
//                     send `set` and `ping` as they start, and awaits it: where `ping` comes
//                     first the latch never ends, and neither does the await
//   --blocking-spawn  main spawns a blocking actor (blocking_api) that waits for a message nobody
//                     sends: a deadlock (by hand the program never ends)
//   --receive-timeout main's scoped_actor pings an echo and waits for the answer at most a second
//   --thread-timeout  a blocking_api actor waits for main's ping at most a second
//   --handler-receive an actor's handler receives with a scoped_actor (not supported under exploration)
//   --churn=N         a hirer hires N workers one after another: each answers one request and quits,
//                     and the hirer pings it once more, as it ends or after (a server that spawns
//                     per request: what a recording keeps of ended actors); with --detached the
//                     hirer runs on a private thread (caf::detached), its initial code there too
//   --null-deref      main sends a keeper `set`, and a relay `ping`, which the relay passes on to the
//                     keeper; the keeper dereferences what `set` gave it on `ping`. By hand `set` is
//                     in its mailbox first; where `ping` overtakes it, the keeper dies with SIGSEGV
//   --exit-in-handler an actor's handler calls exit(3), as a program that gives up does
//   --start-race      main spawns a gate, then an opener and a passer, which send the gate `set`
//                     and `ping` from their initialization, each on a scheduler thread of its own:
//                     the gate asserts that `set` came first, which by hand holds on some runs only
// By hand: each ends by itself (but --blocking-spawn and --await=monitored); --throw prints CAF's
// report of the exception.

#include <atomic>
#include <cassert>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "caf/all.hpp"

namespace {

using ping_atom = caf::atom_constant<caf::atom("ping")>;

struct config : caf::actor_system_config {
  bool throw_in_handler = false;
  bool dead_letter = false;
  bool scoped_receive = false;
  bool user_shutdown = false;
  std::string await;
  bool blocking_spawn = false;
  bool handler_receive = false;
  bool receive_timeout = false;
  bool thread_timeout = false;
  int churn = 0;
  bool detached = false;
  bool null_deref = false;
  bool exit_in_handler = false;
  bool start_race = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(throw_in_handler, "throw", "a handler throws")
        .add(dead_letter, "dead-letter", "a message to an actor that has quit")
        .add(scoped_receive, "scoped-receive", "main receives with a scoped_actor")
        .add(user_shutdown, "user-shutdown", "an actor is stopped with send_exit(user_shutdown)")
        .add(await, "await", "main awaits its actors, then: check, fail, spawn, chain or monitored")
        .add(blocking_spawn, "blocking-spawn", "main spawns an actor with blocking_api")
        .add(handler_receive, "handler-receive", "a handler receives with a scoped_actor")
        .add(receive_timeout, "receive-timeout", "main's receive of an answer times out after a second")
        .add(thread_timeout, "thread-timeout", "a blocking actor's receive times out after a second")
        .add(churn, "churn", "a hirer hires this many workers one after another, each for one request")
        .add(detached, "detached", "with --churn: the hirer runs on a thread of its own (caf::detached)")
        .add(null_deref, "null-deref", "an actor dereferences a null pointer if a relayed ping overtakes")
        .add(exit_in_handler, "exit-in-handler", "a handler calls exit(3)")
        .add(start_race, "start-race", "two actors send a gate a message each from their initialization");
  }
};

caf::behavior ledger(caf::event_based_actor* self, bool throws) {
  return {[=](ping_atom) {
    if (throws) throw std::runtime_error("the ledger is corrupt");
    self->quit();
  }};
}

caf::behavior echo(caf::event_based_actor*) {
  return {[](ping_atom) { return ping_atom::value; }};
}

/// Stops `target` as CAF's examples stop their servers, then quits.
caf::behavior stopper(caf::event_based_actor* self, const caf::actor& target) {
  return {[=](ping_atom) {
    self->send_exit(target, caf::exit_reason::user_shutdown);
    self->quit();
  }};
}

/// Asks `e` for a ping from inside its handler, through a scoped_actor of its own.
caf::behavior asker(caf::event_based_actor* self, const caf::actor& e) {
  return {[=](ping_atom) {
    caf::scoped_actor scoped{self->system()};
    scoped->request(e, caf::infinite, ping_atom::value).receive([](ping_atom) {}, [](caf::error&) {});
  }};
}

std::atomic<int> pings{0};

using set_atom = caf::atom_constant<caf::atom("set")>;

/// On `ping`, prints what `set` pointed it to: a null dereference when `ping` comes first.
caf::behavior keeper(caf::event_based_actor* self) {
  auto target = std::make_shared<const int*>(nullptr);
  return {
      [=](set_atom) {
        static const int answer = 42;
        *target = &answer;
      },
      [=](ping_atom) {
        std::cout << "kept: " << **target << std::endl;
        self->quit();
      },
  };
}

/// Passes one ping on to `to`.
caf::behavior passer(caf::event_based_actor* self, const caf::actor& to) {
  return {[=](ping_atom ping) {
    self->send(to, ping);
    self->quit();
  }};
}

/// Takes `set`, then `ping`, and asserts that order.
caf::behavior gate(caf::event_based_actor* self) {
  auto opened = std::make_shared<bool>(false);
  return {
      [=](set_atom) { *opened = true; },
      [=](ping_atom) {
        std::cout << "gate: opened first: " << std::boolalpha << *opened << std::endl;
        assert(*opened);
        self->quit();
      },
  };
}

/// Takes `set`, then `ping` and quits: a `ping` before `set` is unexpected (CAF answers it with an
/// error).
caf::behavior latch(caf::event_based_actor* self) {
  return {[=](set_atom) { self->become([=](ping_atom) { self->quit(); }); }};
}

/// Sends `message` to `to` as it starts, and has nothing more to do.
template <typename Atom>
void send_at_start(caf::event_based_actor* self, const caf::actor& to) {
  self->send(to, Atom::value);
}

caf::behavior quitter(caf::event_based_actor*) {
  return {[](ping_atom) { std::exit(3); }};
}

/// Passes a ping on to `next`, whose answer goes back to the asker.
caf::behavior forwarder(caf::event_based_actor* self, const caf::actor& next) {
  return {[=](ping_atom ping) { return self->delegate(next, ping); }};
}

/// Asks `next` for a ping, counts the answer, and ends: it has no behavior of its own.
void asker_once(caf::event_based_actor* self, const caf::actor& next) {
  self->request(next, caf::infinite, ping_atom::value).then([](ping_atom) { ++pings; });
}

caf::behavior counter(caf::event_based_actor* self) {
  return {[=](ping_atom) {
    ++pings;
    self->quit();
  }};
}

/// Spawns a counter, pings it, waits for it, and goes on as `what` says (but "chain", "monitored"
/// and "hang", which spawn actors of their own).
void await_then(caf::actor_system& system, const std::string& what) {
  if (what == "hang") {
    // Where `ping` comes first, the latch answers it with an error and waits for another after
    // `set`: for ever, as main holds it and awaits it.
    auto l = system.spawn(latch);
    system.spawn(send_at_start<set_atom>, l);
    system.spawn(send_at_start<ping_atom>, l);
    system.await_all_actors_done();
    return;
  }
  if (what == "chain") {
    system.spawn(asker_once, system.spawn(forwarder, system.spawn(echo)));
    system.await_all_actors_done();
    std::cout << "pings: " << pings << std::endl;
    assert(pings == 1);
    return;
  }
  if (what == "monitored") {
    caf::scoped_actor self{system};
    self->monitor(system.spawn(echo));
    system.await_all_actors_done();
    return;
  }
  caf::anon_send(system.spawn(counter), ping_atom::value);
  system.await_all_actors_done();
  std::cout << "pings: " << pings << std::endl;
  if (what == "check") assert(pings == 1);
  if (what == "fail") assert(pings == 2);
  if (what == "spawn") caf::anon_send(system.spawn(counter), ping_atom::value);
}

}  // namespace

caf::behavior answer_once(caf::event_based_actor* self) {
  return {[=](ping_atom) {
    self->quit();
    return ping_atom::value;
  }};
}

void hire(caf::event_based_actor* self, int left) {
  if (left == 0) {
    std::cout << "hired every worker\n";
    self->quit();
    return;
  }
  auto worker = self->spawn(answer_once);
  self->request(worker, caf::infinite, ping_atom::value).then([=](ping_atom) {
    self->send(worker, ping_atom::value);  // it quit: a dead letter
    hire(self, left - 1);
  });
}

void caf_main(caf::actor_system& system, const config& cfg) {
  if (cfg.null_deref) {
    auto k = system.spawn(keeper);
    caf::anon_send(k, set_atom::value);
    caf::anon_send(system.spawn(passer, k), ping_atom::value);
    return;
  }
  if (cfg.start_race) {
    auto g = system.spawn(gate);
    system.spawn(send_at_start<set_atom>, g);
    system.spawn(send_at_start<ping_atom>, g);
    return;
  }
  if (cfg.exit_in_handler) {
    caf::anon_send(system.spawn(quitter), ping_atom::value);
    return;
  }
  if (cfg.churn > 0) {
    auto hirer = [n = cfg.churn](caf::event_based_actor* self) { hire(self, n); };
    if (cfg.detached) {
      system.spawn<caf::detached>(hirer);  // its first request is sent from its private thread
    } else {
      system.spawn(hirer);
    }
    return;
  }
  if (cfg.scoped_receive) {
    caf::scoped_actor self{system};
    auto e = system.spawn(echo);
    self->request(e, caf::infinite, ping_atom::value)
        .receive([](ping_atom) { std::cout << "pong\n"; }, [](caf::error&) {});
    caf::anon_send_exit(e, caf::exit_reason::user_shutdown);
    return;
  }
  if (!cfg.await.empty()) {
    await_then(system, cfg.await);
    return;
  }
  if (cfg.handler_receive) {
    caf::anon_send(system.spawn(asker, system.spawn(echo)), ping_atom::value);
    return;
  }
  if (cfg.receive_timeout) {
    caf::scoped_actor self{system};
    auto e = system.spawn(echo);
    self->send(e, ping_atom::value);
    self->receive([](ping_atom) { std::cout << "pong\n"; },
                  caf::after(std::chrono::seconds(1)) >> [] { std::cout << "no answer in a second\n"; });
    caf::anon_send_exit(e, caf::exit_reason::user_shutdown);
    return;
  }
  if (cfg.thread_timeout) {
    auto waiter = system.spawn([](caf::blocking_actor* self) {
      self->receive([](ping_atom) { std::cout << "ping\n"; },
                    caf::after(std::chrono::seconds(1)) >> [] { std::cout << "no ping in a second\n"; });
    });
    caf::anon_send(waiter, ping_atom::value);
    return;
  }
  if (cfg.blocking_spawn) {
    system.spawn([](caf::blocking_actor* self) { self->receive([](ping_atom) {}); });
    return;
  }
  if (cfg.user_shutdown) {
    caf::anon_send(system.spawn(stopper, system.spawn(echo)), ping_atom::value);
    return;
  }
  auto l = system.spawn(ledger, cfg.throw_in_handler);
  caf::anon_send(l, ping_atom::value);
  if (cfg.dead_letter) caf::anon_send(l, ping_atom::value);
}

CAF_MAIN()
