// proxy: Concuerror's test of the same name (tests/suites/dpor_tests/src/proxy.erl): a message
// sent directly and a message sent through a chain of proxies race to one receiver. A process C
// builds a chain of --proxies processes, each forwarding the one message it receives to the next
// and ending, the last forwarding to C; a process A sends `hello` to C and `world` to the head of
// the chain; C receives two messages, in either order. Concuerror: 2 interleavings with 100
// proxies.
//
// The actors: C (Receiver), the proxies, A (Sender, whose constructor sends both messages, in the
// step that spawns it). Started by hand it prints the order C received them in.

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

struct Word {
  static constexpr const char* type_name = "Word";
  std::string text;
  void describe(exocheck::Describer& d) const { d("text", text); }
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

/// Forwards the one message it receives, then ends.
class Proxy : public exocheck::Actor {
 public:
  explicit Proxy(exocheck::ActorRef next) {
    on([this, next](const Word& w) {
      send(next, w);
      destroy();
    });
  }
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
  app.add_option("--proxies", proxies, "proxies in the chain")->check(CLI::Range(0, 10'000))->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto receiver = system.spawn<Receiver>();
  exocheck::ActorRef chain = receiver;
  for (int i = 0; i < proxies; ++i) chain = system.spawn<Proxy>(chain);
  system.spawn<Sender>(receiver, chain);
  const int code = system.run();
  if (!system.controlled()) std::cout << "proxy: done" << std::endl;
  return code;
}
