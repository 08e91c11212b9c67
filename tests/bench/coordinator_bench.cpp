// exocheck-coordinator-bench: how many run results per second the coordinator (dispatcher +
// gRPC service, in this process) absorbs from synthetic agents that run no subject process.
// The synthetic agents answer each lease from results recorded once by real runs of the subject
// (keyed by prefix and sleep set: a deterministic subject gives the same run for the same key);
// a lease never seen before is run for real and counted as a miss. The synthetic agents live in
// a child process, so that the CPU time this process spends is the coordinator's alone: results
// per CPU-second is what one core absorbs.

#include <sys/resource.h>

#include <chrono>
#include <map>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>

#include "coordinator_client.hpp"
#include "coordinator_server.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/option_flags.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/wire/result_events.hpp"
#include "proto/coordinator.grpc.pb.h"
#include "sha256.hpp"

namespace {

using namespace exocheck;

/// Answers leases from recorded runs; runs the subject only for a key it has not seen.
class RecordedRuns {
 public:
  /// Thread-safe: several synthetic agents share one recording.
  void answer(const proto::JobOffer& job, const proto::Lease& lease, proto::LeaseResult& result) {
    const auto key = key_of(lease.request());
    {
      std::shared_lock lock(mutex_);
      if (auto found = runs_.find(key); found != runs_.end()) {
        result = found->second;
        result.set_lease_id(lease.lease_id());
        return;
      }
    }
    agent::RunSpec spec{job.subject(),
                        {job.args().begin(), job.args().end()},
                        lease.request(),
                        std::chrono::milliseconds(job.run_timeout_ms())};
    auto report = agent::Runner().run(spec);
    // As exocheck-agent does: the prefix's steps are left out unless the coordinator needs them.
    wire::assign_events_to_send(report.events, lease.request(), report.result, *result.mutable_events());
    *result.mutable_result() = report.result;
    result.set_hello_seen(report.hello_seen);
    std::unique_lock lock(mutex_);
    ++misses_;
    runs_.emplace(key, result);
    result.set_lease_id(lease.lease_id());
  }
  std::size_t misses() const {
    std::shared_lock lock(mutex_);
    return misses_;
  }

 private:
  static std::string key_of(const proto::RunRequest& request) {
    std::string key;
    for (const auto& id : request.prefix()) key += id + ",";
    key += "|";
    for (const auto& id : request.sleep()) key += id + ",";
    return key;
  }

