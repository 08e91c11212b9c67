#pragma once
// JSON as the commands print and write it.

#include <string>

#include <nlohmann/json.hpp>

namespace exocheck::cli {

/// `value` indented by 2. A string that is not UTF-8 (a subject's path or arguments, which Linux
/// allows to be any bytes) gets U+FFFD for each stray byte: nlohmann::json would throw instead.
template <typename Json>
std::string json_text(const Json& value) {
  return value.dump(2, ' ', false, Json::error_handler_t::replace);
}

}  // namespace exocheck::cli
