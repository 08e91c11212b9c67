// failure-detector: Coyote's failure detector sample (microsoft/coyote, Samples/Monitors:
// FailureDetector.cs, Node.cs, Driver.cs, Safety.cs, Liveness.cs; earlier Samples/FailureDetector;
// tutorial docs/samples/actors/failure-detector.md, "a particularly hard bug to find"), ported to
// exocheck's actor API.
//
// A detector watches nodes in rounds. In each round it pings every node it still thinks alive and
// arms a timer; a node answers a ping with a pong. Once every such node has answered, the
// detector cancels the timer and rests until the next round (Coyote's Reset state, which ignores
// pongs). If the timer fires first, the detector pings the nodes that have not answered again and
// re-arms the timer; after the second attempt it declares them failed. The driver makes the nodes
// and fails them: a node halts (Coyote's HaltEvent) after answering --answers pings, and what is
// sent to it after that is lost.
//
// The bug (default variant, as in the sample): pings and pongs carry no round number, so a pong
// that arrives after its round has ended, and after the next round has begun, counts for the
// next round. The first attempt's timer fires before the node's pong is in, so the detector pings
// it again; the node answers both pings and halts; the first pong ends the round, the rest timer
// fires before the second pong arrives, and that stale pong makes the dead node look alive for
// one more round. The race is the timers against the pong, which `--timers anytime` (the default)
// explores; under `--timers quiescent` a timer fires only when every pong is in, and there is no
// bug. Which monitor sees it:
//   - PingBudget (safety; the sample's Safety monitor allows 3 unanswered pings): a failed node
//     is pinged at most 3 times before it is declared failed (1 of the round it failed in, then
//     the 2 attempts of the next). The dead node is pinged twice in round 2 before the stale pong
//     ends it, and again in round 3: "pinged 4 times after it failed". Needs 3 rounds.
//   - EveryFailureDetected (liveness; the sample's Liveness monitor, bounded): a node that failed
//     before a round began is declared failed in the end. With --rounds 2 the stale pong comes in
//     the last round, and the run ends with the dead node not declared.
//
// With --fixed, a ping carries its round, the pong echoes it, and the detector ignores a pong of
// another round.
//
// --rounds bounds the detector's rounds (the sample's never stops), so that every run ends.
// --watch has the driver monitor the nodes and report a crash to the specification monitors, for
// exocheck's `--crash N --crash-types Node`: a node may then also fail after any of its answers.
//
// Started by hand the pongs beat the timers, each node is declared failed in the round after its
// last answer, and the run prints "failure-detector: done".

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;

// Attempts per round before the nodes that did not answer are declared failed (2 in the sample).
constexpr int kAttempts = 2;
// Pings a failed node may still get: one of the round it failed in (it answered the first attempt
// and failed, and its pong came after the second attempt was sent), then the attempts of the next.
constexpr int kPingBudget = 1 + kAttempts;

// ---- What the actors tell the specification monitors.

struct Failed {
  int node = 0;
  void describe(exocheck::Describer& d) const { d("node", node); }
};
struct Pinged {
  int node = 0;
  int round = 0;
  void describe(exocheck::Describer& d) const { d("node", node)("round", round); }
};
struct RoundBegan {
  int round = 0;
  void describe(exocheck::Describer& d) const { d("round", round); }
};
struct Declared {
  int node = 0;
  void describe(exocheck::Describer& d) const { d("node", node); }
};

/// Safety: a failed node is pinged at most kPingBudget times before it is declared failed. (The
/// sample's Safety monitor counts every unanswered ping, at most 3; under unordered delivery a live
/// node may leave an older ping unanswered while it answers a newer one, so only the pings sent
/// after the failure are counted here.)
class PingBudget : public exocheck::Monitor {
 public:
  PingBudget() : Monitor("PingBudget") {
    on([this](const Failed& f) { after_.emplace(f.node, 0); });
    on([this](const Pinged& p) {
      auto it = after_.find(p.node);
      if (it == after_.end()) return;
      ++it->second;
      exocheck::check(it->second <= kPingBudget, "node " + std::to_string(p.node) + " was pinged " +
                                                     std::to_string(it->second) + " times after it failed (round " +
                                                     std::to_string(p.round) + "): at most " +
                                                     std::to_string(kPingBudget) + " before it is declared failed");
    });
  }

