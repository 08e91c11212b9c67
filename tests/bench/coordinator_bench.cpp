// exocheck-coordinator-bench: how many run results per second the coordinator (dispatcher +
// gRPC service, in this process) absorbs from synthetic agents that run no subject process.
// The synthetic agents answer each lease from results recorded once by real runs of the subject
// (keyed by prefix and sleep set: a deterministic subject gives the same run for the same key);
// a lease never seen before is run for real and counted as a miss.

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "coordinator_client.hpp"
#include "coordinator_server.hpp"
#include "exocheck/agent/runner.hpp"
#include "proto/coordinator.grpc.pb.h"
#include "sha256.hpp"

namespace {

using namespace exocheck;

/// Answers leases from recorded runs; runs the subject only for a key it has not seen.
class RecordedRuns {
 public:
  proto::LeaseResult answer(const proto::JobOffer& job, const proto::Lease& lease) {
    const auto key = key_of(lease.request());
    auto found = runs_.find(key);
    if (found == runs_.end()) {
      ++misses_;
      agent::RunSpec spec{job.subject(),
                          {job.args().begin(), job.args().end()},
                          lease.request(),
                          std::chrono::milliseconds(job.run_timeout_ms())};
      auto report = agent::Runner().run(spec);
      proto::LeaseResult result;
      result.mutable_events()->Assign(report.events.begin(), report.events.end());
      *result.mutable_result() = report.result;
      result.set_hello_seen(report.hello_seen);
      found = runs_.emplace(key, std::move(result)).first;
    }
    auto result = found->second;
    result.set_lease_id(lease.lease_id());
    return result;
  }
  std::size_t misses() const { return misses_; }

 private:
  static std::string key_of(const proto::RunRequest& request) {
    std::string key;
    for (const auto& id : request.prefix()) key += id + ",";
    key += "|";
    for (const auto& id : request.sleep()) key += id + ",";
    return key;
  }

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
        *answer.mutable_results()->add_results() = runs.answer(job, lease);
    }
    if (!stream->Write(answer)) break;
  }
}

struct Figures {
  std::uint64_t results = 0;
  double seconds = 0;      ///< wall clock, including each Watch's polling delay at the end of a job
  double job_seconds = 0;  ///< the coordinator's own start-to-end time of the jobs
};

/// Submits `jobs` identical explorations one after the other and waits for each.
Figures explore(const std::string& address, const proto::SubmitRequest& request, int jobs) {
  agent::CoordinatorClient client(address, std::chrono::seconds(5));
  Figures figures;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < jobs; ++i) {
    const auto last = client.watch(client.submit(request), [](const proto::JobProgress&) {});
    figures.results += last.paths() + last.sleep_blocked();
    figures.job_seconds += last.elapsed_seconds();
  }
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return figures;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"exocheck-coordinator-bench: results per second the coordinator absorbs from synthetic agents"};
  std::string subject = EXOCHECK_BIN_DIR "/pi";
  int workers = 5;
  int jobs = 50;
  std::uint32_t slots = 32;
  app.add_option("--subject", subject, "subject binary recorded once")->capture_default_str();
  app.add_option("--workers", workers, "its --workers argument")->capture_default_str();
  app.add_option("--jobs", jobs, "explorations fed from the recording")->capture_default_str();
  app.add_option("--slots", slots, "slots the synthetic agent announces")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);

  proto::SubmitRequest request;
  request.set_subject(subject);
  request.add_args("--workers");
  request.add_args(std::to_string(workers));
  request.set_sha256(agent::sha256_of_file(subject));
  request.mutable_settings()->set_reduction("dpor");
  request.mutable_settings()->set_heuristic("fifo");
  request.mutable_settings()->set_sleep_sets(true);
  request.mutable_settings()->set_keep_going(true);

  coordinator::JobDispatcher dispatcher;
  coordinator::CoordinatorServer server("127.0.0.1:0", dispatcher);
  const auto address = "127.0.0.1:" + std::to_string(server.port());
  RecordedRuns runs;
  std::jthread agent([&] { serve_synthetically(address, slots, runs); });

  const auto recording = explore(address, request, 1);
  const auto misses_while_recording = runs.misses();
  const auto fed = explore(address, request, jobs);
  fmt::print("recording: {} results from {} real runs in {:.2f} s\n", recording.results, misses_while_recording,
             recording.seconds);
  fmt::print("synthetic: {} results in {:.2f} s ({} jobs, {} runs not in the recording)\n", fed.results, fed.seconds,
             jobs, runs.misses() - misses_while_recording);
  fmt::print("coordinator absorbs {:.0f} results/s while jobs run ({:.0f} results/s counting the gaps between jobs)\n",
             static_cast<double>(fed.results) / fed.job_seconds, static_cast<double>(fed.results) / fed.seconds);
  server.shutdown();
  return 0;
}
