#include "subject_command.hpp"

#include <string_view>

namespace exocheck::cli {

std::vector<std::string> SubjectCommand::split(int argc, const char* const* argv, SubjectCommand& subject) {
  std::vector<std::string> before;
  int i = 0;
  for (; i < argc && std::string_view(argv[i]) != "--"; ++i) before.emplace_back(argv[i]);
  subject.separator_given = i < argc;
  for (++i; i < argc; ++i) subject.words.emplace_back(argv[i]);
  return before;
}

}  // namespace exocheck::cli
