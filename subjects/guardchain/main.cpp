// guardchain: the proxy chain of Concuerror's `proxy` test with each proxy waiting on a guard for
// the next hop. A message sent directly and a message sent through --proxies proxies race to one
// receiver, as in `proxy`; here every proxy learns its next hop from a `Next` message of the
// environment, and its guard holds the forwarded word back until it has. The issue that asked for
// it measured the default reduction at 2^(N-1) - 1 sleep-blocked runs on such a chain (N = 12:
// 2,047 for 2 classes) and optimal DPOR at N - 1.
//
// Started by hand it prints the order the receiver got the two words in.

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

/// Forwards the one word it receives once it knows where to, then ends.
class Proxy : public exocheck::Actor {
 public:
  Proxy() {
    guard<Word>([this](const Word&) { return next_.has_value(); });
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
  CLI::App app{"guardchain: a word sent directly races one sent through proxies that wait for their next hop"};
  int proxies = 12;
  app.add_option("--proxies", proxies, "proxies in the chain")->check(CLI::Range(1, 10'000))->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto receiver = system.spawn<Receiver>();
  std::vector<exocheck::ActorRef> chain;
  for (int i = 0; i < proxies; ++i) chain.push_back(system.spawn<Proxy>());
  system.spawn<Sender>(receiver, chain.front());
  for (std::size_t i = 0; i < chain.size(); ++i)
    system.send(chain[i], Next{i + 1 < chain.size() ? chain[i + 1] : receiver});
  const int code = system.run();
  if (!system.controlled()) std::cout << "guardchain: done" << std::endl;
  return code;
}
