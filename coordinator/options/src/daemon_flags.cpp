#include "exocheck/options/daemon_flags.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>

namespace exocheck::options {
namespace {

// Appends `text` as the inside of a JSON string: quotes, backslashes and control characters
// escaped. Bytes of UTF-8 pass as they are; a log message is not expected to be invalid UTF-8.
void append_json_escaped(std::string_view text, spdlog::memory_buf_t& out) {
  for (const char c : text) {
    switch (c) {
      case '"':
        out.append(std::string_view("\\\""));
        break;
      case '\\':
        out.append(std::string_view("\\\\"));
        break;
      case '\n':
        out.append(std::string_view("\\n"));
        break;
      case '\t':
        out.append(std::string_view("\\t"));
        break;
      case '\r':
        out.append(std::string_view("\\r"));
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out.append(std::string_view(escaped));
        } else {
          out.push_back(c);
        }
    }
  }
}

/// %* in the pattern: the message, escaped for a JSON string.
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
    append_json_escaped(std::string_view(message.payload.data(), message.payload.size()), out);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonEscapedMessage>(); }
};

}  // namespace

std::string_view exocheck_version() {
  return EXOCHECK_VERSION;
}

void add_version_flag(CLI::App& app, std::string_view program) {
  app.set_version_flag("--version", std::string(program) + " " + std::string(exocheck_version()));
}

void add_log_options(CLI::App& app, LogSettings& settings) {
  app.add_option("--log-level", settings.level, "how much to log")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  app.add_option("--log-format", settings.format, "text for people, json for log collectors (one object a line)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
}

void apply_log_settings(const LogSettings& settings, std::string_view program) {
  auto logger =
      std::make_shared<spdlog::logger>(std::string(program), std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (settings.format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%f%z","level":"%l","program":"%n","pid":%P,"message":"%*"})");
    logger->set_formatter(std::move(formatter));
  } else {
    logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
  }
  logger->set_level(spdlog::level::from_str(settings.level));
  logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace exocheck::options
