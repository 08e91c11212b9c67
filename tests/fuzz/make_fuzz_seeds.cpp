// Writes the starting corpus of the fuzz targets that real files cannot give: well-formed control
// channel streams (what a hooked subject writes) and agent and coordinator messages (what flows on
// a cluster), each a little different, for libFuzzer to mutate from. Trace files come from real
// explorations instead (run_fuzzers.sh --seeds). Usage: make_fuzz_seeds CORPUS_DIR
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "exocheck/wire/frame.hpp"
#include "proto/control.pb.h"
#include "proto/coordinator.pb.h"

namespace {

using namespace exocheck;

void write(const std::filesystem::path& path, const std::string& bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

proto::Event event(std::uint32_t step, const std::string& actor, const std::string& message) {
  proto::Event event;
  event.set_step(step);
  event.set_actor(actor);
  event.set_message(message);
  event.set_sender("env");
  event.set_type("Set");
  event.set_summary("Set{value=1}");
  auto* clock = event.add_clock();
  clock->set_actor(actor);
  clock->set_count(step);
  auto* sent = event.add_sent();
  sent->set_id(actor + "#" + std::to_string(step + 1));
  sent->set_receiver("1");
  sent->set_type("Reply");
  event.add_enabled(message);
  return event;
}

// A hooked run's stream: hello, events 0..steps, the result; `read_size` is the first byte.
std::string control_stream(char read_size, std::uint32_t steps, proto::RunStatus status, bool fork_server) {
  std::string out(1, read_size);
  proto::HookMessage message;
  message.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  message.mutable_hello()->set_program("subject");
  message.mutable_hello()->set_pid(42);
  message.mutable_hello()->set_fork_server(fork_server);
  wire::append_frame(out, message);
  if (fork_server) {
    message.Clear();
    message.mutable_ready();
    wire::append_frame(out, message);
  }
  for (std::uint32_t step = 0; step <= steps; ++step) {
    message.Clear();
    *message.mutable_event() = event(step, step == 0 ? "env" : "0", step == 0 ? "" : "env#" + std::to_string(step));
    if (step == steps && status == proto::RUN_ASSERTION_FAILED) {
      message.mutable_event()->set_outcome(proto::STEP_ASSERTION_FAILED);
      message.mutable_event()->set_detail("x == 2");
    }
    wire::append_frame(out, message);
  }
  message.Clear();
  message.mutable_result()->set_status(status);
  message.mutable_result()->set_steps(steps);
  message.mutable_result()->set_detail(status == proto::RUN_COMPLETED ? "" : "x == 2");
  wire::append_frame(out, message);
  return out;
}

proto::Subtree subtree(std::uint64_t id) {
  proto::Subtree out;
  out.set_id(id);
  out.add_prefix("0#1");
  out.add_prefix("1#1");
  auto* sleeping = out.add_sleep();
  sleeping->set_message("2#1");
  sleeping->set_receiver("0");
  return out;
}

proto::BacktrackRequest backtrack() {
  proto::BacktrackRequest out;
  out.add_prefix("0#1");
  out.set_message("2#1");
  out.set_taken("1#1");
  out.add_dpor_set("2#1");
  out.set_minimal("2#1");
  return out;
}

// Agent messages of a job's life: its check, reports with progress, races, a bug, a split, done.
std::string agent_messages(bool with_bug) {
  std::string out;
  proto::AgentMessage message;
  message.mutable_job_check()->set_job_id(1);
  message.mutable_job_check()->set_accepted(true);
  wire::append_frame(out, message);
  message.Clear();
  auto& report = *message.mutable_report();
  report.set_job_id(1);
  report.set_seq(1);
  report.set_leases_seen(1);
  auto* progress = report.add_progress();
  progress->set_lease_id(1);
  progress->mutable_stats()->set_paths(3);
  progress->mutable_stats()->set_transitions(9);
  progress->mutable_stats()->set_classes(3);
  auto* raised = report.add_backtracks();
  raised->set_lease_id(1);
  raised->set_request(backtrack().SerializeAsString());
  auto* split = report.add_splits();
  split->set_lease_id(1);
  *split->mutable_given() = subtree(7);
  if (with_bug) {
    auto* bug = report.add_bugs();
    bug->set_lease_id(1);
    bug->set_status(proto::RUN_ASSERTION_FAILED);
    bug->set_detail("x == 2");
    bug->set_class_high(5);
    bug->set_class_low(6);
    bug->mutable_trace()->set_subject("/bin/subject");
    bug->mutable_trace()->add_prefix("0#1");
    *bug->mutable_trace()->add_events() = event(0, "env", "");
    *bug->mutable_trace()->add_events() = event(1, "0", "env#1");
  }
  wire::append_frame(out, message);
  message.Clear();
  auto& last = *message.mutable_report();
  last.set_job_id(1);
  last.set_seq(2);
  last.set_leases_seen(2);
  last.set_hungry(true);
  auto* done = last.add_done();
  done->set_lease_id(1);
  done->mutable_stats()->set_paths(6);
  done->mutable_stats()->set_classes(1);
  done->add_class_keys(5);
  done->add_class_keys(6);
  done->set_complete(true);
  done->add_warnings("dead letter 0#3 (Set to 0)");
  wire::append_frame(out, message);
  return out;
}

// What a coordinator sends an agent: the offer, then work.
std::string coordinator_messages() {
  std::string out;
  proto::CoordinatorMessage message;
  auto& offer = *message.mutable_offer();
  offer.set_job_id(1);
  offer.set_subject("/bin/subject");
  offer.add_args("--workers");
  offer.add_args("2");
  offer.set_sha256(std::string(64, '0'));
  offer.mutable_settings()->set_run_timeout_ms(1000);
  offer.mutable_settings()->set_reduction(proto::REDUCTION_DPOR);
  offer.mutable_settings()->set_heuristic(proto::LCA);
  offer.set_coordinator_instance("c");
  wire::append_frame(out, message);
  message.Clear();
  auto& work = *message.mutable_work();
  work.set_job_id(1);
  auto* lease = work.add_leases();
  lease->set_lease_id(1);
  *lease->mutable_subtree() = subtree(1);
  auto* routed = work.add_backtracks();
  routed->set_lease_id(1);
  routed->set_request(backtrack().SerializeAsString());
  work.add_split(1);
  work.set_acked_report(1);
  wire::append_frame(out, message);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_fuzz_seeds CORPUS_DIR\n";
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  write(corpus / "control_frames" / "completed-by-bytes", control_stream(1, 3, proto::RUN_COMPLETED, false));
  write(corpus / "control_frames" / "failed-by-16", control_stream(16, 2, proto::RUN_ASSERTION_FAILED, false));
  write(corpus / "control_frames" / "fork-server-deferred",
        control_stream(static_cast<char>(0x80 | 40), 4, proto::RUN_COMPLETED, true));
  write(corpus / "coordinator_messages" / "job-life", agent_messages(false));
  write(corpus / "coordinator_messages" / "job-life-with-bug", agent_messages(true));
  write(corpus / "coordinator_messages" / "offer-and-work", coordinator_messages());
  std::cout << "seeds written under " << corpus.string() << "\n";
  return 0;
}
