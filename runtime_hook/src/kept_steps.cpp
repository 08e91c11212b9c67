#include "kept_steps.hpp"

#include <algorithm>

#include "exocheck/wire/delivery_label.hpp"

namespace exocheck::detail {
namespace {

constexpr std::uint64_t kOffset = 14695981039346656037ULL;
constexpr std::uint64_t kPrime = 1099511628211ULL;

std::uint64_t mix(std::uint64_t hash, std::string_view bytes) {
  for (const unsigned char byte : bytes) hash = (hash ^ byte) * kPrime;
  return hash;
}

std::uint64_t mix(std::uint64_t hash, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) hash = (hash ^ ((value >> (8 * i)) & 0xff)) * kPrime;
  return hash;
}

// What else makes a step's event what it is: which messages are enabled (the delivery order,
// timers) and which faults are offered. The heuristic, sleep set and step limit choose later steps
// only, which the labels compare.
std::uint64_t settings_of(const proto::RunRequest& request) {
  std::uint64_t hash = mix(kOffset, static_cast<std::uint64_t>(request.delivery()));
  hash = mix(hash, static_cast<std::uint64_t>(request.timers()));
  return mix(hash, request.faults().SerializeAsString());
}

}  // namespace

std::uint64_t delivery_hash(std::string_view message, const std::vector<std::uint32_t>& values) {
  std::uint64_t hash = mix(kOffset, message);
  std::size_t last = values.size();
  while (last > 0 && values[last - 1] == 0) --last;
  for (std::size_t i = 0; i < last; ++i) hash = mix(hash, std::uint64_t{values[i]} + 1);
  return hash;
}

KeptSteps::KeptSteps(char* table, std::size_t bytes) {
  if (bytes < sizeof(Header) + sizeof(Step)) return;
  header_ = reinterpret_cast<Header*>(table);
  steps_ = reinterpret_cast<Step*>(table + sizeof(Header));
  capacity_ = (bytes - sizeof(Header)) / sizeof(Step);
}

void KeptSteps::forget() {
  if (header_ != nullptr) header_->count = 0;
}

std::uint32_t KeptSteps::shared_with_last(const proto::RunRequest& request, std::uint64_t intact) {
  if (header_ == nullptr) return 0;
  const std::uint64_t settings = settings_of(request);
  if (request.whole_result() || settings != header_->settings) {
    header_->settings = settings;
    header_->count = 0;
    return 0;
  }
  std::uint64_t count = std::min<std::uint64_t>(header_->count, capacity_);
  // Step i + 1 delivers prefix entry i.
  std::uint64_t shared = count == 0 ? 0 : 1;
  for (; shared < count && shared <= static_cast<std::uint64_t>(request.prefix_size()); ++shared) {
    const auto label = wire::parse_label(request.prefix(static_cast<int>(shared - 1)));
    if (!label || delivery_hash(label->message, label->values) != steps_[shared].label) break;
  }
  while (shared > 0 && steps_[shared - 1].end > intact) --shared;
  header_->count = shared;
  return static_cast<std::uint32_t>(shared);
}

std::uint64_t KeptSteps::end_of(std::uint32_t step) const {
  return steps_[step].end;
}

void KeptSteps::record(std::uint32_t step, std::uint64_t label, std::uint64_t end) {
  if (header_ == nullptr) return;
  if (step >= capacity_ || step != header_->count) {
    // Not the next step of the table (one was not written): the table stops before it.
    header_->count = std::min<std::uint64_t>(header_->count, step);
    return;
  }
  steps_[step] = {label, end};
  header_->count = step + 1;
}

void KeptSteps::truncate(std::uint32_t step) noexcept {
  if (header_ != nullptr && header_->count > step) header_->count = step;
}

}  // namespace exocheck::detail
