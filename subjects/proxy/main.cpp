// proxy: Concuerror's test of the same name (tests/suites/dpor_tests/src/proxy.erl): a message
// sent directly and a message sent through a chain of proxies race to one receiver. A process C
// builds a chain of --proxies processes, each forwarding the one message it receives to the next
// and ending, the last forwarding to C; a process A sends `hello` to C and `world` to the head of
// the chain; C receives two messages, in either order. Concuerror: 2 interleavings with 100
// proxies.
//
// With --guarded, each proxy learns its next hop from a `Next` message of main's and holds the
// word back until it has (a guard): the chain whose first message waits on a guard that issue 34
// measured at 2^(N-1) - 1 sleep-blocked runs for TransDPOR and N - 1 for optimal DPOR. The guard is
// written with a view of what it reads (actor.hpp), which the explorer tests on a proxy's earlier
// states: then no run is blocked. With --plain-guards it is a plain predicate, which the explorer
// can only learn about by running schedules: the chain's cost as issue 34 measured it.
//
// The actors: C (Receiver), the proxies, A (Sender, whose constructor sends both messages, in the
// step that spawns it). Started by hand it prints the order C received them in.

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Word {
  static constexpr const char* type_name = "Word";
  std::string text;
  void describe(exocheck::Describer& d) const { d("text", text); }
};

struct Next {
  static constexpr const char* type_name = "Next";
  exocheck::ActorRef hop;
  void describe(exocheck::Describer&) const {}
};

class Receiver : public exocheck::Actor {
 public:
  Receiver() {
    on([this](const Word& w) { received_ += (received_.empty() ? "" : ",") + w.text; });
  }
  std::string final_state() const override { return received_; }

 private:
  std::string received_;
};

/// Forwards the one message it receives, then ends; without its next hop yet, it waits for a
/// `Next` before it takes the word.
class Proxy : public exocheck::Actor {
 public:
  Proxy(std::optional<exocheck::ActorRef> next, bool plain_guard) : next_(next) {
    if (plain_guard) {
      guard<Word>([this](const Word&) { return next_.has_value(); });
    } else {
      guard<Word>([this] { return next_.has_value(); }, [](bool has_next, const Word&) { return has_next; });
    }
    on([this](const Next& n) { next_ = n.hop; });
    on([this](const Word& w) {
      send(*next_, w);
      destroy();
    });
  }

 private:
  std::optional<exocheck::ActorRef> next_;
};

class Sender : public exocheck::Actor {
 public:
  Sender(exocheck::ActorRef receiver, exocheck::ActorRef chain) {
    send(receiver, Word{"hello"});
    send(chain, Word{"world"});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"proxy: a message sent directly races one sent through a chain of proxies (Concuerror's proxy)"};
  int proxies = 100;
  bool guarded = false;
  bool plain_guards = false;
  app.add_option("--proxies", proxies, "proxies in the chain")->check(CLI::Range(0, 10'000))->capture_default_str();
  app.add_flag("--guarded", guarded,
               "each proxy learns its next hop from a message of main's and holds the word back until then");
  app.add_flag("--plain-guards", plain_guards,
               "with --guarded: write the guard as a plain predicate, which the explorer tests only by running");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto receiver = system.spawn<Receiver>();
  if (guarded && proxies > 0) {
    std::vector<exocheck::ActorRef> chain;
    for (int i = 0; i < proxies; ++i) chain.push_back(system.spawn<Proxy>(std::nullopt, plain_guards));
    system.spawn<Sender>(receiver, chain.front());
    for (std::size_t i = 0; i < chain.size(); ++i)
      system.send(chain[i], Next{i + 1 < chain.size() ? chain[i + 1] : receiver});
  } else {
    exocheck::ActorRef chain = receiver;
    for (int i = 0; i < proxies; ++i) chain = system.spawn<Proxy>(chain, plain_guards);
    system.spawn<Sender>(receiver, chain);
  }
  const int code = system.run();
  if (!system.controlled()) std::cout << "proxy: done" << std::endl;
  return code;
}
