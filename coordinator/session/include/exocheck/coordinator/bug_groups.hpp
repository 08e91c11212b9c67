#pragma once
// The distinct bugs of an exploration (bug_signature.hpp): each kept once, with how many paths
// and classes hit it and the trace of its shortest failing run seen (fewest steps, the first
// among equals). What is held grows with the distinct bugs, never with the paths that fail.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "exocheck/coordinator/bug_signature.hpp"
#include "exocheck/engine/class_key.hpp"
#include "proto/trace.pb.h"

namespace exocheck::coordinator {

/// A bug: its signature, counts, and a failing run's trace that `exocheck replay` reproduces.
struct Bug {
  std::uint64_t number = 0;  ///< 1, 2, ... in the order the distinct bugs were found
  proto::RunStatus status = proto::RUN_UNKNOWN;
  std::string detail;  ///< the representative run's verdict, with its ids
  /// Empty when the bug was found past the cap on traces: counted only. A trace kept always holds
  /// its run's result, and may hold no event (a CAF assert in caf_main before the first step).
  proto::TraceFile trace;
  /// RUN_NONDETERMINISTIC: the earlier completed path whose final state `trace`'s differs from.
  std::optional<proto::TraceFile> reference;
  /// The representative run's class (engine/class_key.hpp).
  engine::ClassKey key;
  /// The result it came with, counting from 1 in the order results arrived (with one worker, the
  /// path or sampled run that found it); 0 when not known (bugs an agent reported).
  std::uint64_t found_at_run = 0;
  BugSignature signature;
  std::uint64_t paths = 0;    ///< paths that failed this way
  std::uint64_t classes = 0;  ///< distinct classes among them
  /// The strategy of the run it came with (systematic, random, pct depth N, pos); "" when not known.
  std::string found_by;
  /// The representative run is a sampled one (a portfolio's randomized member). A systematic run
  /// of the same length is taken over it: after its prefix it goes in FIFO order, so its trace
  /// reads more easily and holds fewer unlikely orders for what the bug needs to try away.
  bool sampled = false;

  bool has_trace() const { return trace.has_result(); }
  /// Steps of the representative run after step 0 (0 without a trace, or without events).
  std::uint64_t steps() const {
    return trace.events_size() > 1 ? static_cast<std::uint64_t>(trace.events_size() - 1) : 0;
  }
};

/// One count of a distinct bug's paths and classes, as an explorer of a subtree hands it on.
struct BugTally {
  std::string signature_key;  ///< BugSignature::key()
  std::uint64_t paths = 0;
  std::vector<engine::ClassKey> classes;
  /// Classes counted without keys, by explorers that count them (engine::counts_classes).
  std::uint64_t counted_classes = 0;
};

class BugGroups {
 public:
  /// Groups past the first `traces` found keep no trace (the cap on saved traces).
  explicit BugGroups(std::uint64_t traces) : traces_(traces) {}

  struct Offered {
    std::size_t index = 0;
    bool added = false;    ///< a new distinct bug
    bool changed = false;  ///< `run` is now its representative (a new bug, or a shorter run)
  };
  /// A failing run: a new group for a new signature, numbered next; the group's representative
  /// when `run` has a trace and is shorter than the one held, or the group holds none and the cap
  /// allows one more. Takes `run` (moved from) when it becomes the representative.
  Offered offer(Bug& run);
  /// What offer() would make of a failing run of `steps` steps (`sampled` or not, Bug::sampled)
  /// with this signature, were it given
  /// a trace: whether the run would become a representative (`changed`), and whether it would keep
  /// the trace. A run that would do neither (a known bug's runs, most of them) needs no trace made.
  struct Wanted {
    bool changed = false;
    bool trace = false;
  };
  Wanted wanted(const std::string& signature_key, std::uint64_t steps, bool sampled = false) const;
  /// Counts failing paths of group `index` and the classes they were in: `classes` by their keys,
  /// united, and `counted_classes` more, counted without keys (engine::counts_classes).
  void count(std::size_t index, std::uint64_t paths, const std::vector<engine::ClassKey>& classes,
             std::uint64_t counted_classes = 0);
  void count(std::size_t index, std::uint64_t paths, engine::ClassKey key) {
    count(index, paths, std::vector<engine::ClassKey>{key});
  }
  /// Classes of group `index` counted without keys.
  std::uint64_t counted_classes_of(std::size_t index) const { return groups_.at(index).counted_classes; }

  std::size_t size() const { return groups_.size(); }
  bool empty() const { return groups_.empty(); }
  std::optional<std::size_t> find(const std::string& signature_key) const;
  /// Representatives, counts filled in, in the order found.
  std::vector<Bug> bugs() const;
  const Bug& at(std::size_t index) const { return groups_.at(index).bug; }
  const std::set<engine::ClassKey>& classes_of(std::size_t index) const { return groups_.at(index).classes; }
  /// Every group's counts so far, for the one who counts them all (an agent's lease's end).
  std::vector<BugTally> tallies() const;

 private:
  struct Group {
    Bug bug;
    std::set<engine::ClassKey> classes;
    std::uint64_t counted_classes = 0;
  };
  std::uint64_t traces_;
  std::uint64_t traces_held_ = 0;
  std::vector<Group> groups_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace exocheck::coordinator
