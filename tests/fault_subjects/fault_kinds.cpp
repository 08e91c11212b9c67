// fault_kinds: --racers N (2 to 8) racers each send one Arrive to a judge, which fails its check
// with a text naming the first two to arrive: "the race was won by alpha, then beta". The judge
// ends there (a failed check ends its actor), the later arrivals are dead letters: every path
// fails, in N * (N - 1) distinct ways, one class each. The subject of the distinct bugs' tests
// (their grouping, the cap on traces, --max-bugs). Started by hand it fails one way.

#include <CLI/CLI.hpp>
#include <array>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

constexpr std::array<const char*, 8> kNames{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};

struct Arrive {
  static constexpr const char* type_name = "Arrive";
  int racer = 0;
  void describe(exocheck::Describer& d) const { d("racer", racer); }
};

class Judge : public exocheck::Actor {
 public:
  Judge() {
    on([this](const Arrive& arrive) {
      order_.push_back(arrive.racer);
      if (order_.size() != 2) return;
      exocheck::check(false, std::string("the race was won by ") + kNames.at(static_cast<std::size_t>(order_[0])) +
                                 ", then " + kNames.at(static_cast<std::size_t>(order_[1])));
    });
  }

 private:
  std::vector<int> order_;
};

class Racer : public exocheck::Actor {
 public:
  Racer(int number, exocheck::ActorRef judge) {
    on([this, number, judge](const Arrive&) { send(judge, Arrive{number}); });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fault_kinds: racers whose order of arrival fails a judge's check in N * (N - 1) ways"};
  int racers = 4;
  app.add_option("--racers", racers, "racers")->check(CLI::Range(2, 8));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto judge = system.spawn<Judge>();
  for (int i = 0; i < racers; ++i) system.send(system.spawn<Racer>(i, judge), Arrive{i});
  return system.run();
}
