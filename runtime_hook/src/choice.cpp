#include "exocheck/choice.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "exocheck/detail/runtime.hpp"

namespace exocheck {

std::size_t choose(std::size_t n) {
  if (n == 0 || n > std::numeric_limits<std::uint32_t>::max()) {
    throw std::logic_error("exocheck::choose(" + std::to_string(n) + "): the range must hold 1 to 2^32 - 1 values");
  }
  detail::Runtime* runtime = detail::active_runtime();
  if (runtime == nullptr) throw std::logic_error("exocheck::choose() was called with no exocheck::System");
  return runtime->choose(static_cast<std::uint32_t>(n));
}

namespace detail {

Runtime*& active_runtime() {
  static Runtime* runtime = nullptr;
  return runtime;
}

}  // namespace detail
}  // namespace exocheck
