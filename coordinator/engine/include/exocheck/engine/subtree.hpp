#pragma once
// Parts of one exploration explored by several explorers (DESIGN.md, "Distribution"): an
// explorer gives away an open choice as a Subtree, and the explorer of that subtree sends the
// races whose backtrack point lies above its root back as BacktrackRequests for the explorer that
// owns that configuration: the one whose subtree's prefix is the longest prefix of the request's.
//
// Optimal DPOR gives away a choice with the wakeup tree below it, and its requests carry a wakeup
// sequence for the owner's tree.
//
// Every configuration has exactly one owner, so its backtrack, done, sleep and freeze sets evolve
// in one place, as they do in one explorer whose results arrive out of order. An owner keeps a
// configuration from which it gave a subtree away until that subtree is finished, so a request
// always finds it.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace exocheck::engine {

/// Optimal DPOR: one event of a wakeup sequence or tree (engine/src/wakeup_tree.hpp), by name.
struct WakeupStep {
  std::string message;
  std::string receiver;
  std::string sender;  ///< the message whose delivery earlier in the sequence sent it; empty: none
  bool tentative = false;
  std::uint32_t depth = 1;  ///< in a tree's preorder: 1 for the root's branches; in a sequence, 1
  bool chosen = false;      ///< its handler makes choices (WakeupEvent::chosen)
  bool rest = false;        ///< not a step: the rest of a sequence cut short (WakeupEvent::rest)
  bool notifies = false;    ///< WakeupEvent::notifies
};

/// The configuration reached by `prefix` and everything below it.
struct Subtree;
/// Whether `message`, asleep at `subtree`'s root, is on the monitors' lane too.
bool notifying(const Subtree& subtree, const std::string& message);

struct Subtree {
  std::uint64_t id = 0;             ///< the giving explorer's name for it (Explorer::subtree_finished)
  std::vector<std::string> prefix;  ///< message ids: the path to the subtree's root configuration
  /// (message, receiver): asleep at the subtree's root (sleep sets).
  std::vector<std::pair<std::string, std::string>> sleep;
  /// Of `sleep`, the messages on the monitors' lane too (WorkItem::sleep_notifying).
  std::vector<std::string> sleep_notifying;
  /// Sampled strategies have no tree: their "subtree" is the runs numbered first_run .. +run_count
  /// (run_count 0: to the exploration's last run).
  std::uint64_t first_run = 0;
  std::uint64_t run_count = 0;
  /// Optimal DPOR: the wakeup tree at the subtree's root, in preorder.
  std::vector<WakeupStep> wakeup;
};

/// A race (race.hpp) whose backtrack point pre(S, i) lies above the subtree that found it.
struct BacktrackRequest {
  std::vector<std::string> prefix;    ///< message ids: the path to pre(S, i)
  std::string message;                ///< the racing message m
  std::string taken;                  ///< the message the execution took at pre(S, i)
  std::vector<std::string> dpor_set;  ///< DPOR's E
  std::string minimal;                ///< TransDPOR's E; empty when E is empty
  /// Optimal DPOR: the sequence notdep(e, E).e' for the wakeup tree there (dpor_set and minimal
  /// are then empty).
  std::vector<WakeupStep> wakeup;
  /// Not a race: the deliveries of `taken`'s message with a choice of its handler made otherwise,
  /// each to be explored from there whatever the reduction (message, dpor_set and minimal empty).
  std::vector<std::string> alternatives;
  /// The delivery of `taken` there ended the run in a failure that cut it off: it covers no
  /// sequence that does not deliver it, and sleeps below no sibling (race.hpp, find_cut_off_race).
  bool cut_off = false;
};

}  // namespace exocheck::engine
