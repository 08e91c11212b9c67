// le-erlang: the fault-tolerant leader election that Arts, Claessen and Svensson (FATES 2004)
// found buggy, as re-implemented for the TransDPOR evaluation (Section 6, "le-erlang"). This is
// a port of the capture protocol of leader3.erl (T. Arts, 2002), the algorithm of the original
// gen_leader: every node tries to capture the others; a node accepts the stronger of itself and
// a capturer (more captured nodes first, then the earlier place in the candidate list), and
// hands over the nodes it had captured; a node accepted by a majority, or by every node that is
// not down, is elected and tells everyone (elect), and a node told so surrenders. Nodes monitor
// each other as Erlang processes do; a DOWN makes a node drop the dead one and re-examine.
//
// Erlang's runtime is modelled in the node actors: a monitor is a Monitor message answered by a
// Down when the node is, or later becomes, dead (the first processes' monitors are in place from
// the start); --fifo delivers the messages between two nodes in sending order, as Erlang does.
// Failures come from a FailureInjector that crashes each newly elected leader (up to --failures
// times); a crashed node restarts (a fresh process) unless --no-recovery.
//
// --builtin-faults expresses the failures with the explorer's own faults instead (`exocheck explore
// --crash N --crash-types Node`): no injector; a node may crash after any of its steps (with
// --crash-leaders only from its election on, the injector's scenario), its supervisor makes it
// again at once (restart_as) as a fresh process of the next incarnation, which keeps on its "disk"
// what the Restart handler keeps (the incarnation count, the ghost list of known crashes); nodes
// monitor each other with the runtime's monitor() and handle its exocheck::Down; the order of the
// messages between two nodes is the explorer's `--delivery fifo` (the subject's --fifo links are
// left out: the runtime's DOWN carries no sequence number of theirs).
//
// Properties: two leaders at once (an elected node told by another node that it is elected, unless
// it knew that node had crashed when it was itself elected) fails a check; and the last node never
// learning a leader leaves the environment's WhoIsLeader question pending: a deadlock ("no leader
// elected").

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "exocheck/exocheck.hpp"
#include "messages.hpp"

namespace {

using namespace le_erlang;  // the messages.hpp types are this program's own

/// One candidate node: the Erlang process of leader3.erl plus the runtime's part (mailbox order,
/// monitors) for that node.
class Node : public exocheck::Actor {
 public:
  Node(int index, int n, std::shared_ptr<const Cluster> cluster, std::shared_ptr<Disk> disk = nullptr)
      : index_(index),
        n_(n),
        cluster_(std::move(cluster)),
        disk_(std::move(disk)),
        next_to_(static_cast<std::size_t>(n), 0),
        next_from_(static_cast<std::size_t>(n), 0) {
    if (cluster_->builtin) {
      builtin_faults();
      return;
    }
    // leader3 monitors every other node when it starts; the first processes' monitors are in
    // place from the beginning (a message to a node waits until it has started).
    for (int other = 0; other < n; ++other) {
      if (other != index_) watchers_.push_back({Pid{other, 0}, initial_ref(index_)});
    }
    on([this](const Start&) { init(); });
    on([this](const Crash& m) {
      if (!alive() || m.inc != inc_) return;
      crash();
      if (cluster_->recovery) send(self(), Restart{});
    });
    on([this](const Restart&) {
      ++inc_;
      init();
    });
    on([this](const WhoIsLeader&) {
      const std::string answer = alive() ? "leader n" + std::to_string(leadernode_) : "crashed";
      std::cout << "node " + std::to_string(index_) + ": " + answer + "\n" << std::flush;
    });
    guard<WhoIsLeader>([this](const WhoIsLeader&) {
      return alive() ? leadernode_ >= 0 : role_ == Role::kDead && !cluster_->recovery;
    });
    on_signal<Capture>([this](const Capture& m) { capture(m); });
    on_signal<Accept>([this](const Accept& m) {
      if (m.to.inc == inc_) accept(m);
    });
    on_signal<Elect>([this](const Elect& m) {
      if (!m.to.valid() || m.to.inc == inc_) elect(m);
    });
    on_signal<Monitor>([this](const Monitor& m) {
      if (alive()) {
        watchers_.push_back({m.watcher, m.ref});
      } else {
        signal(m.watcher.node, Down{{}, m.watcher, m.ref});  // a monitor of no process: DOWN at once
      }
    });
    on_signal<Down>([this](const Down& m) {
      if (m.to.inc == inc_) down(m.ref);
    });
  }

