// regsim: a server registration simulation (TransDPOR Section 6). C clients register with a
// server through one registrar, then each sends the server one request (the actors are in
// regsim.hpp, shared with regsim-2-level). The property: every client is registered exactly
// once, and the server registers as many clients as there are.

#include <CLI/CLI.hpp>

#include "regsim.hpp"

namespace {

/// Creates the server, the registrar and the clients in its constructor (step 0); each client
/// sends its registration as it is created.
class Boot : public exocheck::Actor {
 public:
  explicit Boot(int clients) {
    const auto server = spawn<regsim::Server>(clients);
    const auto registrar = spawn<regsim::Registrar>(server);
    for (int i = 0; i < clients; ++i) spawn<regsim::Client>(registrar);
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"regsim: clients register with a server through a registrar (TransDPOR Section 6)"};
  int clients = 3;
  app.add_option("-c,--clients", clients, "how many clients register")->check(CLI::Range(1, 100));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Boot>(clients);
  return system.run();
}
