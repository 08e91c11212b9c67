// random_actors: a small actor program drawn from --seed, for the property that every bug an
// exploration saves replays to the same failure, whatever ended its run (issue 51). Two to four
// nodes fold the pings they get into a sum whose value depends on their order (sum * k + v); a
// node whose sum hits its trigger ends the run in its own way, drawn from the seed: a failed
// check, an exception, abort() (as a failed assert() does), a fatal signal, exit() in a handler,
// or a call nobody answers (a deadlock). Some nodes forward what they get, arm a timer, ask another
// node with a call that times out, or choose (exocheck::choose). Started by hand it runs one order.

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;

struct Ping {
  static constexpr const char* type_name = "Ping";
  int value = 0;
  int hops = 0;
  void describe(exocheck::Describer& d) const { d("value", value)("hops", hops); }
};

struct Ask {
  static constexpr const char* type_name = "Ask";
  bool answer = true;
  void describe(exocheck::Describer& d) const { d("answer", answer); }
};

struct Tick {
  static constexpr const char* type_name = "Tick";
  void describe(exocheck::Describer&) const {}
};

enum class Ending { kCheck, kException, kAbort, kSignal, kExit, kUnanswered, kNone };

/// A splitmix64 stream: the same program from the same seed on every platform.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : state_(seed) {}
  int below(int n) {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<int>((z ^ (z >> 31)) % static_cast<std::uint64_t>(n));
  }

 private:
  std::uint64_t state_;
};

struct NodePlan {
  int factor = 2;
  int modulus = 3;
  int residue = 0;
  Ending ending = Ending::kNone;
  int forward_to = -1;  ///< where a ping with hops left goes (-1: nowhere)
  int ask = -1;         ///< the node it asks on its first ping (-1: none)
  bool timer = false;
  bool chooses = false;
};

using Peers = std::shared_ptr<std::vector<exocheck::ActorRef>>;

class Node : public exocheck::Actor {
 public:
  Node(NodePlan plan, Peers peers) : plan_(plan), peers_(std::move(peers)) {
    if (plan_.timer) after(20ms, Tick{});
    on([this](const Ping& ping) {
      if (failed_) return;
      if (plan_.chooses) add(static_cast<int>(exocheck::choose(2)));
      add(ping.value);
      if (failed_) return;
      if (ping.hops > 0 && plan_.forward_to >= 0) send(peer(plan_.forward_to), Ping{ping.value + 1, ping.hops - 1});
      if (plan_.ask >= 0 && !asked_) {
        asked_ = true;
        call<int>(
            peer(plan_.ask), Ask{}, [this](int answer) { add(answer); }, 50ms, [this] { add(7); });
      }
    });
    on([this](const Ask& ask) {
      if (ask.answer) reply(sum_);
    });
    on([this](const Tick&) { add(5); });
  }

  std::string final_state() const override { return "sum=" + std::to_string(sum_); }

 private:
  exocheck::ActorRef peer(int index) const { return peers_->at(static_cast<std::size_t>(index)); }

  void add(int value) {
    sum_ = (sum_ * plan_.factor + value) % 1000;
    if (!failed_ && ++count_ >= 2 && sum_ % plan_.modulus == plan_.residue) fail();
  }

  void fail() {
    failed_ = true;
    const std::string what = "sum " + std::to_string(sum_) + " after " + std::to_string(count_);
    switch (plan_.ending) {
      case Ending::kCheck:
        exocheck::check(false, what);
        break;
      case Ending::kException:
        throw std::runtime_error(what);
      case Ending::kAbort:
        std::abort();
      case Ending::kSignal:
        std::raise(SIGSEGV);
        break;
      case Ending::kExit:
        std::exit(3);
      case Ending::kUnanswered:
        call<int>(self(), Ask{false}, [](int) {});
        break;
      case Ending::kNone:
        break;
    }
  }

  NodePlan plan_;
  Peers peers_;
  int sum_ = 0;
  int count_ = 0;
  bool asked_ = false;
  bool failed_ = false;  ///< its ending came: a node that fails does nothing more
};

std::vector<NodePlan> plans_of(Draws& draws, int nodes) {
  std::vector<NodePlan> plans(static_cast<std::size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    auto& plan = plans[static_cast<std::size_t>(i)];
    plan.factor = 2 + draws.below(4);
    plan.modulus = 3 + draws.below(5);
    plan.residue = draws.below(plan.modulus);
    plan.ending = static_cast<Ending>(draws.below(7));
    if (draws.below(2) == 0) plan.forward_to = (i + 1 + draws.below(nodes - 1)) % nodes;
    if (draws.below(4) == 0) plan.ask = (i + 1 + draws.below(nodes - 1)) % nodes;
    plan.timer = draws.below(4) == 0;
    plan.chooses = draws.below(5) == 0;
  }
  return plans;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"random_actors: a small actor program drawn from a seed, ending in one of the ways a run can fail"};
  std::uint64_t seed = 1;
  app.add_option("--seed", seed, "which program")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  Draws draws(seed);
  const int nodes = 2 + draws.below(3);
  const auto plans = plans_of(draws, nodes);
  exocheck::System system;
  auto peers = std::make_shared<std::vector<exocheck::ActorRef>>();
  for (const auto& plan : plans) peers->push_back(system.spawn<Node>(plan, peers));
  const int pings = 2 + draws.below(2);
  for (int i = 0; i < pings; ++i) {
    system.send(peers->at(static_cast<std::size_t>(draws.below(nodes))), Ping{1 + draws.below(9), draws.below(2)});
  }
  return system.run();
}
