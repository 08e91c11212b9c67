// replicated-storage: the ReplicatingStorage sample of P# and Coyote (p-org/PSharp,
// Samples/ReplicatingStorage/ReplicatingStorage.PSharpLibrary; microsoft/coyote, the test
// ReplicatingStorageTest), "a (much) simplified version" of the Azure Storage vNext extent manager
// in which Deligiannis et al., "Uncovering Bugs in Distributed Storage Systems during Testing (not
// in Production!)", FAST 2016, found a liveness bug.
//
// A NodeManager keeps --replicas StorageNodes, each holding a replica of one number. The client's
// request (a command) is forwarded by the manager to every node alive, which adds it to its data.
// Each node reports its data to the manager on a sync timer (SyncReport); the manager's repair timer
// compares the reports and sends the latest data (SyncRequest) to nodes that lag, until --replicas
// of them hold it. The Environment's failure timer fails one node (FaultInject to the node, which
// halts; NotifyFailure to the manager, which forgets the node and creates a new, empty one).
//
// The bug (the sample's, default variant): the manager takes a sync report from any node, also from
// one it has been told failed. A report the failed node sent before it halted, delivered after the
// manager forgot it, puts the dead node back into the manager's map of replicas: it counts as an up-to-
// date replica, the manager thinks there are enough and never repairs the new node. The liveness
// monitor Repaired, hot while fewer than --replicas live nodes hold the latest data, ends the run hot
// ("RUN_LIVENESS"). It needs the default `--timers anytime` (the failure timer firing while the
// report is in flight); with --forever the run never ends and the monitor stays hot for ever
// (`--liveness-bound N`). With --fixed the manager drops the reports of nodes it has forgotten (the
// fix the sample gives in a comment). A safety monitor, NoRollback, checks that a replica's data
// never goes back and is never more than the client wrote.
//
// With --crash-faults there is no failure timer: a node fails by exocheck's `--crash` and the
// manager learns of it by monitor() (a Down), as a failure detector tells it.
//
// Bounded so that every run ends (unless --forever): a node's sync timer fires --syncs times after
// it joins and after each change of its data, then stops; the manager's repair timer stops after
// --idle-repairs ticks with no news (no report changed its map, no failure) and starts again with
// news. Started by hand the timers are real, the failure rarely races a report, and the run ends
// repaired.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;

// --- what the monitors are told ---

struct Wrote {  // the client sent a command: the latest data grows by it
  long command = 0;
  void describe(exocheck::Describer& d) const { d("command", command); }
};
struct NodeUpdated {
  int node = 0;
  long before = 0;
  long after = 0;
  void describe(exocheck::Describer& d) const { d("node", node)("before", before)("after", after); }
};
struct NodeFailed {
  int node = 0;
  void describe(exocheck::Describer& d) const { d("node", node); }
};

/// Liveness: hot while fewer than `replicas` live nodes hold the latest data (all the client wrote).
class Repaired : public exocheck::Monitor {
 public:
  explicit Repaired(int replicas) : Monitor("Repaired"), replicas_(replicas) {
    on([this](const Wrote& w) {
      latest_ += w.command;
      judge();
    });
    on([this](const NodeUpdated& u) {
      data_[u.node] = u.after;
      judge();
    });
    on([this](const NodeFailed& f) {
      data_.erase(f.node);
      judge();
    });
  }

 private:
  void judge() {
    const auto held = std::count_if(data_.begin(), data_.end(), [this](const auto& n) { return n.second == latest_; });
    if (latest_ == 0 || held >= replicas_) return cold();  // nothing written: every node holds it
    hot("repairing: " + std::to_string(held) + " of " + std::to_string(replicas_) + " replicas hold " +
        std::to_string(latest_));
  }
  int replicas_;
  long latest_ = 0;
  // Live node -> its data. A node the monitor has not heard of holds 0, as every node starts: not
  // being told of new nodes keeps the manager's step that creates one independent of the nodes'.
  std::map<int, long> data_;
};

/// Safety: a replica's data never goes back (a sync must not overwrite newer data with older) and is
/// never more than the client wrote.
class NoRollback : public exocheck::Monitor {
 public:
  NoRollback() : Monitor("NoRollback") {
    on([this](const Wrote& w) { written_ += w.command; });
    on([this](const NodeUpdated& u) {
      exocheck::check(u.after >= u.before, "node " + std::to_string(u.node) + " went back from " +
                                               std::to_string(u.before) + " to " + std::to_string(u.after));
      exocheck::check(u.after <= written_, "node " + std::to_string(u.node) + " holds " + std::to_string(u.after) +
                                               ", more than the " + std::to_string(written_) + " written");
    });
  }

 private:
  long written_ = 0;
};

// --- messages ---

