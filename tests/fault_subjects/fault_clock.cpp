// fault_clock: behaves by the wall clock, outside exocheck's control, so that a free run's
// recording and a later replay part ways. On Start, actor 2 sends Ping to actor 0 before the time
// given by --flip-at (seconds since the epoch) and to actor 1 from then on: a recording made before
// it and replayed after it diverges at the Ping's delivery (exocheck record, DESIGN.md "Recorded runs").

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>

#include "exocheck/exocheck.hpp"

namespace {

struct Start {
  static constexpr const char* type_name = "Start";
};
struct Ping {
  static constexpr const char* type_name = "Ping";
};

class Sink : public exocheck::Actor {
 public:
  Sink() {
    on([](const Ping&) {});
  }
};

class Clocked : public exocheck::Actor {
 public:
  Clocked(exocheck::ActorRef early, exocheck::ActorRef late, std::int64_t flip_at) {
    on([this, early, late, flip_at](const Start&) {
      const auto now =
          std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
      send(now < flip_at ? early : late, Ping{});
    });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fault_clock: a program that reads the wall clock"};
  std::int64_t flip_at = 0;
  app.add_option("--flip-at", flip_at, "seconds since the epoch from which Ping goes to actor 1");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  auto early = system.spawn<Sink>();
  auto late = system.spawn<Sink>();
  system.send(system.spawn<Clocked>(early, late, flip_at), Start{});
  return system.run();
}
