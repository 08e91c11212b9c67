#pragma once
// A failed check is remembered per thread as well as thrown, so that a handler that catches
// everything cannot hide it from the runtime.

#include <optional>
#include <string>

namespace exocheck::detail {

struct FailureRecord {
  std::optional<std::string> assertion;
};

FailureRecord& failure_record();

}  // namespace exocheck::detail
