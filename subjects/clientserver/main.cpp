// clientserver: the SEJAP thesis's simplified ScalaWiki sample (Chapter 3, Fig. 3-1). The client
// sends Set(1) asynchronously, then reads the server's value twice with synchronous Gets and
// assumes both reads agree (the thesis's commented-out assert, enabled here), then sends Kill.
//
// The bug: channels are unordered, so the server may handle a Get before Set(1). Set(1) between
// the two Gets gives v1=0, v2=1 (an atomicity violation, the assertion fails); Set(1) after both
// Gets and Kill is a dead letter. With --fixed, Set is a synchronous call as well, so it is
// handled before the first Get on every path.
//
// Porting note (SUBJECTS.md): the client's code up to its first synchronous call runs at
// start-up, i.e. in its constructor; each synchronous call ends a macro-step.

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "exocheck/exocheck.hpp"

namespace {

struct Set {
  static constexpr const char* type_name = "Set";
  int value = 0;
  void describe(exocheck::Describer& d) const { d("value", value); }
};

/// A synchronous request for the server's value (the reply is an int).
struct Get {
  static constexpr const char* type_name = "Get";
};

struct Kill {
  static constexpr const char* type_name = "Kill";
};

/// Stores one integer (initially 0) until killed.
class Server : public exocheck::Actor {
 public:
  /// `acknowledge_set`: Set arrives as a synchronous call (the fixed client) and is answered.
  explicit Server(bool acknowledge_set) {
    on([this, acknowledge_set](const Set& m) {
      value_ = m.value;
      if (acknowledge_set) reply();
    });
    on([this](const Get&) { reply(value_); });
    on([this](const Kill&) { destroy(); });
  }

  std::string final_state() const override { return "value=" + std::to_string(value_); }

 private:
  int value_ = 0;
};

/// A hop of a network (--relay): passes Set on to the server after up to `most_us` microseconds,
/// drawn at random. Only a free run waits; under exploration the hop's order is the schedule's.
class Relay : public exocheck::Actor {
 public:
  Relay(exocheck::ActorRef server, int most_us) {
    on([this, server, most_us](const Set& m) {
      thread_local std::mt19937 random(std::random_device{}());
      std::this_thread::sleep_for(std::chrono::microseconds(std::uniform_int_distribution<int>(0, most_us)(random)));
      send(server, m);
    });
  }
};

/// Fig. 3-1's client: Set(1), v1 = Get, v2 = Get, assert v1 == v2, Kill.
class Client : public exocheck::Actor {
 public:
  /// `pause_us`: a free run's pause between the two reads (a client busy elsewhere), where the
  /// relay's Set may land.
  Client(exocheck::ActorRef server, bool fixed, std::optional<exocheck::ActorRef> relay, int pause_us)
      : server_(server), pause_us_(pause_us) {
    if (fixed) {
      call<exocheck::Done>(server_, Set{1}, [this](const exocheck::Done&) { read_first(); });
    } else {
      send(relay.value_or(server_), Set{1});
      read_first();
    }
  }

  std::string final_state() const override { return "v1=" + std::to_string(v1_) + " v2=" + std::to_string(v2_); }

 private:
  void read_first() {
    call<int>(server_, Get{}, [this](int value) {
      v1_ = value;
      if (pause_us_ > 0) std::this_thread::sleep_for(std::chrono::microseconds(pause_us_));
      read_second();
    });
  }

  void read_second() {
    call<int>(server_, Get{}, [this](int value) {
      v2_ = value;
      std::cout << "v1=" << v1_ << " v2=" << v2_ << std::endl;
      exocheck::check(v1_ == v2_, "atomicity violation: v1=" + std::to_string(v1_) + " but v2=" + std::to_string(v2_));
      send(server_, Kill{});
    });
  }

  exocheck::ActorRef server_;
  int pause_us_ = 0;
  int v1_ = -1;  // -1: not read yet
  int v2_ = -1;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clientserver: the SEJAP thesis's client-server example (Chapter 3)"};
  bool fixed = false;
  int relay_us = -1;
  app.add_flag("--fixed", fixed, "make Set a synchronous call too, which removes the atomicity violation");
  app.add_option("--relay", relay_us,
                 "send Set through a relay actor (actor 1) that waits up to this many microseconds first, and "
                 "pause half as long between the reads: the race a free run meets under load");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  exocheck::System system;
  auto server = system.spawn<Server>(fixed);
  std::optional<exocheck::ActorRef> relay;
  if (relay_us >= 0) relay = system.spawn<Relay>(server, relay_us);
  system.spawn<Client>(server, fixed, relay, relay_us / 2);
  return system.run();
}
