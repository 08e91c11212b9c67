#include "exocheck/check.hpp"

#include "failure_record.hpp"

#include <new>

namespace exocheck {

void check(bool condition, const std::string& what) {
  if (condition) return;
  detail::failure_record().assertion = what;
  throw AssertionFailure{what};
}

}  // namespace exocheck

namespace exocheck::detail {

// Made in place and never destroyed: a thread_local with a destructor is registered for the
// thread's exit when first used, and every run in place uses it first again (its memory is put
// back), so each run paid an allocation and an exit handler for it. What a thread's record holds
// when the thread ends (a failed check's text, at most) is not freed.
FailureRecord& failure_record() {
  alignas(FailureRecord) thread_local unsigned char storage[sizeof(FailureRecord)];
  thread_local FailureRecord* record = nullptr;
  if (record == nullptr) record = ::new (storage) FailureRecord;
  return *record;
}

}  // namespace exocheck::detail
