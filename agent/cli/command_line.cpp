#include "command_line.hpp"

namespace exocheck::cli {
namespace {
std::vector<std::string>& words() {
  static std::vector<std::string> typed;
  return typed;
}
}  // namespace

void remember_command_line(int argc, char** argv) {
  words().assign(argv, argv + argc);
}

const std::vector<std::string>& command_line() {
  return words();
}

}  // namespace exocheck::cli
