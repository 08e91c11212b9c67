// The controlled runtime's exocheck::choose(): a branch of the schedule, recorded and replayed.

#include <random>

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"

namespace exocheck::detail {

// A choice's value: the prefix entry's, else the randomized strategy's draw, else 0. Every value
// is explored as a delivery of its own (the engine adds the others as the run comes back).
std::uint32_t ControlledRuntime::choose(std::uint32_t range) {
  if (!in_run_) {
    throw std::logic_error(
        "exocheck::choose() was called in main before System::run(): under exploration only "
        "choices in steps (handlers, constructors they run) are explored");
  }
  const auto made = static_cast<std::size_t>(event_->choices_size());
  std::uint32_t value = 0;
  if (prescribed_) {
    if (made < prescribed_->size()) value = (*prescribed_)[made];
  } else if (random_choices_) {
    value = static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint64_t>(0, range - 1)(choice_random_));
  }
  if (value >= range && choice_divergence_.empty()) {
    choice_divergence_ = "replay diverged at step " + std::to_string(event_->step()) + ": choice " +
                         std::to_string(made + 1) + " of message " + event_->message() + " was to be " +
                         std::to_string(value) + ", but the handler chose among " + std::to_string(range) +
                         " values this time";
    value = 0;
  }
  auto* choice = event_->add_choices();
  choice->set_range(range);
  choice->set_value(value);
  return value;
}

}  // namespace exocheck::detail