 private:
  std::map<int, int> after_;  // failed node -> pings sent to it since
};

/// Liveness: every failed node is declared failed in the end. A bounded detector cannot see a
/// failure in its last round, so a failed node is owed from the first round that begins after its
/// failure on; the monitor is hot while an owed node is not declared.
class EveryFailureDetected : public exocheck::Monitor {
 public:
  EveryFailureDetected() : Monitor("EveryFailureDetected") {
    on([this](const Failed& f) {
      if (declared_.count(f.node) == 0) failed_.insert(f.node);
    });
    on([this](const RoundBegan& r) {
      round_ = r.round;
      owed_.insert(failed_.begin(), failed_.end());
      update();
    });
    on([this](const Declared& d) {
      declared_.insert(d.node);  // rightly or not: a live node may be too slow
      failed_.erase(d.node);
      owed_.erase(d.node);
      update();
    });
  }

 private:
  void update() {
    if (owed_.empty()) {
      cold();
    } else {
      hot("node " + std::to_string(*owed_.begin()) + " failed before round " + std::to_string(round_) +
          " began and is not declared failed");
    }
  }

  int round_ = 0;           // the latest round begun
  std::set<int> failed_;    // failed, not declared
  std::set<int> owed_;      // failed before the latest round began, not declared
  std::set<int> declared_;  // declared failed
};

// ---- Messages.

struct Begin {};
struct Ping {
  int round = 0;  // the default detector sends it but reads nothing of the pong's
  void describe(exocheck::Describer& d) const { d("round", round); }
};
struct Pong {
  int node = 0;
  int round = 0;
  void describe(exocheck::Describer& d) const { d("node", node)("round", round); }
};
/// The detector's timer: some node did not answer this attempt in time.
struct Timeout {
  int round = 0;
  int attempt = 0;
  void describe(exocheck::Describer& d) const { d("round", round)("attempt", attempt); }
};
/// The detector's rest between rounds is over (the timer of the sample's Reset state).
struct NextRound {};

class Node : public exocheck::Actor {
 public:
  Node(int number, int answers) {
    on([this, number, answers](const Ping& p) {
      send(sender(), Pong{number, p.round});
      if (++answered_ < answers) return;
      // The last answer: the node halts, and the pings still to come are dead letters.
      exocheck::notify<PingBudget>(Failed{number});
      exocheck::notify<EveryFailureDetected>(Failed{number});
      destroy();
    });
  }

 private:
  int answered_ = 0;
};

class Detector : public exocheck::Actor {
 public:
  Detector(std::vector<exocheck::ActorRef> nodes, int rounds, bool fixed) : nodes_(std::move(nodes)), rounds_(rounds) {
    crashable(false);  // the sample fails nodes, not the detector
    for (int node = 1; node <= static_cast<int>(nodes_.size()); ++node) alive_.insert(node);
    on([this](const Begin&) { begin_round(); });
    on([this](const NextRound&) { begin_round(); });
    on([this, fixed](const Pong& p) {
      if (resting_) return;                    // the sample's Reset state ignores pongs
      if (fixed && p.round != round_) return;  // the fix: a pong of another round says nothing now
      if (alive_.count(p.node) == 0) return;
      responses_.insert(p.node);
      if (responses_.size() == alive_.size()) {
        cancel(timer_);
        end_round();
      }
    });
    on([this](const Timeout&) {
      if (responses_.size() < alive_.size() && attempt_ < kAttempts) {
        ping();  // another attempt, for the nodes that have not answered
        return;
      }
      for (int node : std::set<int>(alive_)) {
        if (responses_.count(node) != 0) continue;
        alive_.erase(node);
        declared_.push_back(node);
        // The sample sends NodeFailed to its client, the driver, which tells the liveness monitor;
        // told here, the verdict costs no message (and no ordering of it against the others).
        exocheck::notify<EveryFailureDetected>(Declared{node});
      }
      end_round();
    });
  }

