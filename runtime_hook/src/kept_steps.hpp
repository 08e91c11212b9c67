#pragma once
// The steps a run makes as the run before it made them, whose events it keeps in the shared event
// buffer instead of building and writing them again. An exploration's next run replays a prefix of
// the last one (depth-first, on the same worker), and the same schedule makes the same steps: their
// events, built and serialized again (a message's summary, the clock, the enabled list), were a
// fifth of the hook's work per run in registry K=7, while the agent had the same bytes already.
// The table at the buffer's end (wire::kept_steps_bytes) holds, for each step of the last run, what
// it delivered (a hash of its label, wire/delivery_label.hpp) and where its event ends; a run whose
// prefix names the same deliveries, under the same settings, starts writing after their events.
// Only the hook reads the table: to the agent, the run wrote every event.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "wire_messages.hpp"

namespace exocheck::detail {

/// A delivery, as a label names it: its message and its handler's choices (trailing 0s left out).
std::uint64_t delivery_hash(std::string_view message, const std::vector<std::uint32_t>& values);

class KeptSteps {
 public:
  /// No table: nothing is kept (a run writing to its socket, a small buffer).
  KeptSteps() = default;
  /// The table of `bytes` at `table`, in memory every run of the server shares.
  KeptSteps(char* table, std::size_t bytes);

  /// Forgets every step the table holds (a new server: its step 0 is not known to be the last one's).
  void forget();
  /// How many steps (0 .. n - 1) this run makes as the last run made them and may keep: the steps
  /// its prefix delivers as the last run did, after the same step 0, under the same settings, whose
  /// events lie within `intact` bytes. A run that must build every event (a determinism check)
  /// keeps none. The table then holds those steps only, until record() adds this run's.
  std::uint32_t shared_with_last(const proto::RunRequest& request, std::uint64_t intact);
  /// Where step `step`'s event ends in the frames (a step shared_with_last() counted).
  std::uint64_t end_of(std::uint32_t step) const;
  /// Step `step`'s event ends at `end`, delivering what `label` hashes; steps before it are held.
  void record(std::uint32_t step, std::uint64_t label, std::uint64_t end);
  /// Holds the steps before `step` only. Async-signal-safe.
  void truncate(std::uint32_t step) noexcept;

 private:
  struct Step {
    std::uint64_t label;
    std::uint64_t end;
  };
  struct Header {
    std::uint64_t settings;
    std::uint64_t count;
  };
  Header* header_ = nullptr;
  Step* steps_ = nullptr;
  std::size_t capacity_ = 0;  ///< steps the table can hold
};

}  // namespace exocheck::detail