  mutable std::shared_mutex mutex_;
  std::map<std::string, proto::LeaseResult> runs_;
  std::size_t misses_ = 0;
};

/// One synthetic agent: accepts every job and answers every lease batch with one result batch.
void serve_synthetically(const std::string& address, std::uint32_t slots, RecordedRuns& runs) {
  auto stub = proto::AgentService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->Connect(&context);
  proto::AgentMessage hello;
  hello.mutable_hello()->set_name("synthetic");
  hello.mutable_hello()->set_slots(slots);
  stream->Write(hello);
  proto::CoordinatorMessage message;
  proto::JobOffer job;
  while (stream->Read(&message)) {
    proto::AgentMessage answer;
    if (message.has_offer()) {
      job = message.offer();
      answer.mutable_job_check()->set_job_id(job.job_id());
      answer.mutable_job_check()->set_accepted(true);
    } else {
      for (const auto& lease : message.leases().leases())
        runs.answer(job, lease, *answer.mutable_results()->add_results());
    }
    if (!stream->Write(answer)) break;
  }
}

double cpu_seconds_of_this_process() {
  struct ::rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const ::timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct Figures {
  std::uint64_t results = 0;
  double cpu_seconds = 0;          ///< this process's CPU time: the coordinator's (and the watching client's)
  double best_cpu_per_result = 0;  ///< the least of the jobs (this machine is shared: others steal time)
  double seconds = 0;              ///< wall clock, including each Watch's polling delay at the end of a job
  double job_seconds = 0;          ///< the coordinator's own start-to-end time of the jobs
};

/// Submits `jobs` identical explorations one after the other and waits for each.
Figures explore(const std::string& address, const proto::SubmitRequest& request, int jobs) {
  agent::CoordinatorClient client(address, std::chrono::seconds(5));
  Figures figures;
  const auto start = std::chrono::steady_clock::now();
  const auto cpu_start = cpu_seconds_of_this_process();
  for (int i = 0; i < jobs; ++i) {
    const auto job_cpu_start = cpu_seconds_of_this_process();
    const auto last = client.watch(client.submit(request), [](const proto::JobProgress&) {});
    const auto results = last.paths() + last.sleep_blocked();
    figures.results += results;
    figures.job_seconds += last.elapsed_seconds();
    const auto per_result = (cpu_seconds_of_this_process() - job_cpu_start) / static_cast<double>(results);
    if (i == 0 || per_result < figures.best_cpu_per_result) figures.best_cpu_per_result = per_result;
  }
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.cpu_seconds = cpu_seconds_of_this_process() - cpu_start;
  return figures;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "exocheck-coordinator-bench: results per second the coordinator absorbs from synthetic agents.\n"
      "The default exploration, pi --workers 5 with dpor, lca and no sleep sets, has 19,845 paths."};
  std::string subject = EXOCHECK_BIN_DIR "/pi";
  int workers = 5;
  int jobs = 5;
  int agents = 2;
  std::uint32_t slots = 16;
  std::string agent_process;
  std::string reduction{options::name_of(engine::Reduction::kDpor)};
  std::string heuristic{options::name_of(engine::Heuristic::kLca)};
  bool sleep_sets = false;
  app.add_option("--subject", subject, "subject binary recorded once")->capture_default_str();
  app.add_option("--workers", workers, "its --workers argument")->capture_default_str();
  options::add_reduction_option(app, reduction);
  options::add_heuristic_option(app, heuristic, options::HeuristicChoices::kAll, "Heuristic");
  bool no_sleep_sets = false;  // sleep sets are off here unless --sleep-sets
  options::add_sleep_set_flags(app, sleep_sets, no_sleep_sets);
  app.add_option("--jobs", jobs, "explorations fed from the recording")->capture_default_str();
  app.add_option("--agents", agents, "synthetic agents, one stream and one thread each")->capture_default_str();
  app.add_option("--slots", slots, "slots each synthetic agent announces")->capture_default_str();
  app.add_option("--agent-process", agent_process, "(internal) be the synthetic agents' process for ADDRESS");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  if (!agent_process.empty()) {
    RecordedRuns runs;
    std::vector<std::jthread> synthetic;
    for (int i = 0; i < agents; ++i) synthetic.emplace_back([&] { serve_synthetically(agent_process, slots, runs); });
    for (auto& thread : synthetic) thread.join();
    // More real runs than the recording's results: some fed leases were not in the recording.
    fmt::print("synthetic agents: {} real runs in all\n", runs.misses());
    return 0;
  }

  proto::SubmitRequest request;
  request.set_subject(subject);
  request.add_args("--workers");
  request.add_args(std::to_string(workers));
  request.set_sha256(agent::sha256_of_file(subject));
  // The options accept only the tables' names.
  request.mutable_settings()->set_reduction(options::row_named(options::kReductions, reduction)->wire);
  request.mutable_settings()->set_heuristic(options::row_named(options::kHeuristics, heuristic)->wire);
  request.mutable_settings()->set_sleep_sets(sleep_sets);
  request.mutable_settings()->set_keep_going(true);

  coordinator::JobDispatcher dispatcher;
  coordinator::CoordinatorServer server("127.0.0.1:0", dispatcher);
  const auto address = "127.0.0.1:" + std::to_string(server.port());
  boost::process::child synthetic(boost::process::exe = "/proc/self/exe",
                                  boost::process::args = {"--agent-process", address, "--agents",
                                                          std::to_string(agents), "--slots", std::to_string(slots)});

  const auto recording = explore(address, request, 1);
  const auto fed = explore(address, request, jobs);
  fmt::print("recording: {} results from real runs in {:.2f} s\n", recording.results, recording.seconds);
  fmt::print("synthetic: {} results in {:.2f} s ({} jobs, {} agents x {} slots in another process)\n", fed.results,
             fed.seconds, jobs, agents, slots);
  fmt::print("coordinator absorbs {:.0f} results/s while jobs run ({:.0f} results/s counting the gaps between jobs)\n",
             static_cast<double>(fed.results) / fed.job_seconds, static_cast<double>(fed.results) / fed.seconds);
  fmt::print(
      "coordinator CPU: {:.2f} s, {:.1f} us per result = {:.0f} results per CPU-second; best job {:.1f} us = {:.0f} "
      "results per CPU-second (one core; target >= 20000)\n",
      fed.cpu_seconds, fed.cpu_seconds * 1e6 / static_cast<double>(fed.results),
      static_cast<double>(fed.results) / fed.cpu_seconds, fed.best_cpu_per_result * 1e6, 1 / fed.best_cpu_per_result);
  server.shutdown();
  synthetic.wait();
  return 0;
}