struct Request {
  long command = 0;
  void describe(exocheck::Describer& d) const { d("command", command); }
};
/// Manager to node; `seq` numbers the manager's messages to that node (see StorageNode).
struct Store {
  int seq = 0;
  long command = 0;
  void describe(exocheck::Describer& d) const { d("seq", seq)("command", command); }
};
struct SyncTick {};
/// `seq` numbers a node's reports: the manager keeps the newest (see StorageNode).
struct SyncReport {
  int node = 0;
  int seq = 0;
  long data = 0;
  void describe(exocheck::Describer& d) const { d("node", node)("seq", seq)("data", data); }
};
struct SyncRequest {
  int seq = 0;
  long data = 0;
  void describe(exocheck::Describer& d) const { d("seq", seq)("data", data); }
};
struct RepairTick {};
struct FailureTick {};
struct FaultInject {};
struct NotifyFailure {
  exocheck::ActorRef node;
  void describe(exocheck::Describer& d) const { d("node", node); }
};

struct Options {
  int replicas = 2;
  int syncs = 1;
  int idle_repairs = 1;
  int requests = 1;
  long command = 7;
  int victim = -1;
  bool fixed = false;
  bool forever = false;
  bool crash_faults = false;
};

class StorageNode : public exocheck::Actor {
 public:
  StorageNode(exocheck::ActorRef manager, int id, Options options) : manager_(manager), id_(id), options_(options) {
    // Only the first nodes may crash (the sample injects one fault); they say nothing, as
    // crashable(true) would win over --crash-actors.
    if (!options.crash_faults || id >= options.replicas) crashable(false);
    // A replacement reports once it is up: the manager knows nothing of it. The manager's first
    // nodes report only after a change. Under --forever the timer ticks from the start and never
    // stops, but a tick with nothing new sends nothing: a report on every tick would pile up at the
    // manager faster than it takes them, and under unordered delivery starve its other messages.
    if (id >= options.replicas) left_ = options.syncs;
    if (options.forever || left_ > 0) start();
    // P#'s inboxes are FIFO and the sample relies on it: a SyncRequest that overtook the Store sent
    // before it would have the command applied twice. The manager numbers what it sends to a node
    // and the node takes it in that order, as over a FIFO channel.
    guard<Store>([this] { return next_; }, [](int next, const Store& s) { return s.seq == next; });
    guard<SyncRequest>([this] { return next_; }, [](int next, const SyncRequest& s) { return s.seq == next; });
    on([this](const Store& s) {
      ++next_;
      update(data_ + s.command);
    });
    on([this](const SyncRequest& s) {
      ++next_;
      update(s.data);
    });
    on([this](const SyncTick&) {
      if (left_ > 0) {
        send(manager_, SyncReport{id_, ++seq_, data_});
        --left_;
      }
      if (left_ == 0 && !options_.forever) stop();
    });
    on([this](const FaultInject&) {
      exocheck::notify<Repaired>(NodeFailed{id_});
      cancel(timer_);
      destroy();
    });
  }

  std::string final_state() const override { return "data=" + std::to_string(data_); }

 private:
  void update(long data) {
    if (data == data_) return;
    const long before = data_;
    data_ = data;
    exocheck::notify<Repaired>(NodeUpdated{id_, before, data_});
    exocheck::notify<NoRollback>(NodeUpdated{id_, before, data_});
    left_ = options_.syncs;  // the manager must hear of the change
    start();
  }
  void start() {
    if (!ticking_) {
      timer_ = every(10ms, SyncTick{});
      ticking_ = true;
    }
  }
  void stop() {
    cancel(timer_);
    ticking_ = false;
  }

  exocheck::ActorRef manager_;
  int id_;
  Options options_;
  long data_ = 0;
  int next_ = 1;  // the number of the manager's next message
  int seq_ = 0;
  int left_ = 0;
  bool ticking_ = false;
  exocheck::Timer timer_;
};

class NodeManager : public exocheck::Actor {
 public:
  /// Creates the first nodes and tells the environment who they are (`roster`).
  NodeManager(Options options, std::vector<exocheck::ActorRef>* roster) : options_(options) {
    for (int i = 0; i < options_.replicas; ++i) create_node();
    *roster = nodes_;
    if (options_.forever) {
      timer_ = every(20ms, RepairTick{});
      ticking_ = true;
    }
    on([this](const Request& r) {
      for (const auto& [id, alive] : alive_) send(nodes_[id], Store{++sent_[id], r.command});
    });
    on([this](const RepairTick&) {
      repair();
      if (options_.forever || ++idle_ < options_.idle_repairs) return;
      cancel(timer_);
      ticking_ = false;
    });
    on([this](const SyncReport& r) {
      // The fix, in the sample a comment: a node forgotten since it failed is not a replica.
      if (options_.fixed && !alive_.contains(r.node)) return;
      auto [it, fresh] = data_.try_emplace(r.node, r);
      if (!fresh && it->second.seq >= r.seq) return;  // overtaken by a newer report
      it->second = r;
      news();
    });
    on([this](const NotifyFailure& f) { failed(f.node); });
    on([this](const exocheck::Down& d) { failed(d.actor); });
  }

  std::string final_state() const override {
    std::string text = "data:";
    for (const auto& [id, r] : data_) text += " " + std::to_string(id) + "=" + std::to_string(r.data);
    return text;
  }

