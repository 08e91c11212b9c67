#pragma once
// The heuristic axis: which message a run tries first at each configuration once its prefix is
// used up (heuristics paper, Section 5). The hook applies the first six itself; HMS and SGR are
// learnt from earlier runs by the engine, which sends the hook its ranking with RANKED.

#include <array>
#include <string_view>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/option_table.hpp"
#include "proto/control.pb.h"

namespace exocheck::options {

struct HeuristicRow {
  std::string_view name;
  std::string_view help;
  engine::Heuristic engine;
  proto::Heuristic wire;  ///< what a submission carries
  proto::Heuristic hook;  ///< what the hook is asked to apply (RANKED for a ranking learnt from history)
};

inline constexpr std::string_view kHeuristicFlag = "--heuristic";

inline constexpr std::array<HeuristicRow, 8> kHeuristics{{
    {"fifo", "the actor whose earliest pending message was sent first", engine::Heuristic::kFifo, proto::FIFO,
     proto::FIFO},
    {"lifo", "the actor whose latest pending message was sent last", engine::Heuristic::kLifo, proto::LIFO,
     proto::LIFO},
    {"eca", "the earliest created actor", engine::Heuristic::kEca, proto::ECA, proto::ECA},
    {"lca", "the latest created actor", engine::Heuristic::kLca, proto::LCA, proto::LCA},
    {"ldm", "the actor with the fewest enabled messages", engine::Heuristic::kLdm, proto::LDM, proto::LDM},
    {"hdm", "the actor with the most enabled messages", engine::Heuristic::kHdm, proto::HDM, proto::HDM},
    {"hms", "learnt: actors that sent the most per message received first", engine::Heuristic::kHms, proto::HMS,
     proto::RANKED},
    {"sgr", "learnt: actors earlier in the send graph first", engine::Heuristic::kSgr, proto::SGR, proto::RANKED},
}};

/// True for a heuristic the hook applies on its own, without a ranking learnt from earlier runs:
/// the ones a single run (`exocheck run`) can use.
constexpr bool applied_by_hook(const HeuristicRow& row) {
  return row.hook == row.wire;
}

inline std::string_view name_of(engine::Heuristic heuristic) {
  return row_of(kHeuristics, heuristic).name;
}

inline std::optional<engine::Heuristic> parse_heuristic(std::string_view name) {
  return parse(kHeuristics, name);
}

/// What the hook is asked to apply for `heuristic`.
inline proto::Heuristic to_hook(engine::Heuristic heuristic) {
  return row_of(kHeuristics, heuristic).hook;
}

}  // namespace exocheck::options
