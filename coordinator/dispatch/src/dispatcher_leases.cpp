// JobDispatcher's leases: which agent explores which subtree. Hungry agents take what waits or
// ask the shallowest lease's agent to split; an agent gone longer than the grace has its leases
// wait again; an agent that comes back keeps what it still explores; backtrack requests go to
// the owners of their configurations.
#include <algorithm>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "exocheck/coordinator/subtree_wire.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {

// What the agent held and had not reported done waits again, to be explored anew from its root:
// the figures it reported for them so far are dropped, and what they had given away is void
// (SubtreeLedger::release), so that nothing is counted twice.
void JobDispatcher::release_leases_of(std::uint64_t worker) {
  absent_since_.erase(worker);
  Job* job = current_job();
  if (job == nullptr || !job->ledger || job->ledger->held_by(worker).empty()) return;
  record(job->id, [&](proto::JournalRecord& r) { r.set_released(instances_.at(worker)); });
  take_back(*job, job->ledger->release(worker));
}

void JobDispatcher::take_back(Job& job, const SubtreeLedger::Released& released) {
  for (const auto lease : released.waiting) {
    job.live.erase(lease);
    job.split_asked.erase(lease);
    job.routed.erase(lease);
    if (!replaying_) spdlog::warn("job {}: lease {} waits again", job.id, lease);
  }
  for (const auto& [lease, worker] : released.dropped) {
    job.live.erase(lease);
    job.split_asked.erase(lease);
    job.routed.erase(lease);
    if (!worker) continue;
    Agent* agent = agent_of_worker(*worker);
    if (agent == nullptr) continue;
    // A grant of it still in the outbox is taken back instead: the agent applies a message's
    // drops before its grants (a lease released and given back to it in one message).
    auto& leases = *outbox_of(*agent, job).mutable_leases();
    const std::uint64_t id = lease;  // clang's lambdas capture no structured binding
    const auto granted = std::find_if(leases.begin(), leases.end(), [id](const auto& l) { return l.lease_id() == id; });
    if (granted != leases.end()) {
      leases.erase(granted);
      --job.leases_sent[*worker];
    } else {
      outbox_of(*agent, job).add_drop(lease);
    }
  }
}

// An agent back on a new stream (or after a restart) keeps the subtrees it still explores; the
// requests and notices sent to them while it was away are sent again (applying them twice is
// harmless), and what it no longer holds waits again.
void JobDispatcher::reattach(Agent& agent, Job& job) {
  absent_since_.erase(agent.worker);
  const bool same_job = agent.hello.job_id() == job.id && agent.hello.coordinator_instance() == options_.instance;
  const std::set<std::uint64_t> held =
      same_job ? std::set<std::uint64_t>(agent.hello.held().begin(), agent.hello.held().end())
               : std::set<std::uint64_t>{};
  for (const auto lease : job.ledger->held_by(agent.worker)) {
    if (held.contains(lease)) continue;
    record(job.id, [&](proto::JournalRecord& r) { r.set_released_lease(lease); });
    take_back(job, job.ledger->release_lease(lease));
  }
  // An agent that holds nothing of the job is sent nothing here: an empty message was a write
  // for every agent at every job's start.
  auto& work = !held.empty() || job.stopped ? outbox_of(agent, job) : unsent(agent, job);
  job.backtracks_sent[agent.worker] = same_job ? agent.hello.backtracks_seen() : 0;
  for (const auto lease : held) {
    if (job.ledger->worker_of(lease) != agent.worker) {
      work.add_drop(lease);
      continue;
    }
    if (const auto routed = job.routed.find(lease); routed != job.routed.end() && !routed->second.empty()) {
      job.numbered_leases[agent.worker].insert(lease);
    }
    for (auto& routed : job.routed[lease]) {
      routed.sent_as = ++job.backtracks_sent[agent.worker];
      ++job.numbered[agent.worker];
      auto& sent = *work.add_backtracks();
      sent.set_lease_id(lease);
      sent.set_request(routed.request);
    }
    for (const auto& notice : job.ledger->finished_children(lease)) {
      auto& finished = *work.add_finished();
      finished.set_lease_id(notice.lease);
      finished.set_subtree_id(notice.subtree_id);
    }
  }
  job.leases_sent[agent.worker] = same_job ? agent.hello.leases_seen() : 0;
  if (job.stopped) work.set_stop(true);
}

void JobDispatcher::apply_split(Job& job, const proto::SplitAnswer& split) {
  job.split_asked.erase(split.lease_id());
  if (!split.has_given()) {
    job.ledger->nothing_to_split(split.lease_id());
    return;
  }
  auto given = from_wire(split.given());  // read first: a malformed subtree is neither journaled nor leased
  record(job.id, [&](proto::JournalRecord& r) { *r.mutable_split() = split; });
  job.ledger->split_off(split.lease_id(), std::move(given));
}

void JobDispatcher::route(Job& job, proto::RoutedBacktrack routed) {
  ++backtracks_routed_;
  auto& kept = job.routed[routed.lease_id()].emplace_back(RoutedRequest{0, routed.request()});
  const auto worker = job.ledger->worker_of(routed.lease_id());
  Agent* agent = worker ? agent_of_worker(*worker) : nullptr;
  if (agent == nullptr) return;
  kept.sent_as = ++job.backtracks_sent[agent->worker];
  ++job.numbered[agent->worker];
  job.numbered_leases[agent->worker].insert(routed.lease_id());
  auto& outbox = outbox_when_due(*agent, job);
  *outbox.add_backtracks() = std::move(routed);
  if (outbox.backtracks_size() >= kRoutedPerWrite) poke(*agent);
}

