#include "exocheck/engine/options.hpp"

#include <array>
#include <utility>

namespace exocheck::engine {
namespace {

constexpr std::array<std::pair<Reduction, std::string_view>, 3> kReductions{{
    {Reduction::kExhaustive, "exhaustive"},
    {Reduction::kDpor, "dpor"},
    {Reduction::kTransDpor, "transdpor"},
}};

constexpr std::array<std::pair<Heuristic, std::string_view>, 8> kHeuristics{{
    {Heuristic::kFifo, "fifo"},
    {Heuristic::kLifo, "lifo"},
    {Heuristic::kEca, "eca"},
    {Heuristic::kLca, "lca"},
    {Heuristic::kLdm, "ldm"},
    {Heuristic::kHdm, "hdm"},
    {Heuristic::kHms, "hms"},
    {Heuristic::kSgr, "sgr"},
}};

template <typename Table, typename Value>
std::string_view lookup_name(const Table& table, Value value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <typename Value, typename Table>
std::optional<Value> lookup_value(const Table& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace

std::string_view name_of(Reduction reduction) {
  return lookup_name(kReductions, reduction);
}
std::string_view name_of(Heuristic heuristic) {
  return lookup_name(kHeuristics, heuristic);
}
std::optional<Reduction> parse_reduction(std::string_view name) {
  return lookup_value<Reduction>(kReductions, name);
}
std::optional<Heuristic> parse_heuristic(std::string_view name) {
  return lookup_value<Heuristic>(kHeuristics, name);
}

}  // namespace exocheck::engine
