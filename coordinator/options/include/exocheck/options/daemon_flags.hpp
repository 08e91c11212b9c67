#pragma once
// What every exocheck daemon offers on its command line besides its own options: --version, and
// how it logs (--log-level, --log-format text|json for log collectors).

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace exocheck::options {

struct LogSettings {
  std::string level = "info";
  std::string format = "text";
};

/// --version: prints "PROGRAM VERSION" and exits 0.
void add_version_flag(CLI::App& app, std::string_view program);

/// --log-level trace|debug|info|warn|error|off and --log-format text|json.
void add_log_options(CLI::App& app, LogSettings& settings);

/// Sets spdlog's default logger: to stderr, as text ("[time] [level] message") or as one JSON
/// object per line ({"time":…,"level":…,"program":…,"message":…}).
void apply_log_settings(const LogSettings& settings, std::string_view program);

/// The version of this build of exocheck.
std::string_view exocheck_version();

}  // namespace exocheck::options
