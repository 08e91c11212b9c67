#pragma once
// What the tests of `exocheck record` share: free runs recorded until one fails.

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {

class Record : public ExploreTest {
 protected:
  /// The text of `file` in the test's folder; empty when it is not there.
  std::string text_of(const std::string& file) const {
    std::ifstream in(dir().path() / file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  /// Records free runs of `subject args` until one fails (at most `attempts`): its trace's path.
  std::optional<std::string> record_until_failure(const std::string& subject, const std::vector<std::string>& args,
                                                  int attempts) const {
    for (int i = 0; i < attempts; ++i) {
      std::vector<std::string> command{"record", "--json", "--out",
                                       "rec",    "--",     cli_test::subject_path(subject).string()};
      command.insert(command.end(), args.begin(), args.end());
      const auto run = exocheck(command);
      if (run.exit_code == 0) continue;
      EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
      const auto report = nlohmann::json::parse(run.out);
      EXPECT_TRUE(report.at("failed").get<bool>());
      return report.at("trace").get<std::string>();
    }
    return std::nullopt;
  }
};

}  // namespace exocheck::explore_test
