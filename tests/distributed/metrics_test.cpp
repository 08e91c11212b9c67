// The metrics endpoints, scraped as Prometheus would while a job runs on real daemons: the
// coordinator's figures agree with the job's progress and summary, the agents' runs add up to the
// job's executions.

#include <gtest/gtest.h>

#include <utility>  // before Boost.Asio 1.74, whose awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "coordinator_client.hpp"
#include "daemon_processes.hpp"
#include "exocheck/metrics/prometheus_text.hpp"
#include "sha256.hpp"

namespace exocheck::distributed_test {
namespace {

namespace http = boost::beast::http;

struct Scrape {
  unsigned status = 0;
  std::string content_type;
  std::map<std::string, double> samples;  ///< "name{labels}" -> value
  std::string text;
};

Scrape scrape(int port, const std::string& target = "/metrics") {
  boost::asio::io_context io;
  boost::beast::tcp_stream stream(io);
  stream.connect(
      boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, "127.0.0.1");
  http::write(stream, request);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  Scrape result;
  result.status = response.result_int();
  result.content_type = std::string(response[http::field::content_type]);
  result.text = response.body();
  if (result.status != 200) return result;
  std::istringstream lines(result.text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.starts_with("#")) continue;
    const auto space = line.rfind(' ');
    result.samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return result;
}

int metrics_port(const std::string& log) {
  std::smatch match;
  static const std::regex kPort(R"(metrics at http://\S+/metrics \(port (\d+)\))");
  if (!std::regex_search(log, match, kPort)) return 0;
  return std::stoi(match[1]);
}

double sample(const Scrape& scraped, const std::string& key) {
  const auto found = scraped.samples.find(key);
  if (found == scraped.samples.end()) {
    ADD_FAILURE() << "no sample " << key << " in:\n" << scraped.text;
    return -1;
  }
  return found->second;
}

// Optimal DPOR over two agents: the root lease lives as long as the job, and a request is routed
// to it for most paths explored below it. The coordinator keeps a request only until the agent
// says it has it (Report.backtracks_seen): kept to the job's end, they grew it by gigabytes an hour.
TEST(Metrics, RoutedRequestsAnAgentHasAreForgotten) {
  LoopbackCluster cluster(false, {"--metrics", "127.0.0.1:0"});
  cluster.start_agent("a1");
  cluster.start_agent("a2");
  cluster.wait_for_agents(2);
  const int coordinator_port = metrics_port(cluster.coordinator_log());
  ASSERT_GT(coordinator_port, 0) << cluster.coordinator_log();
  proto::SubmitRequest request;
  request.set_subject((bin_dir() / "minesweeper").string());
  request.set_sha256(agent::sha256_of_file(request.subject()));
  auto& settings = *request.mutable_settings();
  settings.set_reduction(proto::REDUCTION_OPTIMAL);
  settings.set_sleep_sets(true);
  settings.set_keep_going(true);
  settings.set_time_limit_ms(120'000);
  settings.set_run_timeout_ms(10'000);
  agent::CoordinatorClient client{cluster.address(), std::chrono::milliseconds(5'000)};
  const auto job = client.submit(request);
  double routed = 0;
  double held = 0;
  client.watch(job, [&](const proto::JobProgress& update) {
    if (routed >= 20'000 || update.state() != proto::JOB_RUNNING) return;
    const auto running = scrape(coordinator_port);
    routed = sample(running, "exocheck_backtracks_routed_total");
    held = sample(running, "exocheck_backtracks_held");
    if (routed >= 20'000) client.cancel(job);
  });
  ASSERT_GE(routed, 20'000) << "the job ended before it routed 20,000 requests; " << cluster.coordinator_log();
  // What was routed since the agent's last report (a second's worth at most) is held.
  EXPECT_LT(held, routed / 2) << cluster.coordinator_log();
}

TEST(PrometheusText, EscapesLabelValuesAndHelpAsTheFormatSays) {
  metrics::PrometheusText text;
  text.family("m", "gauge", "a \\ b\nc \"d\"").sample("m", std::uint64_t{3}, {{"path", "C:\\x \"y\"\nz"}});
  text.sample("m", 0.5).sample("m", std::numeric_limits<double>::infinity());
  EXPECT_EQ(text.text(),
            "# HELP m a \\\\ b\\nc \"d\"\n# TYPE m gauge\nm{path=\"C:\\\\x \\\"y\\\"\\nz\"} 3\nm 0.5\nm +Inf\n");
}

TEST(Metrics, ScrapedWhileAJobRunsTheyAgreeWithItsProgressAndSummary) {
  LoopbackCluster cluster(false, {"--metrics", "127.0.0.1:0"});
  const auto a1 = cluster.start_agent("a1", 1, {}, {"--metrics", "127.0.0.1:0"});
  const auto a2 = cluster.start_agent("a2", 1, {}, {"--metrics", "127.0.0.1:0"});
  cluster.wait_for_agents(2);
  const int coordinator_port = metrics_port(cluster.coordinator_log());
  ASSERT_GT(coordinator_port, 0) << cluster.coordinator_log();
  int agent_ports[2] = {0, 0};
  for (int attempt = 0; attempt < 100 && (agent_ports[0] == 0 || agent_ports[1] == 0); ++attempt) {
    agent_ports[0] = metrics_port(cluster.agent_log(a1));
    agent_ports[1] = metrics_port(cluster.agent_log(a2));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GT(agent_ports[0], 0) << cluster.agent_log(a1);
  ASSERT_GT(agent_ports[1], 0) << cluster.agent_log(a2);

  const auto idle = scrape(coordinator_port);
  EXPECT_EQ(idle.status, 200u);
  EXPECT_EQ(idle.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(sample(idle, "exocheck_agents_connected"), 2);
  EXPECT_EQ(sample(idle, "exocheck_agent_slots"), 2);
  EXPECT_EQ(sample(idle, "exocheck_jobs{state=\"running\"}"), 0);
  EXPECT_EQ(scrape(coordinator_port, "/other").status, 404u);

  // pi on 5 workers, DPOR and LCA without sleep sets: 19,845 paths; 300,000 intervals keep each
  // run computing long enough that they last seconds on a fast machine too.
  proto::SubmitRequest request;
  request.set_subject((bin_dir() / "pi").string());
  request.add_args("--workers");
  request.add_args("5");
  request.add_args("--intervals");
  request.add_args("300000");
  request.set_sha256(agent::sha256_of_file(request.subject()));
  auto& settings = *request.mutable_settings();
  settings.set_reduction(proto::REDUCTION_DPOR);
  settings.set_heuristic(proto::LCA);
  settings.set_sleep_sets(false);
  settings.set_run_timeout_ms(10'000);
  agent::CoordinatorClient client{cluster.address(), std::chrono::milliseconds(5'000)};
  const auto job = client.submit(request);
  bool scraped_while_running = false;
  const auto last = client.watch(job, [&](const proto::JobProgress& update) {
    if (scraped_while_running || update.state() != proto::JOB_RUNNING || update.paths() < 2'000) return;
    const auto running = scrape(coordinator_port);
    EXPECT_EQ(sample(running, "exocheck_jobs{state=\"running\"}"), 1);
    EXPECT_EQ(sample(running, "exocheck_job_state{job=\"1\",state=\"running\"}"), 1);
    EXPECT_GE(sample(running, "exocheck_job_paths{job=\"1\"}"), update.paths());  // they only grow
    // A running job may have every path in while the last subtree's end is on its way.
    EXPECT_LE(sample(running, "exocheck_job_paths{job=\"1\"}"), 19'845);
    EXPECT_GE(sample(running, "exocheck_leases_out"), 1);
    EXPECT_GT(sample(running, "exocheck_paths_per_second"), 0);
    EXPECT_EQ(sample(running, "exocheck_job_agents{job=\"1\"}"), 2);
    scraped_while_running = true;
  });
  ASSERT_EQ(last.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_TRUE(scraped_while_running) << "the job ended before it could be scraped";
  EXPECT_EQ(last.paths(), 19'845u);

  const auto done = scrape(coordinator_port);
  EXPECT_EQ(sample(done, "exocheck_jobs{state=\"complete_no_bug\"}"), 1);
  EXPECT_EQ(sample(done, "exocheck_jobs{state=\"running\"}"), 0);
  EXPECT_EQ(sample(done, "exocheck_job_paths{job=\"1\"}"), last.paths());
  EXPECT_EQ(sample(done, "exocheck_job_classes{job=\"1\"}"), last.classes());
  EXPECT_EQ(sample(done, "exocheck_job_transitions{job=\"1\"}"), last.transitions());
  EXPECT_EQ(sample(done, "exocheck_job_bugs{job=\"1\"}"), 0);
  EXPECT_EQ(sample(done, "exocheck_paths_total"), last.paths());
  EXPECT_EQ(sample(done, "exocheck_bugs_total"), 0);
  EXPECT_EQ(sample(done, "exocheck_leases_out"), 0);
  EXPECT_GT(sample(done, "exocheck_reports_received_total"), 0);
  EXPECT_GT(sample(done, "exocheck_received_bytes_total"), sample(done, "exocheck_agent_messages_received_total"));
  EXPECT_GE(sample(done, "exocheck_client_calls_total"), 2);  // submit, watch
  EXPECT_EQ(sample(done, "exocheck_refused_calls_total"), 0);

  // Each execution of the job is one run of one agent.
  double runs = 0;
  for (const int port : agent_ports) {
    const auto agent = scrape(port);
    EXPECT_EQ(agent.status, 200u);
    runs += sample(agent, "exocheck_agent_runs_all_total");
    EXPECT_EQ(sample(agent, "exocheck_agent_runs_total{status=\"completed\"}"),
              sample(agent, "exocheck_agent_runs_all_total"));
    EXPECT_EQ(sample(agent, "exocheck_agent_crashes_total"), 0);
    EXPECT_EQ(sample(agent, "exocheck_agent_hangs_total"), 0);
    EXPECT_GE(sample(agent, "exocheck_agent_fork_server_starts_total"), 1);
    EXPECT_EQ(sample(agent, "exocheck_agent_connected"), 1);
    EXPECT_EQ(sample(agent, "exocheck_agent_slots"), 1);
  }
  EXPECT_EQ(runs, static_cast<double>(last.paths() + last.sleep_blocked()));
}

}  // namespace
}  // namespace exocheck::distributed_test
