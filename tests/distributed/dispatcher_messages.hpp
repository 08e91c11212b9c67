#pragma once
// The messages the dispatcher's tests (job_dispatcher_test.cpp, job_dispatcher_reattach_test.cpp)
// send it as agents and clients would.

#include <string>
#include <vector>

#include "job_dispatcher.hpp"

namespace exocheck::coordinator::dispatcher_testing {

inline constexpr char kSha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

inline proto::SubmitRequest submission(proto::Reduction reduction = proto::REDUCTION_TRANSDPOR) {
  proto::SubmitRequest request;
  request.set_subject("/bin/subject");
  request.add_args("--workers");
  request.add_args("2");
  request.set_sha256(kSha);
  request.mutable_settings()->set_reduction(reduction);
  request.mutable_settings()->set_heuristic(proto::FIFO);
  request.mutable_settings()->set_sleep_sets(true);
  request.mutable_settings()->set_run_timeout_ms(1000);
  return request;
}

/// A new agent process: its instance is its name.
inline proto::AgentHello hello(const std::string& name, std::uint32_t slots = 1) {
  proto::AgentHello out;
  out.set_name(name);
  out.set_instance(name);
  out.set_slots(slots);
  return out;
}

inline proto::JobCheck check(std::uint64_t job_id, bool accepted, const std::string& reason = "") {
  proto::JobCheck answer;
  answer.set_job_id(job_id);
  answer.set_accepted(accepted);
  answer.set_reason(reason);
  return answer;
}

/// A report of `job` from an agent that saw `seen` leases and is (not) hungry.
inline proto::Report report(std::uint64_t job, std::uint64_t seen, bool hungry = false) {
  proto::Report out;
  out.set_job_id(job);
  out.set_leases_seen(seen);
  out.set_hungry(hungry);
  return out;
}

/// A backtrack request at the root (an empty prefix) as RaisedBacktrack carries it: serialised.
inline std::string request_for(const std::string& message, const std::string& taken) {
  proto::BacktrackRequest request;
  request.set_message(message);
  request.set_taken(taken);
  return request.SerializeAsString();
}

/// `lease` explored: `paths` paths, classes with keys (k, k) for each k in `keys`.
inline void add_done(proto::Report& out, std::uint64_t lease, std::uint64_t paths,
                     const std::vector<std::uint64_t>& keys, bool complete = true) {
  auto& done = *out.add_done();
  done.set_lease_id(lease);
  done.mutable_stats()->set_paths(paths);
  done.mutable_stats()->set_classes(keys.size());
  for (const auto key : keys) {
    done.add_class_keys(key);
    done.add_class_keys(key);
  }
  done.set_complete(complete);
}

/// A run of the class with key (cls, cls) found by `lease` on `path` (a step each), failing the
/// check `what` (its signature: runs with the same are one distinct bug).
inline void add_bug(proto::Report& out, std::uint64_t lease, const std::vector<std::string>& path, std::uint64_t cls,
                    const std::string& what = "x == <n>") {
  auto& bug = *out.add_bugs();
  bug.set_lease_id(lease);
  bug.set_class_high(cls);
  bug.set_class_low(cls);
  bug.set_status(proto::RUN_ASSERTION_FAILED);
  bug.set_detail("x == 2");
  bug.set_what(what);
  bug.mutable_trace()->mutable_result()->set_status(proto::RUN_ASSERTION_FAILED);
  bug.mutable_trace()->add_events();  // step 0
  for (const auto& id : path) {
    bug.mutable_trace()->add_prefix(id);
    bug.mutable_trace()->add_events()->set_message(id);
  }
}

/// The counts of the distinct bug `what` in `lease`'s end (after add_done).
inline void add_tally(proto::Report& out, std::uint64_t lease, std::uint64_t paths,
                      const std::vector<std::uint64_t>& keys, const std::string& what = "x == <n>") {
  for (auto& done : *out.mutable_done()) {
    if (done.lease_id() != lease) continue;
    auto& tally = *done.add_bug_tallies();
    tally.set_signature_key(std::string("RUN_ASSERTION_FAILED") + "\x1f\x1f\x1f" + what);
    tally.set_paths(paths);
    for (const auto key : keys) {
      tally.add_class_keys(key);
      tally.add_class_keys(key);
    }
  }
}

}  // namespace exocheck::coordinator::dispatcher_testing
