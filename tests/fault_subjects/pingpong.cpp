// pingpong: two actors bounce a counter until it reaches zero: exactly --steps macro-steps after
// the initial one (default 100000). The benchmark runs it for the cost of one macro-step, under
// the runner and by hand. Started by hand, it prints the number of steps and exits 0.
// With --heartbeat the first player also beats every 10 ms, for ever: a program that never ends
// (started by hand it runs until killed), whose runs under exploration all reach the step limit.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>

#include "exocheck/exocheck.hpp"

namespace {

/// The ball: `left` hits remain, including this one; `back` is who to return it to.
struct Beat {
  static constexpr const char* type_name = "Beat";
};

struct Ball {
  static constexpr const char* type_name = "Ball";
  std::uint64_t left = 0;
  exocheck::ActorRef back;
  void describe(exocheck::Describer& d) const { d("left", left); }
};

class Player : public exocheck::Actor {
 public:
  Player(std::uint64_t& hits, bool heartbeat) : hits_(hits) {
    if (heartbeat) every(std::chrono::milliseconds(10), Beat{});
    on([](const Beat&) {});
    on([this](const Ball& ball) {
      ++hits_;
      if (ball.left > 1) send(ball.back, Ball{ball.left - 1, self()});
    });
  }

 private:
  std::uint64_t& hits_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pingpong: two actors bounce a counter, one macro-step per hit"};
  std::uint64_t steps = 100000;
  app.add_option("--steps", steps, "macro-steps after the initial one")->check(CLI::Range(1ULL, 1ULL << 40));
  bool heartbeat = false;
  app.add_flag("--heartbeat", heartbeat, "the first player beats every 10 ms for ever: the program never ends");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  // Only one actor runs at a time (the ball is in one place), so a shared counter needs no lock.
  std::uint64_t hits = 0;
  exocheck::System system;
  const auto ping = system.spawn<Player>(hits, heartbeat);
  const auto pong = system.spawn<Player>(hits, false);
  system.send(ping, Ball{steps, pong});
  const int code = system.run();
  if (!system.controlled()) std::cout << "pingpong: " << hits << " steps" << std::endl;
  return code;
}
