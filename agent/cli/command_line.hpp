#pragma once
// The command line as typed, kept by main for the reports that record it (summary.json, JUnit).

#include <string>
#include <vector>

namespace exocheck::cli {

void remember_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

}  // namespace exocheck::cli
