#pragma once
// Runs the real exocheck binary (or any program) in a working directory and captures what it did.

#include <filesystem>
#include <string>
#include <vector>

namespace exocheck::cli_test {

/// What one finished process left behind.
struct ProcessOutput {
  int exit_code = -1;  ///< exit status, or 128 + signal when killed
  std::string out;     ///< everything written to stdout
  std::string err;     ///< everything written to stderr
};

/// Folder of the built binaries (exocheck and the subjects).
std::filesystem::path bin_dir();

/// Path of a built subject binary, e.g. subject_path("registry").
std::filesystem::path subject_path(const std::string& name);

/// Runs `program` (searched in PATH when it has no '/') with `args` in `working_dir`; collects
/// its exit code and output.
ProcessOutput run_program(const std::string& program, const std::vector<std::string>& args,
                          const std::filesystem::path& working_dir);

/// Runs `bin_dir()/exocheck` with `args` in `working_dir`; waits for it to end.
ProcessOutput run_exocheck(const std::vector<std::string>& args, const std::filesystem::path& working_dir);

/// The lines of `text`, without their '\n'.
std::vector<std::string> lines_of(const std::string& text);

/// A fresh empty folder under the system's temporary directory, removed on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  /// The folder itself.
  const std::filesystem::path& path() const { return path_; }
  /// A path inside the folder.
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace exocheck::cli_test