 private:
  void create_node() {
    const int id = static_cast<int>(nodes_.size());
    nodes_.push_back(spawn<StorageNode>(self(), id, options_));
    alive_[id] = true;
    if (options_.crash_faults && id < options_.replicas) monitor(nodes_.back());  // only those may crash
  }

  /// The sample's RepairNodes: count the reports that hold the latest data, and sync lagging nodes
  /// until that count would reach the target.
  void repair() {
    if (data_.empty()) return;
    long latest = 0;
    for (const auto& [id, r] : data_) latest = std::max(latest, r.data);
    int replicas = static_cast<int>(
        std::count_if(data_.begin(), data_.end(), [latest](const auto& n) { return n.second.data == latest; }));
    if (replicas >= options_.replicas) return;
    for (const auto& [id, r] : data_) {
      if (r.data != latest) {
        send(nodes_[id], SyncRequest{++sent_[id], latest});
        ++replicas;
      }
      if (replicas == options_.replicas) break;
    }
  }

  void failed(const exocheck::ActorRef& node) {
    const int id = static_cast<int>(std::find(nodes_.begin(), nodes_.end(), node) - nodes_.begin());
    alive_.erase(id);
    data_.erase(id);
    if (options_.crash_faults) exocheck::notify<Repaired>(NodeFailed{id});  // the node cannot say so
    create_node();
    ++failures_;
    news();
  }

  /// Something changed: repair ticks until --idle-repairs of them pass with no news. Before the first
  /// failure every node is sent every command and there is nothing to repair: the timer waits.
  void news() {
    idle_ = 0;
    if (!ticking_ && failures_ > 0) {
      timer_ = every(20ms, RepairTick{});
      ticking_ = true;
    }
  }

  Options options_;
  std::vector<exocheck::ActorRef> nodes_;  // by node id, failed ones too
  std::map<int, bool> alive_;              // the sample's StorageNodeMap
  std::map<int, SyncReport> data_;         // the sample's DataMap: node id -> its latest report
  std::map<int, int> sent_;                // node id -> messages sent to it
  int failures_ = 0;
  int idle_ = 0;
  bool ticking_ = false;
  exocheck::Timer timer_;
};

class Client : public exocheck::Actor {
 public:
  Client(exocheck::ActorRef manager, Options options) {
    crashable(false);
    for (int i = 0; i < options.requests; ++i) {
      exocheck::notify<Repaired>(Wrote{options.command});
      exocheck::notify<NoRollback>(Wrote{options.command});
      send(manager, Request{options.command});
    }
  }
};

/// The sample's Environment: creates the manager and the client, and fails one node on its timer.
class Environment : public exocheck::Actor {
 public:
  explicit Environment(Options options) : victim_(options.victim) {
    crashable(false);
    manager_ = spawn<NodeManager>(options, &nodes_);
    spawn<Client>(manager_, options);
    if (options.crash_faults) return;  // the explorer's --crash fails the nodes
    after(50ms, FailureTick{});
    on([this](const FailureTick&) {
      const auto node = nodes_[victim_ >= 0 ? static_cast<std::size_t>(victim_) : exocheck::choose(nodes_.size())];
      send(node, FaultInject{});
      send(manager_, NotifyFailure{node});
    });
  }

 private:
  exocheck::ActorRef manager_;
  std::vector<exocheck::ActorRef> nodes_;  // the first nodes: one of them fails
  int victim_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "replicated-storage: Coyote's ReplicatingStorage: a manager keeps replicas of its data and repairs them"};
  Options o;
  app.add_option("--replicas", o.replicas, "storage nodes, and replicas the manager must keep")
      ->check(CLI::Range(2, 5))
      ->capture_default_str();
  app.add_option("--syncs", o.syncs, "sync reports a node sends after it joins and after each change")
      ->check(CLI::Range(1, 5))
      ->capture_default_str();
  app.add_option("--idle-repairs", o.idle_repairs, "repair ticks with no news before the repair timer stops")
      ->check(CLI::Range(1, 5))
      ->capture_default_str();
  app.add_option("--requests", o.requests, "client requests")->check(CLI::Range(0, 5))->capture_default_str();
  app.add_option("--command", o.command, "each request's command (added to the data)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--victim", o.victim, "the node the environment fails; -1: any (a choice)")
      ->check(CLI::Range(-1, 4))
      ->capture_default_str();
  app.add_flag("--fixed", o.fixed, "the manager drops sync reports of nodes it has forgotten");
  app.add_flag("--forever", o.forever, "sync and repair timers never stop: the program never ends");
  app.add_flag("--crash-faults", o.crash_faults,
               "no failure timer: nodes fail by --crash, the manager is told by Down");
  try {
    app.parse(argc, argv);
    if (o.victim >= o.replicas) throw CLI::ValidationError("--victim", "must be less than --replicas");
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.add_monitor<Repaired>(o.replicas);
  system.add_monitor<NoRollback>();
  system.spawn<Environment>(o);
  const int code = system.run();
  if (!system.controlled()) std::cout << "replicated-storage: done" << std::endl;
  return code;
}
