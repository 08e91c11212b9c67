// regsim-2-level: regsim with two levels of registrars (TransDPOR Section 6). C clients register
// with a server through L local registrars, which pass registrations to a top registrar, which
// passes them to the server; each client then sends the server one request. The actors are
// regsim's (../regsim/regsim.hpp). The property: every client is registered exactly once, and
// the server registers as many clients as there are.

#include <CLI/CLI.hpp>
#include <vector>

#include "../regsim/regsim.hpp"

namespace {

/// Creates the server, the top registrar, the local registrars and the clients (client i with
/// local registrar i mod L) in its constructor (step 0); each client sends its registration as it
/// is created.
class Boot : public exocheck::Actor {
 public:
  Boot(int clients, int registrars) {
    const auto server = spawn<regsim::Server>(clients);
    const auto top = spawn<regsim::Registrar>(server);
    std::vector<exocheck::ActorRef> local;
    for (int i = 0; i < registrars; ++i) local.push_back(spawn<regsim::Registrar>(top));
    for (int i = 0; i < clients; ++i) spawn<regsim::Client>(local[static_cast<std::size_t>(i % registrars)]);
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"regsim-2-level: clients register through two levels of registrars (TransDPOR Section 6)"};
  int clients = 3;
  int registrars = 2;
  app.add_option("-c,--clients", clients, "how many clients register")->check(CLI::Range(1, 100));
  app.add_option("-r,--registrars", registrars, "how many local registrars (client i uses i mod R)")
      ->check(CLI::Range(1, 100));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Boot>(clients, registrars);
  return system.run();
}
