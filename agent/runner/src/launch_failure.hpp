#pragma once

#include <string>

namespace exocheck::agent {

/// Why a subject could not be started, as one line for people.
struct LaunchFailure {
  std::string detail;
};

}  // namespace exocheck::agent
