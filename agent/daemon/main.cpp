// exocheck-agent: runs an exocheck coordinator's leases on this host, N at a time.
// A thin main over AgentDaemon (agent_daemon.hpp).

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "exocheck/link/link_settings.hpp"
#include "exocheck/metrics/metrics_endpoint.hpp"
#include "exocheck/options/daemon_flags.hpp"

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
  std::string subjects_dir;
  app.add_option("--subjects-dir", subjects_dir,
                 "run only subjects under this folder (symbolic links resolved); anything else a job names is "
                 "refused before it runs");
  std::vector<std::string> allow_files;
  app.add_option("--allow-sha256", allow_files,
                 "run subjects whose SHA-256 is listed in this file (one per line, sha256sum's output will do); "
                 "may be repeated, and combined with --subjects-dir");
  bool no_fork_server = false;
  exocheck::options::add_no_fork_server_flag(app, no_fork_server);
  bool no_in_place = false;
  exocheck::options::add_no_in_place_flag(app, no_in_place);
  options.slots = std::max(1u, std::thread::hardware_concurrency());
  std::string metrics_address;
  exocheck::link::add_metrics_option(app, metrics_address);
  exocheck::link::LinkFlags link_flags;
  exocheck::link::add_link_flags(app, link_flags, "this agent (for a coordinator that requires client certificates)");
  exocheck::options::add_version_flag(app, "exocheck-agent");
  exocheck::options::LogSettings log_settings;
  exocheck::options::add_log_options(app, log_settings);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // DESIGN.md: usage errors exit 2 (CLI11's own codes are not ours); --help exits 0.
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::options::apply_log_settings(log_settings, "exocheck-agent");
  if (subjects_dir.empty() && allow_files.empty()) {
    std::fprintf(stderr,
                 "exocheck-agent: give --subjects-dir DIR or --allow-sha256 FILE: an agent runs only the subjects it "
                 "is told it may, whatever a client of its coordinator asks\n");
    return 2;
  }
  try {
    options.subjects = exocheck::agent::SubjectPolicy::from_flags(subjects_dir, allow_files);
    options.link = exocheck::link::read_link_settings(link_flags);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "exocheck-agent: %s\n", error.what());
    return 2;
  }
  if (const auto refusal = exocheck::link::plaintext_refusal(options.link, options.coordinator, "connecting to");
      !refusal.empty()) {
    std::fprintf(stderr, "exocheck-agent: %s\n", refusal.c_str());
    return 2;
  }
  if (const auto refusal = exocheck::link::metrics_refusal(options.link, metrics_address); !refusal.empty()) {
    std::fprintf(stderr, "exocheck-agent: %s\n", refusal.c_str());
    return 2;
  }
  if (const auto warning = exocheck::link::plaintext_warning(options.link, options.coordinator, "connecting to");
      !warning.empty()) {
    spdlog::warn("{}", warning);
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
  std::optional<exocheck::metrics::MetricsEndpoint> metrics;
  if (!metrics_address.empty()) {
    try {
      metrics.emplace(metrics_address, [&daemon] { return daemon.metrics(); });
    } catch (const std::runtime_error& error) {
      std::fprintf(stderr, "exocheck-agent: %s\n", error.what());
      return 2;
    }
    spdlog::info("metrics at http://{}/metrics (port {})", metrics_address, metrics->port());
  }
  std::jthread watcher([&daemon, signals] {
    int signal = 0;
    sigwait(&signals, &signal);
    spdlog::info("signal {}: stopping", signal);
    daemon.stop();
  });
  const int status = daemon.run();
  pthread_kill(watcher.native_handle(), SIGTERM);
  return status;
}
