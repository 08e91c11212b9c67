#pragma once
// Shared set-up of the explore end-to-end tests: run `exocheck explore --json` in a scratch folder
// and read back its figures.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exocheck_process.hpp"

namespace exocheck::explore_test {

/// The figures of one exploration, read from its --json summary.
struct Figures {
  int exit_code = -1;
  std::uint64_t paths = 0;
  std::uint64_t sleep_blocked = 0;
  std::uint64_t transitions = 0;
  std::uint64_t classes = 0;
  std::uint64_t bugs = 0;             ///< distinct
  std::uint64_t bug_paths = 0;        ///< paths that failed
  std::uint64_t failing_classes = 0;  ///< the classes of those, over every distinct bug
  bool complete = false;
  nlohmann::json summary;  ///< the whole summary
};

class ExploreTest : public testing::Test {
 protected:
  /// True when the subject binary was built; tests skip otherwise.
  static bool built(const std::string& subject);

  /// `exocheck explore <options> --json --out out -- <subject> <subject_args>` in the scratch folder.
  cli_test::ProcessOutput explore(const std::vector<std::string>& options, const std::string& subject,
                                  const std::vector<std::string>& subject_args = {}) const;

  /// Like explore(), then parses the JSON summary on stdout (a test failure when it is not JSON).
  Figures figures(const std::vector<std::string>& options, const std::string& subject,
                  const std::vector<std::string>& subject_args = {}) const;

  /// Runs exocheck with exactly `args` in the scratch folder.
  cli_test::ProcessOutput exocheck(const std::vector<std::string>& args) const {
    return cli_test::run_exocheck(args, dir_.path());
  }

  /// Explores `subject` completely with TransDPOR and with exhaustive exploration (both with sleep
  /// sets, 2 workers): no bug, and `classes` classes under both. Skips when it was not built.
  void expect_correct(const std::string& subject, const std::vector<std::string>& args, std::uint64_t classes) const;

  /// Checks the first bug of `result`: its status, that its detail contains each of `details`,
  /// and that its trace replays to the same status.
  void expect_bug_replays(const Figures& result, const std::string& status,
                          const std::vector<std::string>& details) const;

  const cli_test::ScratchDir& dir() const { return dir_; }

  /// --delivery and its value for every exploration that names none (nothing: the front end's).
  std::vector<std::string> delivery_;

 private:
  cli_test::ScratchDir dir_;
};

}  // namespace exocheck::explore_test
