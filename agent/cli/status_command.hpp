#pragma once
// `exocheck status --coordinator ADDR`: what a coordinator holds now, its jobs with their
// progress and the agents attached, for people or (--json) for scripts.

#include <string>

#include <CLI/CLI.hpp>

#include "exocheck/link/link_settings.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::cli {

class StatusCommand {
 public:
  explicit StatusCommand(CLI::App& parent);

  bool chosen() const { return app_->parsed(); }

  /// Prints the status; returns 0. Throws InputError when the coordinator does not answer or
  /// refuses.
  int execute() const;

 private:
  CLI::App* app_;
  std::string coordinator_;
  bool json_ = false;
  link::LinkFlags link_;
};

/// The status as people read it: the coordinator, its agents, then its jobs, one line each.
std::string status_text(const std::string& address, const proto::CoordinatorStatus& status);

}  // namespace exocheck::cli
