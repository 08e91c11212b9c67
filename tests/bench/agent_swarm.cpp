// exocheck-agent-swarm: many simulated agents on one real coordinator (issue 21's second figure).
// Each simulated agent opens a stream of its own to the coordinator, as exocheck-agent does, and
// explores the subtrees it is leased with the agents' own code (SubtreeSessions: the engine, one
// session per subtree, the same reports); only its slot is simulated: each run takes a set wall
// time (--cost-ms), while the run itself is made, one after the other for every agent, by one real
// runner of the subject in this process. The coordinator is the real daemon, so what this measures
// is the coordinator: its CPU share and how many subtrees it leases a second while it feeds every
// agent, and the redundancy of splitting among that many.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "coordinator_client.hpp"
#include "decoded_execution.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/result_events.hpp"
#include "proto/coordinator.grpc.pb.h"
#include "report_gate.hpp"
#include "sha256.hpp"
#include "subtree_sessions.hpp"

namespace {

using namespace exocheck;
using Clock = std::chrono::steady_clock;
using Stream = grpc::ClientReaderWriter<proto::AgentMessage, proto::CoordinatorMessage>;

/// One simulated agent: a stream, its subtrees, one slot.
struct SimulatedAgent {
  std::string name;
  grpc::ClientContext context;
  std::unique_ptr<Stream> stream;
  std::mutex write_mutex;
  std::uint64_t seq = 0;   // the reporter's
  agent::ReportGate gate;  // the reporter's: what exocheck-agent would send
  bool busy = false;       // the slot runs a lease (the slots thread's)

  bool write(const proto::AgentMessage& message) {
    std::lock_guard lock(write_mutex);
    return stream->Write(message);
  }
  /// The job's subtrees, once the offer was accepted (set by the reader).
  std::pair<std::shared_ptr<agent::SubtreeSessions>, std::uint64_t> job() {
    std::lock_guard lock(mutex);
    return {sessions, job_id};
  }
  void take_job(std::shared_ptr<agent::SubtreeSessions> taken, std::uint64_t id) {
    std::lock_guard lock(mutex);
    sessions = std::move(taken);
    job_id = id;
  }

 private:
  std::mutex mutex;
  std::shared_ptr<agent::SubtreeSessions> sessions;
  std::uint64_t job_id = 0;
};

/// The slots of every agent, run by one thread: each run is made at once by the real runner, and
/// handed back once its set cost has passed.
class Slots {
 public:
  Slots(std::string subject, std::vector<std::string> args, std::chrono::microseconds cost)
      : subject_(std::move(subject)), args_(std::move(args)), cost_(cost) {}

  /// `agent` may have work now (a lease, a request, a notice came).
  void poke(SimulatedAgent& agent) {
    {
      std::lock_guard lock(mutex_);
      poked_.push_back(&agent);
    }
    changed_.notify_one();
  }

  void run(const std::stop_token& stop) {
    agent::Runner runner;
    runner_ = &runner;
    while (!stop.stop_requested()) {
      std::vector<SimulatedAgent*> poked;
      {
        std::unique_lock lock(mutex_);
        const auto until = due_.empty() ? Clock::now() + std::chrono::milliseconds(10) : due_.top().at;
        changed_.wait_until(lock, until, [&] { return !poked_.empty(); });
        poked.swap(poked_);
      }
      for (auto* agent : poked) {
        auto [sessions, job] = agent->job();
        if (!agent->busy && sessions) start(*agent, *sessions, sessions->next());
      }
      while (true) {
        std::optional<Due> due;
        {
          std::lock_guard lock(mutex_);
          if (due_.empty() || due_.top().at > Clock::now()) break;
          due = due_.top();
          due_.pop();
        }
        finish(*due);
      }
    }
  }

  std::uint64_t runs() const { return runs_; }

 private:
  struct Due {
    Clock::time_point at;
    SimulatedAgent* agent = nullptr;
    agent::SubtreeSessions* sessions = nullptr;
    std::uint64_t lease = 0;
    std::shared_ptr<agent::RunReport> report;
    std::shared_ptr<proto::RunRequest> request;
    std::shared_ptr<engine::Execution> lean;  // the lean run's execution, decoded
    bool operator>(const Due& other) const { return at > other.at; }
  };

  void start(SimulatedAgent& agent, agent::SubtreeSessions& sessions, std::optional<coordinator::Lease> lease) {
    if (!lease) return;
    agent.busy = true;
    agent::RunSpec spec;
    spec.binary = subject_;
    spec.args = args_;
    spec.request = std::move(lease->request);
    spec.timeout = std::chrono::seconds(10);
    spec.lean_events = &decoded_;
    auto report = std::make_shared<agent::RunReport>();
    runner_->run(spec, *report);
    ++runs_;
    Due due{Clock::now() + cost_,
            &agent,
            &sessions,
            lease->id,
            report,
            std::make_shared<proto::RunRequest>(std::move(spec.request)),
            nullptr};
    if (report->events_taken) due.lean = std::make_shared<engine::Execution>(decoded_.execution());
    std::lock_guard lock(mutex_);
    due_.push(std::move(due));
  }

