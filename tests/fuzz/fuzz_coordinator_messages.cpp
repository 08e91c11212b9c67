// libFuzzer target: what agents send the coordinator, as it takes it in. Anyone who reaches the
// coordinator's port with the token can send anything: a malformed or hostile report must be
// refused (std::invalid_argument) or ignored, never crash the coordinator that holds every job. The
// input is a sequence of frames (4-byte length, then an AgentMessage); a job is running and the
// fuzzed agent has accepted it, so that its reports reach the job's ledger. The coordinator's
// messages to agents are read the other way by agents: each frame is also read as a
// CoordinatorMessage and its offer and work taken as an agent takes them.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/coordinator/subtree_wire.hpp"
#include "exocheck/wire/frame.hpp"
#include "job_dispatcher.hpp"

namespace {

using namespace exocheck;

proto::SubmitRequest submission() {
  proto::SubmitRequest request;
  request.set_subject("/bin/subject");
  request.set_sha256(std::string(64, '0'));
  request.mutable_settings()->set_reduction(proto::REDUCTION_TRANSDPOR);
  request.mutable_settings()->set_heuristic(proto::FIFO);
  request.mutable_settings()->set_sleep_sets(true);
  request.mutable_settings()->set_keep_going(true);
  request.mutable_settings()->set_run_timeout_ms(1000);
  return request;
}

// An agent's reading of work: each lease's subtree becomes an exploration of its own, to which
// the backtrack requests routed to it go.
void as_agent_would(const proto::CoordinatorMessage& message) {
  try {
    if (message.has_offer()) (void)coordinator::options_of(message.offer());
    for (const auto& lease : message.work().leases()) {
      coordinator::ExplorationOptions options;
      coordinator::ExplorationSession session(options, coordinator::from_wire(lease.subtree()));
      for (const auto& routed : message.work().backtracks()) {
        if (routed.lease_id() == lease.lease_id())
          session.request_backtrack(coordinator::backtrack_from_bytes(routed.request()));
      }
      (void)session.next();
      (void)session.split();
      (void)session.progress();
    }
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  coordinator::JobDispatcher dispatcher;
  const auto job = dispatcher.submit(submission());
  proto::AgentHello hello;
  hello.set_name("fuzz");
  hello.set_instance("fuzz");
  hello.set_slots(2);
  const auto agent = dispatcher.attach_agent(hello);
  (void)dispatcher.work_for(agent);  // the offer
  proto::JobCheck accepted;
  accepted.set_job_id(job);
  accepted.set_accepted(true);
  dispatcher.record_check(agent, accepted);
  dispatcher.tick();
  (void)dispatcher.work_for(agent);  // the first subtree

  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  while (bytes.size() >= wire::kFrameHeaderBytes) {
    const auto length = wire::read_frame_header(bytes);
    bytes.remove_prefix(wire::kFrameHeaderBytes);
    if (length > bytes.size()) break;
    const auto payload = bytes.substr(0, length);
    bytes.remove_prefix(length);
    proto::AgentMessage message;
    if (message.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
      try {
        if (message.has_hello()) dispatcher.attach_agent(message.hello());
        if (message.has_job_check()) dispatcher.record_check(agent, message.job_check());
        if (message.has_report()) dispatcher.accept_report(agent, message.report());
      } catch (const std::invalid_argument&) {
        // Refused as malformed: the coordinator logs it and goes on.
      }
      dispatcher.tick();
      (void)dispatcher.work_for(agent);
      (void)dispatcher.progress(job);
      (void)dispatcher.figures();
    }
    proto::CoordinatorMessage answer;
    if (answer.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) as_agent_would(answer);
  }
  dispatcher.detach_agent(agent);
  dispatcher.tick();
  return 0;
}
