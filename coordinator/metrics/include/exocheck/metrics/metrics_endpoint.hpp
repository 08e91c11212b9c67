#pragma once
// An HTTP endpoint that serves GET /metrics (Prometheus text format) from a function called per
// scrape; any other path is 404. One thread, one connection at a time: a scraper's load.

#include <functional>
#include <memory>
#include <string>

namespace exocheck::metrics {

class MetricsEndpoint {
 public:
  /// Listens on `address` ("host:port", port 0: any free one). Throws std::runtime_error naming
  /// the address when it cannot listen there.
  MetricsEndpoint(const std::string& address, std::function<std::string()> render);
  ~MetricsEndpoint();
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  /// The port bound.
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace exocheck::metrics