  void finish(Due& due) {
    auto& sessions = *due.sessions;
    coordinator::Handover handover;
    if (due.lean) {
      handover = sessions.complete_and_next(due.lease, *due.lean, due.report->result, std::move(*due.request));
    } else {
      const auto events = coordinator::pointers_to(due.report->events);
      const auto first = wire::first_event_to_send(due.report->events, *due.request, due.report->result);
      handover = sessions.complete_and_next(due.lease, coordinator::EventSpan(events).subspan(first),
                                            due.report->result, std::move(*due.request));
    }
    due.agent->busy = false;
    start(*due.agent, sessions, std::move(handover.next));
  }

  const std::string subject_;
  const std::vector<std::string> args_;
  const std::chrono::microseconds cost_;
  agent::Runner* runner_ = nullptr;
  agent::DecodedExecution decoded_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<SimulatedAgent*> poked_;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;
  std::uint64_t runs_ = 0;
};

/// Reads one agent's stream: the offer (accepted), then work for its subtrees.
void read_stream(SimulatedAgent& agent, Slots& slots, std::mutex& urgent_mutex, std::vector<SimulatedAgent*>& urgent,
                 std::condition_variable& urgent_changed) {
  proto::CoordinatorMessage message;
  while (agent.stream->Read(&message)) {
    if (message.has_offer()) {
      const auto& offer = message.offer();
      const auto options = coordinator::options_of(offer);
      proto::AgentMessage answer;
      answer.mutable_job_check()->set_job_id(offer.job_id());
      answer.mutable_job_check()->set_accepted(true);
      agent.write(answer);
      agent.take_job(std::make_shared<agent::SubtreeSessions>(options,
                                                              [&, a = &agent] {
                                                                {
                                                                  std::lock_guard lock(urgent_mutex);
                                                                  urgent.push_back(a);
                                                                }
                                                                urgent_changed.notify_one();
                                                              }),
                     offer.job_id());
      slots.poke(agent);
    }
    auto [held, job] = agent.job();
    if (message.has_work() && held && message.work().job_id() == job) {
      held->apply(message.work());
      slots.poke(agent);
    }
  }
}

/// One report of `agent`, if it has anything to say.
void report(SimulatedAgent& agent) {
  auto [sessions, job] = agent.job();
  if (!sessions) return;
  proto::AgentMessage message;
  auto& report = *message.mutable_report();
  report.set_job_id(job);
  sessions->collect(report);
  // As exocheck-agent reports: until this gate was shared, every hungry simulated agent reported
  // every second, a quarter of what the coordinator read.
  if (!agent.gate.worth_sending(report)) return;
  report.set_seq(++agent.seq);
  agent.write(message);
}

double cpu_seconds_of(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string field;
  for (int i = 1; i <= 13 && stat >> field; ++i) {
  }
  double user = 0, system = 0;
  stat >> user >> system;
  return (user + system) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"exocheck-agent-swarm: many simulated agents, each on a stream of its own, on a real coordinator"};
  std::string address;
  int coordinator_pid = 0;
  int agents = 1000;
  double cost_ms = 100;
  std::string subject = "registry";
  int workers = 7;
  std::string reduction = "dpor";
  std::string heuristic = "lca";
  app.add_option("--coordinator", address, "the coordinator, host:port")->required();
  app.add_option("--coordinator-pid", coordinator_pid, "its process id, to read its CPU time (0: not read)");
  app.add_option("--agents", agents, "simulated agents, one stream and one slot each")->capture_default_str();
  app.add_option("--cost-ms", cost_ms, "wall time of each simulated run")->capture_default_str();
  app.add_option("--subject", subject, "subject in the build's bin folder")
      ->check(CLI::IsMember({"registry", "pi"}))
      ->capture_default_str();
  app.add_option("--workers", workers, "its --workers")->capture_default_str();
  app.add_option("--reduction", reduction)->capture_default_str();
  app.add_option("--heuristic", heuristic)->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  const std::string binary = EXOCHECK_BIN_DIR "/" + subject;
  const std::vector<std::string> args{"--workers", std::to_string(workers)};

