#include "schedule_prefix.hpp"

#include <algorithm>
#include <cctype>

#include "exit_status.hpp"

namespace exocheck::cli {
namespace {

bool is_number(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_actor_path(std::string_view path) {
  for (;;) {
    const auto dot = path.find('.');
    if (!is_number(path.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    path.remove_prefix(dot + 1);
  }
}

}  // namespace

bool is_message_id(std::string_view id) {
  const auto hash = id.find('#');
  if (hash == std::string_view::npos) return false;
  const auto sender = id.substr(0, hash);
  auto counter = id.substr(hash + 1);
  // A CAF program's timer (CafBridge::next_timer_id), or a blocking receive's timeout (the n-th
  // message or timeout of its receives: CafBridge::arm_receive_timeout).
  if (counter.starts_with('t') || counter.starts_with('w')) counter.remove_prefix(1);
  return (sender == "env" || is_actor_path(sender)) && is_number(counter) && counter.front() != '0';
}

std::vector<std::string> parse_prefix(std::string_view text) {
  std::vector<std::string> ids;
  if (text.empty()) return ids;
  for (;;) {
    const auto comma = text.find(',');
    const auto id = text.substr(0, comma);
    if (!is_message_id(id)) {
      throw InputError("--prefix: '" + std::string(id) +
                       "' is not a message id (expected <actor>#<n>, e.g. env#1 or 0.1#2, separated by commas)");
    }
    ids.emplace_back(id);
    if (comma == std::string_view::npos) return ids;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace exocheck::cli