  std::string final_state() const override {
    switch (role_) {
      case Role::kIdle:
        return "idle";
      case Role::kCandidate:
        return "candidate";
      case Role::kCaptured:
        return "captured by n" + std::to_string(leader_.node);
      case Role::kSurrendered:
        return "surrendered to n" + std::to_string(leadernode_);
      case Role::kElected:
        return "elected";
      case Role::kDead:
        return "dead";
    }
    return "?";
  }

 private:
  int n() const { return n_; }
  static int initial_ref(int node) { return node + 1; }
  Pid self_pid() const { return {index_, inc_}; }
  bool alive() const { return role_ != Role::kIdle && role_ != Role::kDead; }
  int pos() const { return n() - index_; }  // leader3's position, counted from the end

  /// --builtin-faults: the same process, with the explorer's crashes and the runtime's monitors.
  /// The explorer crashes the node (after one of its steps) and, with recovery, makes it again
  /// here at once: a fresh process of the next incarnation, which knows of its predecessor's
  /// crash and starts as the Restart handler starts it. The messages pending for the node wait
  /// for it (DESIGN.md, "Faults"), the environment's WhoIsLeader too; those addressed to the old
  /// process (Accept, an answered Elect) it drops, as a message to a dead Erlang process is.
  void builtin_faults() {
    if (cluster_->recovery) restart_as<Node>(index_, n_, cluster_, disk_);
    if (cluster_->crash_leaders) crashable(false);  // until it is elected
    inc_ = disk_->incarnations++;
    heard_.assign(static_cast<std::size_t>(n_), 0);
    crashes_ = disk_->crashes;
    for (const Pid& p : crashes_) heard_after_crash(p);
    on([this](const Start&) { init(); });
    on([this](const WhoIsLeader&) {
      std::cout << "node " + std::to_string(index_) + ": leader n" + std::to_string(leadernode_) + "\n" << std::flush;
    });
    guard<WhoIsLeader>([this](const WhoIsLeader&) { return alive() && leadernode_ >= 0; });
    on_signal<Capture>([this](const Capture& m) { capture(m); });
    on_signal<Accept>([this](const Accept& m) {
      if (m.to.inc == inc_) accept(m);
    });
    on_signal<Elect>([this](const Elect& m) {
      if (!m.to.valid() || m.to.inc == inc_) elect(m);
    });
    on([this](const exocheck::Down& m) { runtime_down(m); });
    if (inc_ == 0) return;  // started by Start
    learn_crash({index_, inc_ - 1});
    init();
  }

  /// The runtime's DOWN: the process of `m.actor` that this one's monitor watched has ended. It
  /// is a process at least as recent as the latest one heard of when the monitor was asked for,
  /// so that one and all before it have crashed (the ghost learns them: a DOWN carries no list).
  void runtime_down(const exocheck::Down& m) {
    const auto node_it = std::find(cluster_->nodes.begin(), cluster_->nodes.end(), m.actor);
    if (node_it == cluster_->nodes.end()) throw std::logic_error("DOWN from an actor that is not a node");
    const int node = static_cast<int>(node_it - cluster_->nodes.begin());
    const auto it =
        std::find_if(monitored_.begin(), monitored_.end(), [node](const auto& entry) { return entry.second == node; });
    if (it == monitored_.end()) throw std::logic_error("DOWN for an unknown monitor");
    for (int inc = 0; inc <= it->first; ++inc) learn_crash({node, inc});
    nodedown(it);
    reexamine();
  }

