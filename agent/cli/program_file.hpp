#pragma once
// Which file a program named on the command line is, before anything of it runs.

#include <string>

namespace exocheck::cli {

/// The file `program` names as execvp would find it (on PATH when it has no '/'); itself if none.
std::string program_file(const std::string& program);

}  // namespace exocheck::cli
