// election: leader election with randomized election timeouts and heartbeats, as Raft has it
// (Ongaro, Ousterhout: "In Search of an Understandable Consensus Algorithm", USENIX ATC 2014,
// section 5.2 and Figure 2). Each node waits an election timeout drawn at random; a node that
// hears from no leader before it fires becomes a candidate for the next term, votes for itself and
// asks the others for their votes; a node grants its vote in a term to the first candidate that
// asks (votedFor); a candidate with the votes of a majority leads the term and sends heartbeats
// (empty AppendEntries), which keep the others from starting elections of their own.
//
// The bug (Election Safety, Figure 3: at most one leader in a term): a node that does not
// remember whom it voted for in a term grants its vote to every candidate of that term. Two
// nodes whose timeouts fire close together both stand for term 1, the third votes for both, and
// both win it (with two nodes, each forgets its vote for itself). A specification monitor
// (exocheck/monitor.hpp) that every new leader notifies checks the property. With --fixed a node
// remembers its vote (votedFor, reset only when the term changes).
//
// --judge-actor checks it as this subject did before monitors existed: a judge actor to which
// every new leader sends a message. Each such message is one more delivery to interleave with the
// rest, so the judge multiplies the classes (subjects/README.md has both counts); the monitor
// adds none, its notifications being ordered in the notifying steps.
//
// Under exploration the election timeouts are choices (exocheck::choose) and timers: with
// --timers anytime a timer may fire at any step, and two elections overlap; with --timers
// quiescent a timer fires only when no message is in flight, earliest deadline first, and the
// drawn timeouts decide who stands first, alone. Started by hand (real time), nodes that draw the
// same timeout stand together, and the bug shows in some runs.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;

struct Start {
  static constexpr const char* type_name = "Start";
  std::vector<exocheck::ActorRef> peers;
  exocheck::ActorRef judge;  ///< --judge-actor: where a new leader reports; else the monitor is notified
  void describe(exocheck::Describer& d) const { d("peers", peers)("judge", judge); }
};

struct ElectionTimeout {
  static constexpr const char* type_name = "ElectionTimeout";
  void describe(exocheck::Describer&) const {}
};

struct RequestVote {
  static constexpr const char* type_name = "RequestVote";
  std::uint64_t term = 0;
  exocheck::ActorRef candidate;
  void describe(exocheck::Describer& d) const { d("term", term)("candidate", candidate); }
};

struct Vote {
  static constexpr const char* type_name = "Vote";
  std::uint64_t term = 0;
  bool granted = false;
  void describe(exocheck::Describer& d) const { d("term", term)("granted", granted); }
};

struct AppendEntries {
  static constexpr const char* type_name = "AppendEntries";
  std::uint64_t term = 0;
  exocheck::ActorRef leader;
  void describe(exocheck::Describer& d) const { d("term", term)("leader", leader); }
};

struct HeartbeatTick {
  static constexpr const char* type_name = "HeartbeatTick";
  void describe(exocheck::Describer&) const {}
};

struct Elected {
  static constexpr const char* type_name = "Elected";
  std::uint64_t term = 0;
  exocheck::ActorRef leader;
  void describe(exocheck::Describer& d) const { d("term", term)("leader", leader); }
};

/// The leader of each term seen so far.
class LeadersByTerm {
 public:
  void check(const Elected& e) {
    const auto [leader, first] = leaders_.emplace(e.term, e.leader.id());
    exocheck::check(first || leader->second == e.leader.id(),
                    "two leaders in term " + std::to_string(e.term) + ": " + leader->second + " and " + e.leader.id());
  }

  std::string summary() const {
    std::string text;
    for (const auto& [term, leader] : leaders_) text += (text.empty() ? "" : " ") + std::to_string(term) + ":" + leader;
    return "leaders " + (text.empty() ? std::string("none") : text);
  }

 private:
  std::map<std::uint64_t, std::string> leaders_;
};

/// Election Safety: at most one leader in a term.
class OneLeaderPerTerm : public exocheck::Monitor {
 public:
  OneLeaderPerTerm() : Monitor("OneLeaderPerTerm") {
    on([this](const Elected& e) { leaders_.check(e); });
  }

 private:
  LeadersByTerm leaders_;
};

/// The same property checked by an actor of the program's own (--judge-actor).
class Judge : public exocheck::Actor {
 public:
  Judge() {
    on([this](const Elected& e) { leaders_.check(e); });
  }

  std::string final_state() const override { return leaders_.summary(); }

 private:
  LeadersByTerm leaders_;
};

struct Timing {
  int spread = 2;      ///< election timeouts drawn from 150, 200, ... ms: this many values
  int heartbeats = 1;  ///< rounds of heartbeats a leader sends after its first, 50 ms apart
};

