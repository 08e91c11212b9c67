#pragma once
// Prometheus's text exposition format (version 0.0.4): a family's HELP and TYPE lines, then its
// samples, each `name{label="value",...} number`. Label values are escaped as the format says.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace exocheck::metrics {

using Labels = std::vector<std::pair<std::string, std::string>>;

class PrometheusText {
 public:
  /// Starts a family: `type` is "counter" or "gauge".
  PrometheusText& family(const std::string& name, const std::string& type, const std::string& help);
  /// A sample of the family started last (name: the family's, or for a counter the same).
  PrometheusText& sample(const std::string& name, double value, const Labels& labels = {});
  PrometheusText& sample(const std::string& name, std::uint64_t value, const Labels& labels = {});

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace exocheck::metrics
