#pragma once
// The subject and its arguments: everything after the first "--" on the command line. It is cut
// off before CLI11 parses, so that the subject's own options never meet exocheck's parser.

#include <string>
#include <vector>

namespace exocheck::cli {

/// The words after "--", if there was one.
struct SubjectCommand {
  bool separator_given = false;    ///< "--" appeared on the command line
  std::vector<std::string> words;  ///< subject binary, then its arguments

  /// Splits `argv` at the first "--": returns the words before it (argv[0] included) for the
  /// option parser and stores the rest in `subject`.
  static std::vector<std::string> split(int argc, const char* const* argv, SubjectCommand& subject);
};

}  // namespace exocheck::cli