  /// Ghost (--builtin-faults): the latest process of a node this one has heard of.
  void heard(const Pid& p) {
    if (p.valid() && heard_[static_cast<std::size_t>(p.node)] < p.inc) heard_[static_cast<std::size_t>(p.node)] = p.inc;
  }
  void heard_of(const Capture& m) { heard(m.candidate); }
  void heard_of(const Accept& m) { heard(m.candidate); }
  void heard_of(const Elect& m) { heard(m.leader); }
  template <typename M>
  void heard_of(const M&) {}

  /// Registers `handler` for node-to-node messages of type M: delivered in sending order, and
  /// (but for monitors) dropped while no process runs on this node.
  template <typename M, typename F>
  void on_signal(F handler) {
    guard<M>([this](const M& m) {
      return role_ != Role::kIdle &&
             (!cluster_->fifo || m.link.seq == next_from_[static_cast<std::size_t>(m.link.from)]);
    });
    on<M>([this, handler](const M& m) {
      ++next_from_[static_cast<std::size_t>(m.link.from)];
      for (const Pid& p : m.link.crashes) learn_crash(p);
      if (cluster_->builtin) {
        heard(m.link.sender);
        heard_of(m);
      }
      if (alive() || std::is_same_v<M, Monitor>) handler(m);
    });
  }

  template <typename M>
  void signal(int to, M message) {
    message.link = {index_, next_to_[static_cast<std::size_t>(to)]++, crashes_, cluster_->builtin ? self_pid() : Pid{}};
    send(cluster_->nodes[static_cast<std::size_t>(to)], std::move(message));
  }

  void learn_crash(const Pid& p) {
    if (std::find(crashes_.begin(), crashes_.end(), p) != crashes_.end()) return;
    crashes_.push_back(p);
    if (!disk_) return;
    disk_->crashes.push_back(p);
    heard_after_crash(p);
  }

  /// Ghost (--builtin-faults): a crashed process is replaced at once by the next, with recovery.
  void heard_after_crash(const Pid& p) {
    if (cluster_->recovery) heard({p.node, p.inc + 1});
  }

  void init() {
    role_ = Role::kCandidate;
    leader_ = {};
    leadernode_ = -1;
    captured_.clear();
    down_.clear();
    monitored_.clear();
    if (inc_ == 0 && !cluster_->builtin) {
      for (int other = 0; other < n(); ++other) {
        if (other != index_) monitored_.push_back({initial_ref(other), other});
      }
    }
    broadcast_capture();
  }

  void crash() {
    learn_crash(self_pid());  // first, so that the DOWN messages carry it
    for (const auto& [watcher, ref] : watchers_) signal(watcher.node, Down{{}, watcher, ref});
    watchers_.clear();
    role_ = Role::kDead;
    leader_ = {};
    leadernode_ = -1;
  }

  void capture(const Capture& m) {
    nodeup(m.candidate.node);
    if (role_ == Role::kCandidate) {
      if (weaker_than(m)) {
        signal(m.candidate.node, Accept{{}, m.candidate, self_pid(), captured_, pos()});
        role_ = Role::kCaptured;
        leader_ = m.candidate;
      }
    } else if (role_ == Role::kElected) {
      signal(m.candidate.node, Elect{{}, m.candidate, self_pid()});
    }
  }

  /// leader3's lexcompare: fewer captured nodes, then a later place in the candidate list.
  bool weaker_than(const Capture& m) const {
    if (captured_.size() != m.captured.size()) return captured_.size() < m.captured.size();
    return pos() < m.pos;
  }

  void accept(const Accept& m) {
    nodeup(m.candidate.node);
    if (role_ == Role::kCandidate) {
      add_captured(m.candidate.node);
      for (int c : m.captured) add_captured(c);
      check_majority();
    } else if (role_ == Role::kCaptured) {
      signal(leader_.node, Accept{{}, leader_, m.candidate, m.captured, m.pos});  // forward to the capturer
    } else if (role_ == Role::kElected) {
      signal(m.candidate.node, Elect{{}, m.candidate, self_pid()});
    }
  }

