#pragma once
// Shared set-up of the end-to-end tests: a scratch working folder and the built binaries.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "exocheck/wire/trace_file.hpp"
#include "exocheck_process.hpp"

namespace exocheck::cli_test {

class CliTest : public testing::Test {
 protected:
  /// True when the subject binary was built; tests skip otherwise (subjects are built separately).
  static bool built(const std::string& subject) { return std::filesystem::exists(subject_path(subject)); }

  /// Runs exocheck in the scratch folder.
  ProcessOutput exocheck(const std::vector<std::string>& args) const { return run_exocheck(args, dir_.path()); }

  /// `exocheck run [options] --out <file> -- <subject>`; returns the output, the trace is at dir()/<file>.
  ProcessOutput run_subject(const std::string& subject, const std::vector<std::string>& options,
                            const std::string& out_file) const {
    std::vector<std::string> args{"run"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--out", out_file, "--", subject_path(subject).string()});
    return exocheck(args);
  }

  /// Reads a trace file written into the scratch folder.
  proto::TraceFile trace(const std::string& file) const { return wire::read_trace_file(dir_ / file); }

  const ScratchDir& dir() const { return dir_; }

 private:
  ScratchDir dir_;
};

/// The step numbers of the timeline lines in `timeline` (lines that start with a number).
inline std::vector<unsigned> step_numbers(const std::string& timeline) {
  std::vector<unsigned> steps;
  for (const auto& line : lines_of(timeline)) {
    const auto start = line.find_first_not_of(' ');
    const auto end = line.find(' ', start);
    if (start == std::string::npos || end == std::string::npos) continue;
    const auto token = line.substr(start, end - start);
    if (token.find_first_not_of("0123456789") == std::string::npos) steps.push_back(std::stoul(token));
  }
  return steps;
}

/// The last line of `text`.
inline std::string last_line(const std::string& text) {
  const auto lines = lines_of(text);
  return lines.empty() ? std::string() : lines.back();
}

}  // namespace exocheck::cli_test
