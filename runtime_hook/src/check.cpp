#include "exocheck/check.hpp"

#include "failure_record.hpp"

namespace exocheck {

void check(bool condition, const std::string& what) {
  if (condition) return;
  detail::failure_record().assertion = what;
  throw AssertionFailure{what};
}

}  // namespace exocheck

namespace exocheck::detail {

FailureRecord& failure_record() {
  thread_local FailureRecord record;
  return record;
}

}  // namespace exocheck::detail
