// glibc's assert() failure, taken over: under an agent, a failed assert() in a CAF actor is an
// assertion failure of the step in progress (reported with its text), not a crash; recording a
// free run, the recorded step's.

#include <cerrno>
#include <cstdio>
#include <string>

#include "caf_bridge.hpp"
#include "caf_recording.hpp"
#include "real_function.hpp"

extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line,
                                           const char* function) noexcept {
  const auto detail = [&] {
    return std::string(file) + ":" + std::to_string(line) + ": " + function + ": Assertion `" + assertion + "' failed.";
  };
  if (auto* bridge = exocheck::caf_adapter::CafBridge::instance()) {
    std::fprintf(stderr, "%s: %s\n", program_invocation_short_name, detail().c_str());
    bridge->assertion_failed(detail());
  }
  // Recording a free run: the step in progress failed, then the process aborts as it would.
  if (auto* recording = exocheck::caf_adapter::CafRecording::instance()) recording->assertion_failed(detail());
  using Real = void (*)(const char*, const char*, unsigned int, const char*);
  static const auto real = exocheck::caf_adapter::real_function<Real>("__assert_fail");
  real(assertion, file, line, function);
  __builtin_unreachable();
}
