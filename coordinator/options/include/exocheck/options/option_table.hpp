#pragma once
// What every option table of this folder offers. An option axis (reduction, sleep sets,
// heuristic, check) is one table whose rows each hold a value's name (command line, reports,
// trace files), its help text, its engine value and its wire value; parsing, printing and wire
// conversion are lookups in it, so that a value is spelled in one place. Rows are few: lookups
// are linear.

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace exocheck::options {

/// The row named `name`, or nullptr.
template <typename Table>
const typename Table::value_type* row_named(const Table& table, std::string_view name) {
  for (const auto& row : table) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

/// The row of engine value `value`. Every engine value has a row (the tables' tests check it).
template <typename Table, typename Engine>
const typename Table::value_type& row_of(const Table& table, Engine value) {
  for (const auto& row : table) {
    if (row.engine == value) return row;
  }
  throw std::logic_error("an option table lacks a row for engine value " + std::to_string(static_cast<int>(value)));
}

/// The row of wire value `value`, or nullptr (a value this build does not know).
template <typename Table, typename Wire>
const typename Table::value_type* row_on_wire(const Table& table, Wire value) {
  for (const auto& row : table) {
    if (row.wire == value) return &row;
  }
  return nullptr;
}

/// The engine value named `name`, or nothing.
template <typename Table>
auto parse(const Table& table, std::string_view name) -> std::optional<decltype(table.front().engine)> {
  if (const auto* row = row_named(table, name)) return row->engine;
  return std::nullopt;
}

/// Every name of the table, in its order (the order help texts list them in).
template <typename Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> names;
  for (const auto& row : table) names.emplace_back(row.name);
  return names;
}

/// "name: help; name: help", for an option's help text.
template <typename Table>
std::string choices_described(const Table& table) {
  std::string text;
  for (const auto& row : table) {
    if (!text.empty()) text += "; ";
    text += std::string(row.name) + ": " + std::string(row.help);
  }
  return text;
}

}  // namespace exocheck::options
