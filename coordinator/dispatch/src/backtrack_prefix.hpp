#pragma once
// The prefix of a backtrack request as agents send it (RaisedBacktrack.request: a serialised
// proto::BacktrackRequest). The coordinator needs only the prefix, to find the lease owning its
// configuration; the rest it passes on as it came, unparsed.

#include <string>
#include <string_view>
#include <vector>

namespace exocheck::coordinator {

/// Throws std::invalid_argument when `request` is not a proto::BacktrackRequest's wire form.
std::vector<std::string> backtrack_prefix(std::string_view request);

}  // namespace exocheck::coordinator