class Node : public exocheck::Actor {
 public:
  Node(bool remembers_vote, Timing timing) : remembers_vote_(remembers_vote), timing_(timing) {
    on([this](const Start& s) {
      peers_ = s.peers;
      judge_ = s.judge;
      const auto timeout = 150ms + 50ms * static_cast<int>(exocheck::choose(static_cast<std::size_t>(timing_.spread)));
      election_ = after(timeout, ElectionTimeout{});
    });
    on([this](const ElectionTimeout&) { stand(); });
    on([this](const RequestVote& r) {
      if (r.term > term_) follow(r.term);
      const bool free = !voted_ || !remembers_vote_ || voted_for_ == r.candidate;
      const bool granted = r.term == term_ && free;
      if (granted) {
        voted_ = true;
        voted_for_ = r.candidate;
      }
      send(sender(), Vote{term_, granted});
    });
    on([this](const Vote& v) {
      if (v.term > term_) return follow(v.term);
      if (role_ != Role::kCandidate || v.term != term_ || !v.granted) return;
      if (++votes_ > (peers_.size() + 1) / 2) lead();
    });
    on([this](const AppendEntries& a) {
      if (a.term < term_ || (a.term == term_ && role_ == Role::kLeader)) return;  // a stale or rival leader
      follow(a.term);
      cancel(election_);  // a leader is alive: no election
    });
    on([this](const HeartbeatTick&) {
      if (role_ == Role::kLeader) beat();
      if (role_ != Role::kLeader || --beats_left_ <= 0) cancel(heartbeat_);
    });
  }

  std::string final_state() const override {
    static constexpr const char* kRoles[] = {"follower", "candidate", "leader"};
    return std::string(kRoles[static_cast<int>(role_)]) + " term=" + std::to_string(term_);
  }

 private:
  enum class Role { kFollower, kCandidate, kLeader };

  void stand() {
    role_ = Role::kCandidate;
    ++term_;
    voted_ = true;
    voted_for_ = self();
    votes_ = 1;
    for (const auto& peer : peers_) send(peer, RequestVote{term_, self()});
    if (votes_ > (peers_.size() + 1) / 2) lead();
  }

  void follow(std::uint64_t term) {
    if (term > term_) voted_ = false;  // a vote is for one term
    if (role_ == Role::kLeader) cancel(heartbeat_);
    term_ = term;
    role_ = Role::kFollower;
  }

  void lead() {
    role_ = Role::kLeader;
    if (judge_.valid()) {
      send(judge_, Elected{term_, self()});
    } else {
      exocheck::notify<OneLeaderPerTerm>(Elected{term_, self()});
    }
    beat();
    beats_left_ = timing_.heartbeats;
    if (beats_left_ > 0) heartbeat_ = every(50ms, HeartbeatTick{});
  }

  void beat() {
    for (const auto& peer : peers_) send(peer, AppendEntries{term_, self()});
  }

  bool remembers_vote_;
  Timing timing_;
  std::vector<exocheck::ActorRef> peers_;
  exocheck::ActorRef judge_;
  Role role_ = Role::kFollower;
  std::uint64_t term_ = 0;
  bool voted_ = false;
  exocheck::ActorRef voted_for_;
  std::size_t votes_ = 0;
  int beats_left_ = 0;
  exocheck::Timer election_;
  exocheck::Timer heartbeat_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"election: Raft's leader election, randomized election timeouts and heartbeats"};
  int nodes = 2;  // explored completely in a second; 3 nodes are more than a million classes
  Timing timing;
  bool fixed = false;
  bool judge_actor = false;
  app.add_option("--nodes", nodes, "nodes in the cluster")->check(CLI::Range(1, 7))->capture_default_str();
  app.add_option("--spread", timing.spread, "election timeouts drawn from this many values (150, 200, ... ms)")
      ->check(CLI::Range(1, 5))
      ->capture_default_str();
  app.add_option("--heartbeats", timing.heartbeats, "heartbeat rounds a leader sends after its first")
      ->check(CLI::Range(0, 5))
      ->capture_default_str();
  app.add_flag("--fixed", fixed, "a node remembers whom it voted for in a term (votedFor)");
  app.add_flag("--judge-actor", judge_actor,
               "check Election Safety in an actor that new leaders send a message to, not in a specification monitor");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  exocheck::ActorRef judge;
  if (judge_actor) {
    judge = system.spawn<Judge>();
  } else {
    system.add_monitor<OneLeaderPerTerm>();
  }
  std::vector<exocheck::ActorRef> cluster;
  for (int i = 0; i < nodes; ++i) cluster.push_back(system.spawn<Node>(fixed, timing));
  for (const auto& node : cluster) {
    std::vector<exocheck::ActorRef> peers;
    for (const auto& other : cluster) {
      if (other != node) peers.push_back(other);
    }
    system.send(node, Start{peers, judge});
  }
  const int code = system.run();
  if (!system.controlled()) std::cout << "election: done" << std::endl;
  return code;
}
