// exocheck-agent: runs an exocheck coordinator's leases on this host, N at a time.
// A thin main over AgentDaemon (agent_daemon.hpp).

#include <algorithm>
#include <csignal>
#include <string>
#include <thread>

#include <unistd.h>

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "agent_daemon.hpp"
#include "exocheck/options/option_flags.hpp"

namespace {

std::string default_name() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::string(host) + ":" + std::to_string(getpid());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"exocheck-agent: runs exploration leases from an exocheck coordinator"};
  exocheck::agent::AgentDaemonOptions options;
  options.name = default_name();
  app.add_option("--coordinator", options.coordinator, "coordinator address, host:port")->required();
  app.add_option("--slots", options.slots, "runs at once (default: the number of cores)")->check(CLI::Range(1u, 4096u));
  app.add_option("--name", options.name, "name shown by the coordinator (default: host:pid)");
  bool no_fork_server = false;
  exocheck::options::add_no_fork_server_flag(app, no_fork_server);
  bool no_in_place = false;
  exocheck::options::add_no_in_place_flag(app, no_in_place);
  options.slots = std::max(1u, std::thread::hardware_concurrency());
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // DESIGN.md: usage errors exit 2 (CLI11's own codes are not ours); --help exits 0.
    return app.exit(error) == 0 ? 0 : 2;
  }
  options.fork_server = !no_fork_server;
  options.in_place = !no_in_place;

  // Signals are taken by one thread with sigwait: the daemon stops cleanly on SIGINT or SIGTERM.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  exocheck::agent::AgentDaemon daemon(options);
  std::jthread watcher([&daemon, signals] {
    int signal = 0;
    sigwait(&signals, &signal);
    spdlog::info("signal {}: stopping", signal);
    daemon.stop();
  });
  daemon.run();
  pthread_kill(watcher.native_handle(), SIGTERM);
  return 0;
}