  void add_captured(int node) {
    remove_one(captured_, node);
    captured_.insert(captured_.begin(), node);
  }

  void elect(const Elect& m) {
    if (role_ == Role::kElected) {
      const bool stale =
          std::find(crashes_at_election_.begin(), crashes_at_election_.end(), m.leader) != crashes_at_election_.end();
      std::ostringstream what;
      what << "two leaders: n" << index_ << " is elected and " << m.leader << " says it is elected too";
      exocheck::check(stale, what.str());
    }
    leader_ = m.leader;
    leadernode_ = m.leader.node;
    captured_.clear();
    role_ = Role::kSurrendered;
    nodeup(m.leader.node);
  }

  void down(int ref) {
    const auto it = std::find_if(monitored_.begin(), monitored_.end(), [ref](const auto& m) { return m.first == ref; });
    if (it == monitored_.end()) throw std::logic_error("DOWN for an unknown monitor");
    nodedown(it);
    reexamine();
  }

  void reexamine() {
    if (role_ == Role::kCandidate) {
      check_majority();
    } else if ((role_ == Role::kCaptured || role_ == Role::kSurrendered) && !leader_.valid()) {
      broadcast_capture();
      check_majority();
    }
  }

  void check_majority() {
    const int accepted = static_cast<int>(captured_.size()) + 1;  // including this node
    if (2 * accepted > n() || accepted + static_cast<int>(down_.size()) == n()) {
      for (int other = 0; other < n(); ++other) {
        if (other != index_) signal(other, Elect{{}, Pid{}, self_pid()});
      }
      leader_ = self_pid();
      leadernode_ = index_;
      role_ = Role::kElected;
      crashes_at_election_ = crashes_;
      if (cluster_->injector.valid()) send(cluster_->injector, Elected{self_pid()});
      if (cluster_->crash_leaders) crashable(true);
    } else {
      role_ = Role::kCandidate;
    }
  }

  /// Monitors every node not monitored yet, then sends every node a Capture. leader3 marked its
  /// update of the down list "buggy": it starts from the list before the loop each time, so
  /// only the last newly monitored node leaves it.
  void broadcast_capture() {
    const std::vector<int> down_before = down_;
    for (int other = 0; other < n(); ++other) {
      if (other == index_ || monitoring(other)) continue;
      down_ = cluster_->buggy_broadcast ? down_before : down_;
      remove_one(down_, other);
      monitored_.push_back({watch(other), other});
    }
    for (int other = 0; other < n(); ++other) {
      if (other != index_) signal(other, Capture{{}, self_pid(), captured_, pos()});
    }
  }

  bool monitoring(int node) const {
    return std::any_of(monitored_.begin(), monitored_.end(), [node](const auto& m) { return m.second == node; });
  }

  /// Monitors `node`; returns the monitor's ref (--builtin-faults: the latest process of `node`
  /// heard of, a ghost: the runtime's DOWN names the actor only).
  int watch(int node) {
    if (cluster_->builtin) {
      monitor(cluster_->nodes[static_cast<std::size_t>(node)]);
      return heard_[static_cast<std::size_t>(node)];
    }
    signal(node, Monitor{{}, self_pid(), ++next_ref_});
    return next_ref_;
  }

  void nodeup(int node) {
    if (monitoring(node)) return;
    remove_one(down_, node);
    monitored_.push_back({watch(node), node});
  }

  void nodedown(std::vector<std::pair<int, int>>::iterator it) {
    const int node = it->second;
    monitored_.erase(it);
    remove_one(captured_, node);
    if (node == leadernode_) {
      leader_ = {};
      leadernode_ = -1;
    }
    down_.insert(down_.begin(), node);
  }

