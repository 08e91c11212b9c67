#pragma once
// A schedule names a delivery by its message id, and a delivery whose handler made choices
// (exocheck::choose) by its label: "<message id>?<v1>.<v2>...", the values up to the last one
// that is not 0 (the default). "0#3?1" delivers 0#3 and answers its handler's first choose with 1,
// every later one with 0; "0#3" answers them all with 0. Header only: the hook, the agent and the
// session read and write labels alike.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exocheck::wire {

inline constexpr char kChoiceMark = '?';

/// The label of `message` delivered with `values` chosen.
inline std::string delivery_label(std::string_view message, const std::vector<std::uint32_t>& values) {
  std::size_t last = values.size();
  while (last > 0 && values[last - 1] == 0) --last;
  std::string label(message);
  for (std::size_t i = 0; i < last; ++i) {
    label += i == 0 ? kChoiceMark : '.';
    label += std::to_string(values[i]);
  }
  return label;
}

/// The label of a trace's event (proto::Event: its message and its choices' values).
template <typename Event>
std::string label_of(const Event& event) {
  std::vector<std::uint32_t> values;
  for (const auto& choice : event.choices()) values.push_back(choice.value());
  return delivery_label(event.message(), values);
}

struct ParsedLabel {
  std::string_view message;
  std::vector<std::uint32_t> values;  ///< answers to the handler's choices, in order; later ones are 0
};

/// `label` split into its message id and values; nothing when the values are not numbers.
inline std::optional<ParsedLabel> parse_label(std::string_view label) {
  ParsedLabel parsed;
  const auto mark = label.find(kChoiceMark);
  parsed.message = label.substr(0, mark);
  if (mark == std::string_view::npos) return parsed;
  std::string_view rest = label.substr(mark + 1);
  for (;;) {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (error != std::errc() || end == rest.data()) return std::nullopt;
    parsed.values.push_back(value);
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    if (rest.empty()) return parsed;
    if (rest.front() != '.') return std::nullopt;
    rest.remove_prefix(1);
  }
}

/// The labels of the deliveries that differ from `values` (chosen in `ranges`) in one value only,
/// the choices after it made by default (0): each alternative a run with these choices opens.
inline std::vector<std::string> alternative_labels(std::string_view message, const std::vector<std::uint32_t>& ranges,
                                                   const std::vector<std::uint32_t>& values) {
  std::vector<std::string> labels;
  for (std::size_t j = 0; j < ranges.size() && j < values.size(); ++j) {
    std::vector<std::uint32_t> other(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(j) + 1);
    for (std::uint32_t v = 0; v < ranges[j]; ++v) {
      if (v == values[j]) continue;
      other.back() = v;
      labels.push_back(delivery_label(message, other));
    }
  }
  return labels;
}

}  // namespace exocheck::wire