  Slots slots(binary, args, std::chrono::microseconds(static_cast<std::int64_t>(cost_ms * 1000)));
  std::jthread slot_thread([&](std::stop_token stop) { slots.run(stop); });
  std::mutex urgent_mutex;
  std::condition_variable urgent_changed;
  std::vector<SimulatedAgent*> urgent;
  std::vector<std::unique_ptr<SimulatedAgent>> swarm;
  std::vector<std::thread> readers;
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(256 << 20);
  // A few channels (connections), many streams on each, as hundreds of hosts would not share one.
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < 8; ++i) {
    arguments.SetInt("exocheck.swarm.channel", i);  // distinct arguments: distinct connections
    channels.push_back(grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), arguments));
  }
  std::vector<std::unique_ptr<proto::AgentService::Stub>> stubs;
  for (auto& channel : channels) stubs.push_back(proto::AgentService::NewStub(channel));
  for (int i = 0; i < agents; ++i) {
    auto agent = std::make_unique<SimulatedAgent>();
    agent->name = "swarm-" + std::to_string(i);
    agent->stream = stubs[static_cast<std::size_t>(i) % stubs.size()]->Connect(&agent->context);
    proto::AgentMessage hello;
    hello.mutable_hello()->set_name(agent->name);
    // Unique per process, as an agent's is: the coordinator keeps each instance's last report
    // number, so a second swarm on the same coordinator with the same names had its reports
    // taken for ones sent again, and its job never moved (agent_swarm.sh's second subject).
    hello.mutable_hello()->set_instance(agent->name + "-" + std::to_string(::getpid()));
    hello.mutable_hello()->set_slots(1);
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    agent->write(hello);
    swarm.push_back(std::move(agent));
  }
  for (auto& agent : swarm) {
    readers.emplace_back([&, a = agent.get()] { read_stream(*a, slots, urgent_mutex, urgent, urgent_changed); });
  }
  std::jthread reporter([&](std::stop_token stop) {
    auto next_round = Clock::now();
    while (!stop.stop_requested()) {
      std::vector<SimulatedAgent*> now;
      {
        std::unique_lock lock(urgent_mutex);
        urgent_changed.wait_until(lock, next_round, [&] { return !urgent.empty() || stop.stop_requested(); });
        now.swap(urgent);
      }
      if (Clock::now() >= next_round) {
        for (auto& agent : swarm) report(*agent);
        next_round = Clock::now() + std::chrono::seconds(1);  // as exocheck-agent reports
      } else {
        for (auto* agent : now) report(*agent);
      }
    }
  });

  agent::CoordinatorClient client(address, std::chrono::seconds(10));
  proto::SubmitRequest request;
  request.set_subject(binary);
  for (const auto& arg : args) request.add_args(arg);
  request.set_sha256(agent::sha256_of_file(binary));
  request.mutable_settings()->set_reduction(options::row_named(options::kReductions, reduction)->wire);
  request.mutable_settings()->set_heuristic(options::row_named(options::kHeuristics, heuristic)->wire);
  request.mutable_settings()->set_sleep_sets(true);
  request.mutable_settings()->set_run_timeout_ms(60'000);
  const double cpu_before = coordinator_pid != 0 ? cpu_seconds_of(coordinator_pid) : 0;
  const auto job = client.submit(request);
  std::uint32_t most_agents = 0;
  const auto last = client.watch(
      job, [&](const proto::JobProgress& update) { most_agents = std::max(most_agents, update.agents()); });
  const double cpu = coordinator_pid != 0 ? cpu_seconds_of(coordinator_pid) - cpu_before : 0;
  const auto seconds = last.elapsed_seconds();
  fmt::print(
      "{} --workers {} ({}, {}), {} simulated agents of one slot, runs of {} ms: {}; {} paths, {} classes, "
      "{} real runs; {:.2f} s, {:.0f} paths/s; {} subtrees leased, {:.0f} per second; {} agents at once",
      subject, workers, reduction, heuristic, agents, cost_ms, proto::JobState_Name(last.state()), last.paths(),
      last.classes(), slots.runs(), seconds, static_cast<double>(last.paths()) / seconds, last.subtrees(),
      static_cast<double>(last.subtrees()) / seconds, most_agents);
  if (coordinator_pid != 0) {
    // Per lease: the coordinator's work is per subtree leased (its reports, splits and ends), not per path.
    fmt::print("; coordinator CPU {:.2f} s = {:.1f}% of one CPU, {:.1f} us per path, {:.0f} us per lease", cpu,
               100 * cpu / seconds, cpu * 1e6 / static_cast<double>(last.paths()),
               cpu * 1e6 / static_cast<double>(std::max<std::uint64_t>(last.subtrees(), 1)));
  }
  fmt::print("\n");
  std::fflush(stdout);
  reporter.request_stop();
  urgent_changed.notify_all();
  reporter.join();
  for (auto& agent : swarm) agent->context.TryCancel();
  for (auto& reader : readers) reader.join();
  for (auto& agent : swarm) agent->stream->Finish();
  slot_thread.request_stop();
  return last.state() == proto::JOB_COMPLETE_NO_BUG ? 0 : 1;
}
