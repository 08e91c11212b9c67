#include "command_checks.hpp"

#include <algorithm>
#include <cmath>

#include "exit_status.hpp"

namespace exocheck::cli {

void reject_extra_arguments(const CLI::App& command) {
  const auto extras = command.remaining();
  if (extras.empty()) return;
  throw InputError(command.get_name() + ": unexpected argument '" + extras.front() +
                   "' (options come before '--', the subject and its arguments after it; see --help)");
}

void require_subject(const SubjectCommand& subject, const std::string& command_name) {
  if (!subject.separator_given || subject.words.empty()) {
    throw InputError(command_name + ": no subject given; put it after '--', e.g. exocheck " + command_name +
                     " -- ./subject [ARGS...]");
  }
}

void reject_subject(const SubjectCommand& subject, const std::string& command_name) {
  if (subject.separator_given) throw InputError(command_name + ": takes no subject after '--'");
}

std::chrono::milliseconds timeout_from_seconds(double seconds) {
  return std::chrono::milliseconds(std::max<std::int64_t>(1, std::llround(seconds * 1000)));
}

}  // namespace exocheck::cli
