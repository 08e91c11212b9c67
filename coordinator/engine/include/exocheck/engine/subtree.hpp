#pragma once
// Parts of one exploration explored by several explorers (DESIGN.md, "Distribution"): an
// explorer gives away an open choice as a Subtree, and the explorer of that subtree sends the
// races whose backtrack point lies above its root back as BacktrackRequests for the explorer that
// owns that configuration: the one whose subtree's prefix is the longest prefix of the request's.
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

/// The configuration reached by `prefix` and everything below it.
struct Subtree {
  std::uint64_t id = 0;             ///< the giving explorer's name for it (Explorer::subtree_finished)
  std::vector<std::string> prefix;  ///< message ids: the path to the subtree's root configuration
  /// (message, receiver): asleep at the subtree's root (sleep sets).
  std::vector<std::pair<std::string, std::string>> sleep;
  /// Sampled strategies have no tree: their "subtree" is the runs numbered first_run .. +run_count
  /// (run_count 0: to the exploration's last run).
  std::uint64_t first_run = 0;
  std::uint64_t run_count = 0;
};

/// A race (race.hpp) whose backtrack point pre(S, i) lies above the subtree that found it.
struct BacktrackRequest {
  std::vector<std::string> prefix;    ///< message ids: the path to pre(S, i)
  std::string message;                ///< the racing message m
  std::string taken;                  ///< the message the execution took at pre(S, i)
  std::vector<std::string> dpor_set;  ///< DPOR's E
  std::string minimal;                ///< TransDPOR's E; empty when E is empty
};

}  // namespace exocheck::engine
