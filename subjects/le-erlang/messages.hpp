#pragma once
// le-erlang's messages and what its nodes share (main.cpp: the nodes themselves).

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace le_erlang {

/// An Erlang process: a node and the incarnation running there (0, then 1 after a restart ...).
struct Pid {
  int node = -1;
  int inc = 0;
  bool valid() const { return node >= 0; }
  friend bool operator==(const Pid&, const Pid&) = default;
  friend std::ostream& operator<<(std::ostream& out, const Pid& p) {
    if (!p.valid()) return out << "none";
    return p.inc == 0 ? out << 'n' << p.node : out << 'n' << p.node << '(' << p.inc << ')';
  }
};

/// Carried by every node-to-node message: FIFO order per pair of nodes, and (a ghost, read by
/// the safety check only) which processes the sender knows to have crashed.
struct Link {
  int from = 0;
  int seq = 0;
  std::vector<Pid> crashes;
  Pid sender;  // ghost, --builtin-faults only: the sending process
};

struct Capture {
  static constexpr const char* type_name = "Capture";
  Link link;
  Pid candidate;
  std::vector<int> captured;
  int pos = 0;
  void describe(exocheck::Describer& d) const { d("candidate", candidate)("captured", captured); }
};
/// Sent to a process (`to`); forwarded by a captured node to its capturer unchanged.
struct Accept {
  static constexpr const char* type_name = "Accept";
  Link link;
  Pid to;
  Pid candidate;
  std::vector<int> captured;
  int pos = 0;
  void describe(exocheck::Describer& d) const { d("to", to)("candidate", candidate)("captured", captured); }
};
/// To a node by name (`to` = none) when broadcast, to a process when answered by a leader.
struct Elect {
  static constexpr const char* type_name = "Elect";
  Link link;
  Pid to;
  Pid leader;
  void describe(exocheck::Describer& d) const { d("leader", leader); }
};
struct Monitor {
  static constexpr const char* type_name = "Monitor";
  Link link;
  Pid watcher;
  int ref = 0;
  void describe(exocheck::Describer& d) const { d("watcher", watcher)("ref", ref); }
};
struct Down {
  static constexpr const char* type_name = "Down";
  Link link;
  Pid to;
  int ref = 0;
  void describe(exocheck::Describer& d) const { d("to", to)("ref", ref); }
};
struct Start {
  static constexpr const char* type_name = "Start";
};
/// To the failure injector: a process was elected.
struct Elected {
  static constexpr const char* type_name = "Elected";
  Pid leader;
  void describe(exocheck::Describer& d) const { d("leader", leader); }
};
/// Ends the process `inc` of a node (if it still runs).
struct Crash {
  static constexpr const char* type_name = "Crash";
  int inc = 0;
  void describe(exocheck::Describer& d) const { d("inc", inc); }
};
/// Sent by a crashed node to itself when it recovers: its supervisor starts a fresh process.
struct Restart {
  static constexpr const char* type_name = "Restart";
};
/// The environment's gen_leader:leader() question; answered once the node knows a leader.
struct WhoIsLeader {
  static constexpr const char* type_name = "WhoIsLeader";
};

enum class Role { kIdle, kCandidate, kCaptured, kSurrendered, kElected, kDead };

/// --builtin-faults: what a node keeps across its incarnations, as the Restart handler keeps it.
struct Disk {
  int incarnations = 0;      // processes started on the node so far
  std::vector<Pid> crashes;  // ghost: crashes the node knows of
};

void remove_one(std::vector<int>& list, int value) {  // Erlang's List -- [Value]
  const auto it = std::find(list.begin(), list.end(), value);
  if (it != list.end()) list.erase(it);
}

/// What every node knows: filled in by main once everything is spawned, read-only afterwards.
struct Cluster {
  std::vector<exocheck::ActorRef> nodes;
  exocheck::ActorRef injector;  // none without failures
  bool buggy_broadcast = true;
  bool fifo = false;
  bool recovery = true;
  bool builtin = false;        // --builtin-faults: the explorer's crashes, the runtime's monitors
  bool crash_leaders = false;  // ... a node may crash only from its election on
};

}  // namespace le_erlang
