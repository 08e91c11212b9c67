#pragma once
// `explore --junit FILE`: the exploration as JUnit XML, which CI servers (Jenkins, GitLab) show as
// tests: one test case per explored subject and check, a failure per bug with its replay command.

#include <string>

#include "explore_report.hpp"

namespace exocheck::cli {

std::string junit_xml(const ExploreSettings& settings, const ExploreOutcome& outcome);

}  // namespace exocheck::cli
