#include "exocheck/metrics/prometheus_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace exocheck::metrics {
namespace {

// Backslashes and newlines escaped, and quotes too in label values (the format's two rules).
std::string escaped(const std::string& text, bool quotes) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || (quotes && c == '"')) {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string label_text(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out += ",";
    out += labels[i].first + "=\"" + escaped(labels[i].second, true) + "\"";
  }
  return out + "}";
}

}  // namespace

PrometheusText& PrometheusText::family(const std::string& name, const std::string& type, const std::string& help) {
  text_ += "# HELP " + name + " " + escaped(help, false) + "\n# TYPE " + name + " " + type + "\n";
  return *this;
}

PrometheusText& PrometheusText::sample(const std::string& name, double value, const Labels& labels) {
  const std::string number = std::isnan(value)   ? "NaN"
                             : std::isinf(value) ? (value > 0 ? "+Inf" : "-Inf")
                                                 : fmt::format("{}", value);
  text_ += name + label_text(labels) + " " + number + "\n";
  return *this;
}

PrometheusText& PrometheusText::sample(const std::string& name, std::uint64_t value, const Labels& labels) {
  text_ += name + label_text(labels) + " " + std::to_string(value) + "\n";
  return *this;
}

}  // namespace exocheck::metrics