  int index_;
  int n_;
  std::shared_ptr<const Cluster> cluster_;
  std::shared_ptr<Disk> disk_;  // --builtin-faults only
  int inc_ = 0;
  Role role_ = Role::kIdle;
  Pid leader_;
  int leadernode_ = -1;
  std::vector<int> captured_;
  std::vector<int> down_;
  std::vector<std::pair<int, int>> monitored_;  // ref, node
  int next_ref_ = n_;                           // refs 1..n are the initial monitors
  std::vector<std::pair<Pid, int>> watchers_;   // the runtime's monitors of this process
  std::vector<int> next_to_;
  std::vector<int> next_from_;
  std::vector<Pid> crashes_;              // ghost: crashes this node knows of
  std::vector<Pid> crashes_at_election_;  // ghost: ... when it was last elected
  std::vector<int> heard_;                // ghost, --builtin-faults: latest incarnation heard of, by node
};

/// The test's failure scenario: crash each newly elected leader, until `failures` crashes.
class FailureInjector : public exocheck::Actor {
 public:
  FailureInjector(int failures, std::shared_ptr<const Cluster> cluster)
      : failures_(failures), cluster_(std::move(cluster)) {
    on([this](const Elected& m) {
      if (crashed_ == failures_) return;
      ++crashed_;
      send(cluster_->nodes[static_cast<std::size_t>(m.leader.node)], Crash{m.leader.inc});
    });
  }

  std::string final_state() const override { return std::to_string(crashed_) + " crashes"; }

 private:
  int failures_;
  std::shared_ptr<const Cluster> cluster_;
  int crashed_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"le-erlang: Arts et al.'s fault-tolerant leader election (leader3.erl), with node failures"};
  int nodes = 4;
  int failures = 1;
  bool no_recovery = false;
  bool fixed = false;
  bool fifo = false;
  bool builtin = false;
  bool crash_leaders = false;
  app.add_option("-n,--nodes", nodes, "candidate nodes")->check(CLI::Range(2, 6));
  auto* failures_option =
      app.add_option("--failures", failures, "leaders that crash: each newly elected leader, until this many")
          ->check(CLI::Range(0, 5));
  app.add_flag("--no-recovery", no_recovery, "crashed nodes stay down (default: each restarts)");
  auto* fifo_option = app.add_flag("--fifo", fifo, "deliver the messages between two nodes in order, as Erlang does");
  app.add_flag("--fixed", fixed, "leader3's own correction of its down-list update");
  auto* builtin_option =
      app.add_flag(
             "--builtin-faults", builtin,
             "no failure injector: nodes crash by the explorer's faults (exocheck explore --crash N --crash-types "
             "Node [--delivery fifo]), restart at once, and monitor each other with the runtime's monitors")
          ->excludes(failures_option)
          ->excludes(fifo_option);
  app.add_flag("--crash-leaders", crash_leaders,
               "with --builtin-faults: a node may crash only from its election on (the injector's scenario)")
      ->needs(builtin_option);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  auto cluster = std::make_shared<Cluster>();
  cluster->buggy_broadcast = !fixed;
  cluster->fifo = fifo;
  cluster->recovery = !no_recovery;
  cluster->builtin = builtin;
  cluster->crash_leaders = crash_leaders;
  if (builtin) {
    std::vector<std::shared_ptr<Disk>> disks;
    for (int i = 0; i < nodes; ++i) {
      disks.push_back(std::make_shared<Disk>());
      cluster->nodes.push_back(system.spawn<Node>(i, nodes, cluster, disks.back()));
    }
    for (const auto& node : cluster->nodes) system.send(node, Start{});
    system.send(cluster->nodes.back(), WhoIsLeader{});
    return system.run();
  }
  for (int i = 0; i < nodes; ++i) cluster->nodes.push_back(system.spawn<Node>(i, nodes, cluster));
  if (failures > 0) cluster->injector = system.spawn<FailureInjector>(failures, cluster);
  for (const auto& node : cluster->nodes) system.send(node, Start{});
  system.send(cluster->nodes.back(), WhoIsLeader{});
  return system.run();
}
