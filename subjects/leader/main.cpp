// leader: Peterson's leader election on a unidirectional ring (TransDPOR Section 6, SEJAP thesis
// Section 7.2, after the dCUTE study; G. L. Peterson, TOPLAS 1982, and Dolev, Klawe and Rodeh).
//
// Every node starts active with its own id as its temporary id. In each phase an active node sends
// its temporary id (One) to the next active node downstream, receives the one of the active node
// upstream (ntid), passes that on (Two) and receives the one two active nodes upstream (nntid).
// It stays active, now with ntid, if ntid is larger than both its own and nntid; otherwise it
// becomes a relay, which forwards everything. At most half the active nodes survive a phase; the
// last one receives its own One back and is the leader. It then sends Elected around the ring, and
// every node records the leader's id: each checks that it had not recorded another one, and the
// leader checks, when Elected comes back, that it holds the largest id.
//
// Messages between two nodes are not delivered in order here, and a node can be a phase behind
// its upstream neighbour: One and Two carry their phase, and an active node only receives the
// message it is waiting for; the others wait (guards) until it gets there or becomes a relay.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Start {
  static constexpr const char* type_name = "Start";
};

/// An active node's temporary id, for the next active node downstream.
struct One {
  static constexpr const char* type_name = "One";
  int phase = 0;
  int id = 0;
  void describe(exocheck::Describer& d) const { d("phase", phase)("id", id); }
};

/// The temporary id an active node received in One, passed on one active node further.
struct Two {
  static constexpr const char* type_name = "Two";
  int phase = 0;
  int id = 0;
  void describe(exocheck::Describer& d) const { d("phase", phase)("id", id); }
};

/// The leader's announcement, sent once around the ring.
struct Elected {
  static constexpr const char* type_name = "Elected";
  int node = 0;  ///< the leader's index on the ring
  int id = 0;    ///< the id it was elected with
  void describe(exocheck::Describer& d) const { d("node", node)("id", id); }
};

/// The ring as the nodes see it: filled in by Boot in the initial step, read-only afterwards.
struct Ring {
  std::vector<exocheck::ActorRef> nodes;
  int largest_id = 0;
};

class Node : public exocheck::Actor {
 public:
  Node(int index, int id, std::shared_ptr<const Ring> ring) : index_(index), id_(id), tid_(id), ring_(std::move(ring)) {
    on([this](const Start&) { start_phase(); });
    on([this](const One& m) { relay_ ? forward(m) : receive_one(m.id); });
    on([this](const Two& m) { relay_ ? forward(m) : receive_two(m.id); });
    on([this](const Elected& m) { learn(m); });
    // A node receives nothing before it starts; an active node only what its phase expects. The
    // guards read only their view of the node, so the explorer tests them on earlier states.
    guard<One>([this] { return view(); }, [](const GuardView& v, const One& m) { return v.accepts(kOne, m.phase); });
    guard<Two>([this] { return view(); }, [](const GuardView& v, const Two& m) { return v.accepts(kTwo, m.phase); });
  }

  std::string final_state() const override {
    return "node " + std::to_string(index_) + " (id " + std::to_string(id_) + "): " +
           (leader_  ? "leader"
            : relay_ ? "relay"
                     : "active") +
           ", elected " + (elected_ == 0 ? "none" : std::to_string(elected_));
  }

 private:
  enum Waiting { kNothing, kOne, kTwo };

  /// What the guards read of a node.
  struct GuardView {
    bool relay;
    Waiting waiting;
    int phase;
    bool accepts(Waiting kind, int message_phase) const { return relay || (waiting == kind && message_phase == phase); }
  };
  GuardView view() const { return {relay_, waiting_, phase_}; }

  void start_phase() {
    ++phase_;
    waiting_ = kOne;
    send(next(), One{phase_, tid_});
  }

  void receive_one(int ntid) {
    if (ntid == tid_) {  // its own id came round: every other node is a relay
      exocheck::check(elected_ == 0, final_state() + " declares itself the leader too");
      leader_ = true;
      waiting_ = kNothing;
      elected_ = tid_;
      send(next(), Elected{index_, tid_});
      return;
    }
    ntid_ = ntid;
    waiting_ = kTwo;
    send(next(), Two{phase_, ntid});
  }

  void receive_two(int nntid) {
    if (ntid_ > tid_ && ntid_ > nntid) {
      tid_ = ntid_;
      start_phase();
    } else {
      relay_ = true;
      waiting_ = kNothing;
    }
  }

  void learn(const Elected& m) {
    if (m.node == index_) {  // the announcement came round: every node has learnt of this leader
      exocheck::check(m.id == ring_->largest_id, "node " + std::to_string(index_) + " was elected with id " +
                                                     std::to_string(m.id) + ", but the largest is " +
                                                     std::to_string(ring_->largest_id));
      std::cout << "leader: node " + std::to_string(index_) + " with id " + std::to_string(m.id) + "\n" << std::flush;
      return;
    }
    exocheck::check(elected_ == 0, final_state() + ", learns that node " + std::to_string(m.node) + " (id " +
                                       std::to_string(m.id) + ") is the leader");
    elected_ = m.id;
    send(next(), m);
  }

  template <typename M>
  void forward(const M& m) {
    send(next(), m);
  }

  const exocheck::ActorRef& next() const {
    return ring_->nodes[static_cast<std::size_t>(index_ + 1) % ring_->nodes.size()];
  }

  int index_;
  int id_;
  int tid_;
  std::shared_ptr<const Ring> ring_;
  int phase_ = 0;
  Waiting waiting_ = kNothing;
  int ntid_ = 0;
  bool relay_ = false;
  bool leader_ = false;
  int elected_ = 0;  ///< the leader's id once announced, 0 before
};

/// Builds the ring in its constructor (step 0) and starts every node.
class Boot : public exocheck::Actor {
 public:
  explicit Boot(const std::vector<int>& ids) {
    auto ring = std::make_shared<Ring>();
    ring->largest_id = *std::max_element(ids.begin(), ids.end());
    for (std::size_t i = 0; i < ids.size(); ++i) ring->nodes.push_back(spawn<Node>(static_cast<int>(i), ids[i], ring));
    for (const auto& node : ring->nodes) send(node, Start{});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"leader: Peterson's leader election on a unidirectional ring (TransDPOR Section 6)"};
  int n = 4;
  std::vector<int> ids;
  app.add_option("-n,--n", n, "how many nodes on the ring (ids 1, N, 2, N-1, ... round it)")->check(CLI::Range(1, 32));
  app.add_option("--ids", ids, "the nodes' ids round the ring instead (distinct, positive)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1000000))
      ->excludes("--n");
  try {
    app.parse(argc, argv);
    if (std::set<int>(ids.begin(), ids.end()).size() != ids.size()) throw CLI::ValidationError("--ids", "not distinct");
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  // By default 1, N, 2, N-1, ...: with 4 nodes, three phases (two nodes survive the first).
  if (ids.empty()) {
    for (int low = 1, high = n; low <= high; ++low, --high) {
      ids.push_back(low);
      if (low != high) ids.push_back(high);
    }
  }
  exocheck::System system;
  system.spawn<Boot>(ids);
  return system.run();
}
