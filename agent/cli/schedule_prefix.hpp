#pragma once
// Schedule prefixes as users write them: message ids separated by commas.

#include <string>
#include <string_view>
#include <vector>

namespace exocheck::cli {

/// True for a message id as DESIGN.md defines it: "<actor>#<n>" with actor "env" or a spawn-tree
/// path of numbers ("0", "0.1.2") and n >= 1.
bool is_message_id(std::string_view id);

/// Splits "0#1,0.1#2" into ids; "" is the empty prefix. Throws InputError naming the bad id.
std::vector<std::string> parse_prefix(std::string_view text);

}  // namespace exocheck::cli