void JobDispatcher::forget_routed(std::deque<RoutedRequest>& requests, std::uint64_t count) {
  requests.erase(requests.begin(),
                 requests.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(count, requests.size())));
}

// The root lease of an optimal exploration lives as long as its job and is sent a request for
// most paths explored below it (180,000 in 40 s of minesweeper over two agents): kept until the
// job's end, they held most of the coordinator's 4 GB. Once its agent has them, they are its
// explorer's; an agent that comes back has them still, and one that does not gives its leases
// back, to be explored anew from their roots.
void JobDispatcher::forget_delivered(Job& job, std::uint64_t worker, std::uint64_t backtracks_seen) {
  // Every report ends here, and the scan is over the leases numbered for the agent: not again when
  // nothing changed since the last one (the same count received, no request numbered since).
  const Forgotten now{backtracks_seen, job.numbered[worker]};
  auto& last = job.forgotten[worker];
  if (last == now) return;
  last = now;
  // Only the leases whose requests were numbered for this agent: scanning every lease with
  // requests at every report was a sixteenth of the coordinator's CPU at a thousand agents.
  auto& numbered = job.numbered_leases[worker];
  for (auto next = numbered.begin(); next != numbered.end();) {
    const auto lease = *next;
    const auto found = job.routed.find(lease);
    if (found == job.routed.end() || found->second.empty() || job.ledger->worker_of(lease) != worker) {
      next = numbered.erase(next);  // finished, released, or all forgotten: numbered anew if routed again
      continue;
    }
    ++next;
    auto& requests = found->second;
    std::uint64_t count = 0;
    while (count < requests.size() && requests[count].sent_as != 0 && requests[count].sent_as <= backtracks_seen) {
      ++count;
    }
    if (count == 0) continue;
    record(job.id, [&](proto::JournalRecord& r) {
      r.mutable_delivered()->set_lease_id(lease);
      r.mutable_delivered()->set_count(count);
    });
    forget_routed(requests, count);
  }
}

// Hungry agents, up to date with the leases sent to them, take what waits; for those left
// hungry, the shallowest leases are asked to split, one per hungry agent. Every report that moves
// what this looks at ends here: with hundreds of agents, most of them hungry while nothing waits,
// looking at each hungry agent to ask one more split was a seventh of the coordinator's CPU. So
// agents are looked at only while something waits for them, and splits are asked by count.
void JobDispatcher::balance(Job& job) {
  if (job.stopped || job.state != proto::JOB_RUNNING) return;
  feed_hungry(job);
  ask_splits(job);
}

void JobDispatcher::feed_hungry(Job& job) {
  for (auto next = hungry_.begin(); next != hungry_.end() && job.ledger->waiting() > 0;) {
    Agent& agent = agents_.at(*next++);  // set_hungry(false) below erases it
    auto& sent = job.leases_sent[agent.worker];
    if (agent.accepted_job != job.id || agent.leases_seen != sent) continue;
    auto taken = job.ledger->take(agent.worker);
    if (!taken) return;
    record(job.id, [&](proto::JournalRecord& r) { r.set_taken(instances_.at(agent.worker)); });
    auto& lease = *outbox_of(agent, job).add_leases();
    lease.set_lease_id(taken->lease);
    to_wire(taken->subtree, *lease.mutable_subtree());
    ++sent;
    set_hungry(agent, false);
  }
}

// One split asked per hungry agent left unfed. Every agent in hungry_ has accepted this job and
// seen the leases sent to it: its hunger is set only then (accept_report, record_check), and
// dropped when a job starts. While something waits, none was fed: none is asked for.
void JobDispatcher::ask_splits(Job& job) {
  if (job.ledger->waiting() > 0) return;
  // Not of an agent away. An agent asked answers once it has something to give
  // (SubtreeSessions::split), so one ask per hungry agent is out at a time, and a busy agent with
  // one slot idle (nothing open yet) is asked too: it answers as soon as it has.
  const auto may_ask = [&](std::uint64_t lease) {
    const auto worker = job.ledger->worker_of(lease);
    return worker && agent_of_worker(*worker) != nullptr;
  };
  while (job.split_asked.size() < hungry_.size() && job.ledger->splittable()) {
    const auto lease = job.ledger->lease_to_split(may_ask);
    if (!lease) return;
    job.split_asked.insert(*lease);
    outbox_of(*agent_of_worker(*job.ledger->worker_of(*lease)), job).add_split(*lease);
  }
}

proto::Work& JobDispatcher::outbox_of(Agent& agent, const Job& job) {
  poke(agent);  // what is put in it goes out at once
  return unsent(agent, job);
}

// Backtrack requests and the ends of subtrees an agent gave away add to what its explorers hold;
// an agent whose slots are all busy (not hungry) takes them with its next message (a split asked,
// a lease, the answer to its next report), a second later at most (kOwedAtMost). Each sent alone
// was a write: a thousand agents were sent five messages per lease.
proto::Work& JobDispatcher::outbox_when_due(Agent& agent, const Job& job) {
  if (agent.hungry) {
    poke(agent);
  } else {
    owe(agent);
  }
  return unsent(agent, job);
}

proto::Work& JobDispatcher::unsent(Agent& agent, const Job& job) {
  if (!agent.outbox) {
    agent.outbox.emplace();
    agent.outbox->set_job_id(job.id);
  }
  return *agent.outbox;
}

}  // namespace exocheck::coordinator
