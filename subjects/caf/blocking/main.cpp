// caf-blocking: two clients spawned with blocking_api each add 1 to a shared counter on CAF 0.17,
// by reading it and writing back what they read plus one (request(...).receive each): an update
// can be lost. caf_main's scoped_actor waits for both clients' `done`, reads the counter and asserts that
// it is 2. With --fixed the clients send `add` (the counter adds). With --class-based the clients
// are a class derived from blocking_actor instead of a function.

#include <cassert>
#include <iostream>

#include "caf/all.hpp"

namespace {

using get_atom = caf::atom_constant<caf::atom("get")>;
using put_atom = caf::atom_constant<caf::atom("put")>;
using add_atom = caf::atom_constant<caf::atom("add")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  bool class_based = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "clients send add instead of reading and writing back")
        .add(class_based, "class-based", "clients are a class derived from blocking_actor");
  }
};

struct counter_state {
  int value = 0;
  static inline const char* name = "counter";
};

caf::behavior counter(caf::stateful_actor<counter_state>* self) {
  return {
      [=](get_atom) { return self->state.value; },
      [=](put_atom, int value) { return self->state.value = value; },
      [=](add_atom, int delta) { return self->state.value += delta; },
  };
}

/// One increment of the counter, then (once the counter has answered) `done` to `main`.
void add_one(caf::blocking_actor* self, const caf::actor& count, const caf::actor& main, bool fixed) {
  auto ignore = [](caf::error&) {};
  if (fixed) {
    self->request(count, caf::infinite, add_atom::value, 1).receive([](int) {}, ignore);
  } else {
    int read = 0;
    self->request(count, caf::infinite, get_atom::value).receive([&](int value) { read = value; }, ignore);
    self->request(count, caf::infinite, put_atom::value, read + 1).receive([](int) {}, ignore);
  }
  self->send(main, done_atom::value);
}

class client : public caf::blocking_actor {
 public:
  client(caf::actor_config& cfg, caf::actor count, caf::actor main, bool fixed)
      : caf::blocking_actor(cfg), count_(std::move(count)), main_(std::move(main)), fixed_(fixed) {}
  void act() override { add_one(this, count_, main_, fixed_); }
  const char* name() const override { return "client"; }

 private:
  caf::actor count_;
  caf::actor main_;
  bool fixed_;
};

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  auto count = system.spawn(counter);
  caf::scoped_actor self{system};
  for (int i = 0; i < 2; ++i) {
    if (cfg.class_based) {
      system.spawn<client>(count, caf::actor{self}, cfg.fixed);
    } else {
      system.spawn(add_one, count, caf::actor{self}, cfg.fixed);
    }
  }
  for (int i = 0; i < 2; ++i) self->receive([](done_atom) {});
  int value = -1;
  self->request(count, caf::infinite, get_atom::value).receive([&](int v) { value = v; }, [](caf::error&) {});
  std::cout << "blocking: counter " << value << ", expected 2" << std::endl;
  assert(value == 2);
  self->send_exit(count, caf::exit_reason::user_shutdown);
}

CAF_MAIN()
