#include "heuristic_names.hpp"

#include <array>
#include <utility>

namespace exocheck::cli {
namespace {

struct HeuristicName {
  const char* name;
  proto::Heuristic heuristic;
  bool selectable;  // offered by --heuristic; the others only appear in traces from the coordinator
};

constexpr std::array kHeuristics = {
    HeuristicName{"fifo", proto::FIFO, true},      HeuristicName{"lifo", proto::LIFO, true},
    HeuristicName{"eca", proto::ECA, true},        HeuristicName{"lca", proto::LCA, true},
    HeuristicName{"ldm", proto::LDM, true},        HeuristicName{"hdm", proto::HDM, true},
    HeuristicName{"hms", proto::RANKED, false},    HeuristicName{"sgr", proto::RANKED, false},
    HeuristicName{"ranked", proto::RANKED, false},
};

}  // namespace

std::vector<std::string> selectable_heuristic_names() {
  std::vector<std::string> names;
  for (const auto& entry : kHeuristics) {
    if (entry.selectable) names.emplace_back(entry.name);
  }
  return names;
}

std::optional<proto::Heuristic> heuristic_from_name(const std::string& name) {
  for (const auto& entry : kHeuristics) {
    if (name == entry.name) return entry.heuristic;
  }
  return std::nullopt;
}

}  // namespace exocheck::cli
