#include "raised_requests.hpp"

#include <utility>

namespace exocheck::agent {

bool RaisedRequests::first_time(std::string_view wire) {
  // A 128-bit hash of the wire form (engine/class_key.hpp's): two requests share one with a
  // probability far below anything else that can go wrong.
  const auto key = engine::class_key_of(wire);
  if (newer_.count(key) != 0 || older_.count(key) != 0) return false;
  if (newer_.size() >= kept_) {
    older_ = std::move(newer_);
    newer_ = Generation{};
  }
  newer_.insert(key);
  return true;
}

}  // namespace exocheck::agent