  std::string final_state() const override {
    std::string text = "rounds=" + std::to_string(round_) + " declared=";
    for (int node : declared_) text += std::to_string(node) + ";";
    return text;
  }

 private:
  void begin_round() {
    ++round_;
    exocheck::notify<EveryFailureDetected>(RoundBegan{round_});
    resting_ = false;
    attempt_ = 0;
    responses_.clear();
    ping();
  }

  void ping() {
    ++attempt_;
    for (int node : alive_) {
      if (responses_.count(node) != 0) continue;
      exocheck::notify<PingBudget>(Pinged{node, round_});
      send(nodes_[node - 1], Ping{round_});
    }
    timer_ = after(10ms, Timeout{round_, attempt_});
  }

  void end_round() {
    resting_ = true;
    // The sample rests and goes on for ever (its timer ticking with no node left); bounded here.
    if (round_ < rounds_ && !alive_.empty()) after(50ms, NextRound{});
  }

  std::vector<exocheck::ActorRef> nodes_;
  int rounds_;
  int round_ = 0;
  int attempt_ = 0;
  bool resting_ = true;
  std::set<int> alive_;      // the nodes not declared failed
  std::set<int> responses_;  // the nodes that answered in this round
  std::vector<int> declared_;
  exocheck::Timer timer_;
};

/// The test harness (the sample's Driver): makes the nodes, each to halt after `answers` pongs,
/// and the detector; with `watch`, monitors the nodes to report a crash.
class Driver : public exocheck::Actor {
 public:
  Driver(int nodes, int answers, int rounds, bool fixed, bool watch) {
    crashable(false);
    std::vector<exocheck::ActorRef> refs;
    for (int i = 0; i < nodes; ++i) {
      refs.push_back(spawn<Node>(i + 1, answers));  // node k is actor 0.k
      // A crash is the one failure a node cannot report itself. Not by default: every node that
      // halts would send a Down, and their orders at the driver would multiply the classes.
      if (watch) monitor(refs.back());
    }
    send(spawn<Detector>(refs, rounds, fixed), Begin{});
    on([refs](const exocheck::Down& down) {
      if (down.reason != "crashed") return;  // a node that halted has reported itself
      for (int i = 0; i < static_cast<int>(refs.size()); ++i) {
        if (refs[i] != down.actor) continue;
        exocheck::notify<PingBudget>(Failed{i + 1});
        exocheck::notify<EveryFailureDetected>(Failed{i + 1});
      }
    });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"failure-detector: Coyote's failure detector sample (ping, timer, pong)"};
  int nodes = 1;
  int answers = 2;
  int rounds = 3;
  bool fixed = false;
  bool watch = false;
  app.add_option("--nodes", nodes, "nodes the detector watches (the sample has 2)")
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  app.add_option("--answers", answers, "pings a node answers before it halts")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  app.add_option("--rounds", rounds, "rounds of the detector")->check(CLI::Range(1, 8))->capture_default_str();
  app.add_flag("--fixed", fixed, "pings and pongs carry the round; a pong of another round is ignored");
  app.add_flag("--watch", watch, "the driver monitors the nodes and reports a crash (for --crash)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  exocheck::System system;
  system.add_monitor<PingBudget>();
  system.add_monitor<EveryFailureDetected>();
  system.spawn<Driver>(nodes, answers, rounds, fixed, watch);
  const int code = system.run();
  if (!system.controlled()) std::cout << "failure-detector: done" << std::endl;
  return code;
}
