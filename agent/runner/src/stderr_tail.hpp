#pragma once
// The last bytes a subject wrote to stderr: enough to explain a failure, bounded however much
// the subject writes.

#include <cstddef>
#include <string>
#include <string_view>

namespace exocheck::agent {

class StderrTail {
 public:
  /// Keeps the last `limit` bytes.
  explicit StderrTail(std::size_t limit = 4096) : limit_(limit) {}

  /// Adds bytes at the end, forgetting the oldest beyond the limit.
  void append(std::string_view bytes) {
    kept_.append(bytes);
    // Trim only when twice the limit is reached, so that appending stays amortised O(1).
    if (kept_.size() > 2 * limit_) kept_.erase(0, kept_.size() - limit_);
  }

  /// The last `limit` bytes received.
  std::string text() const { return kept_.size() > limit_ ? kept_.substr(kept_.size() - limit_) : kept_; }

 private:
  std::size_t limit_;
  std::string kept_;
};

}  // namespace exocheck::agent
