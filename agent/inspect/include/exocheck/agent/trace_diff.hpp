#pragma once
// Where two traces of one program part: the steps they share, the first step that differs, and
// the deliveries that differ after it (a failing trace against a passing one, say).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "proto/trace.pb.h"

namespace exocheck::agent {

struct TraceDifference {
  /// A delivery after the parting, with the steps it has in each trace (0: not delivered there).
  struct Delivery {
    std::string message;  ///< its label when the handler chose values (wire/delivery_label.hpp)
    std::string receiver;
    std::string type;
    std::uint32_t step_in_a = 0;
    std::uint32_t step_in_b = 0;
  };
  std::size_t same_steps = 0;                             ///< steps 1..same_steps deliver the same labels
  std::optional<std::uint32_t> parted_at;                 ///< the first step that differs; none: same schedule
  std::vector<Delivery> only_in_a, only_in_b, elsewhere;  ///< after the parting
  bool same_result = false;                               ///< same status and detail
};

TraceDifference diff_traces(const proto::TraceFile& a, const proto::TraceFile& b);

/// For people: the two runs, where they part, what differs after, how each ended.
std::string format_difference(const proto::TraceFile& a, const proto::TraceFile& b, const TraceDifference& difference);

nlohmann::ordered_json difference_json(const proto::TraceFile& a, const proto::TraceFile& b,
                                       const TraceDifference& difference);

}  // namespace exocheck::agent
