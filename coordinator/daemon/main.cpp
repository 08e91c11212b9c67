// exocheck-coordinator: holds explorations and balances their subtrees across agents over gRPC.
// A thin main over CoordinatorServer (beside it) and JobDispatcher (coordinator/dispatch/).

#include <csignal>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "exocheck/link/link_settings.hpp"
#include "exocheck/options/daemon_flags.hpp"

#include "coordinator_metrics.hpp"
#include "coordinator_server.hpp"
#include "exocheck/metrics/metrics_endpoint.hpp"
#include "journal.hpp"

namespace {

/// Blocks SIGINT and SIGTERM in every thread; the returned thread waits for one and shuts down.
std::jthread shut_down_on_signal(exocheck::coordinator::CoordinatorServer& server, sigset_t signals) {
  return std::jthread([&server, signals] {
    int signal = 0;
    sigwait(&signals, &signal);
    spdlog::info("signal {}: shutting down", signal);
    server.shutdown();
  });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"exocheck-coordinator: serves explorations to exocheck agents and clients over gRPC"};
  std::string listen;
  std::string port_file;
  app.add_option("--listen", listen, "address to listen on, host:port (port 0: any free port)")->required();
  app.add_option("--port-file", port_file, "write the bound port to this file once listening");
  std::string state_dir;
  app.add_option("--state-dir", state_dir,
                 "journal every job's state in this folder, and resume what it holds at start (killed and "
                 "restarted with the same folder, the coordinator goes on with every job)");
  // The dispatcher's default, shown in --help.
  double reattach_grace =
      std::chrono::duration<double>(exocheck::coordinator::DispatcherOptions{}.reattach_grace).count();
  app.add_option("--reattach-grace", reattach_grace,
                 "seconds the subtrees of an agent whose stream ended wait for it to come back before others "
                 "explore them anew")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  std::uint64_t compact_at = exocheck::coordinator::DispatcherOptions{}.compact_at_bytes;
  app.add_option("--compact-journal-at", compact_at,
                 "bytes the journal in --state-dir grows to (and twice its last compacted size) before it is "
                 "written anew as the jobs' present state")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  std::string metrics_address;
  exocheck::link::add_metrics_option(app, metrics_address);
  exocheck::link::LinkFlags link_flags;
  exocheck::link::add_link_flags(app, link_flags, "the coordinator");
  exocheck::options::add_version_flag(app, "exocheck-coordinator");
  exocheck::options::LogSettings log_settings;
  exocheck::options::add_log_options(app, log_settings);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // DESIGN.md: usage errors exit 2 (CLI11's own codes are not ours); --help exits 0.
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::options::apply_log_settings(log_settings, "exocheck-coordinator");
  exocheck::link::LinkSettings link;
  try {
    link = exocheck::link::read_link_settings(link_flags);
  } catch (const std::invalid_argument& error) {
    spdlog::error("exocheck-coordinator: {}", error.what());
    return 2;
  }
  if (link.tls() && link.cert_pem.empty()) {
    spdlog::error("exocheck-coordinator: --tls-ca needs --tls-cert and --tls-key: the coordinator's own certificate");
    return 2;
  }
  if (const auto refusal = exocheck::link::plaintext_refusal(link, listen, "listening on"); !refusal.empty()) {
    spdlog::error("exocheck-coordinator: {}", refusal);
    return 2;
  }
  if (const auto refusal = exocheck::link::metrics_refusal(link, metrics_address); !refusal.empty()) {
    spdlog::error("exocheck-coordinator: {}", refusal);
    return 2;
  }
  if (const auto warning = exocheck::link::plaintext_warning(link, listen, "listening on"); !warning.empty()) {
    spdlog::warn("{}", warning);
  }
  if (link.token.empty() && !exocheck::link::is_loopback(listen)) {
    spdlog::warn("no --token-file: any client that reaches {} can submit jobs", listen);
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  try {
    std::optional<exocheck::coordinator::FileJournal> journal;
    exocheck::coordinator::DispatcherOptions options;
    options.reattach_grace = std::chrono::milliseconds(static_cast<std::int64_t>(reattach_grace * 1000));
    options.compact_at_bytes = compact_at;
    if (!state_dir.empty()) {
      journal.emplace(state_dir);
      options.journal = &*journal;
      options.instance = journal->instance();
    } else {
      std::random_device device;
      options.instance = std::to_string(device()) + std::to_string(device());
    }
    exocheck::coordinator::JobDispatcher dispatcher(options);
    if (journal) dispatcher.restore(journal->read());
    exocheck::coordinator::CoordinatorServer server(listen, dispatcher, link);
    spdlog::info("exocheck-coordinator listening on {} (port {}; {}{})", listen, server.port(),
                 link.cert_pem.empty() ? "plaintext"
                 : link.ca_pem.empty() ? "TLS"
                                       : "TLS, client certificates required",
                 link.token.empty() ? "" : ", token required");
    std::optional<exocheck::metrics::MetricsEndpoint> metrics;
    if (!metrics_address.empty()) {
      metrics.emplace(metrics_address, [&dispatcher, &server] {
        return exocheck::coordinator::coordinator_metrics(dispatcher.figures(), server.counters());
      });
      spdlog::info("metrics at http://{}/metrics (port {})", metrics_address, metrics->port());
    }
    if (!port_file.empty()) std::ofstream(port_file) << server.port() << '\n';
    auto watcher = shut_down_on_signal(server, signals);
    server.wait();
    // Wake the watcher if the server ended on its own.
    pthread_kill(watcher.native_handle(), SIGTERM);
  } catch (const std::exception& error) {
    spdlog::error("exocheck-coordinator: {}", error.what());
    return 2;
  }
  return 0;
}
