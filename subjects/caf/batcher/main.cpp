// caf-batcher: a batcher on CAF 0.17 forwards items to a sink in batches of two, and flushes a
// partial batch when no item has come for 50 ms (an after(...) idle timeout). The timed flush
// forgets to empty the buffer, so an item flushed by the timeout is sent again with the next
// batch: the sink, which asserts at the end that it got each item once, fails in the runs where
// the timeout fires between two items. With --fixed the timed flush empties the buffer.
// --gap-ms N: caf_main waits N ms between items, so that the timeout races them in a free run.

#include <cassert>
#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

#include "caf/all.hpp"

namespace {

using done_atom = caf::atom_constant<caf::atom("done")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  int gap_ms = 0;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "the timed flush empties the buffer")
        .add(gap_ms, "gap-ms", "milliseconds caf_main waits between items (free runs)");
  }
};

constexpr std::size_t kBatch = 2;
constexpr int kItems = 3;

struct sink_state {
  std::vector<int> received;
  static inline const char* name = "sink";
};

caf::behavior sink(caf::stateful_actor<sink_state>* self) {
  return {
      [=](const std::vector<int>& batch) {
        self->state.received.insert(self->state.received.end(), batch.begin(), batch.end());
      },
      [=](done_atom) {
        std::cout << "batcher: the sink got " << self->state.received.size() << " items, expected " << kItems
                  << std::endl;
        assert(self->state.received.size() == kItems);
        self->quit();
      },
  };
}

struct batcher_state {
  std::vector<int> buffer;
  static inline const char* name = "batcher";
};

using batcher_actor = caf::stateful_actor<batcher_state>;

caf::behavior empty(batcher_actor* self, const caf::actor& out, bool fixed);

/// Holds items, flushing at two and when idle for 50 ms; `done` flushes the rest and ends.
caf::behavior holding(batcher_actor* self, const caf::actor& out, bool fixed) {
  return {
      [=](int item) {
        auto& buffer = self->state.buffer;
        buffer.push_back(item);
        if (buffer.size() < kBatch) return;
        self->send(out, buffer);
        buffer.clear();
        self->become(empty(self, out, fixed));
      },
      [=](done_atom) {
        self->send(out, self->state.buffer);
        self->send(out, done_atom::value);
        self->quit();
      },
      caf::after(std::chrono::milliseconds(50)) >>
          [=] {
            self->send(out, self->state.buffer);
            if (fixed) self->state.buffer.clear();
            self->become(empty(self, out, fixed));
          },
  };
}

/// Waits for the next item (no timeout: nothing to flush).
caf::behavior empty(batcher_actor* self, const caf::actor& out, bool fixed) {
  return {
      [=](int item) {
        self->state.buffer.push_back(item);
        self->become(holding(self, out, fixed));
      },
      [=](done_atom) {
        if (!self->state.buffer.empty()) self->send(out, self->state.buffer);
        self->send(out, done_atom::value);
        self->quit();
      },
  };
}

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  auto out = system.spawn(sink);
  auto batcher = system.spawn([out, fixed = cfg.fixed](batcher_actor* self) { return empty(self, out, fixed); });
  for (int item = 1; item <= kItems; ++item) {
    // --gap-ms: items that come slowly, as from a loaded producer (under control, time is the schedule's).
    if (item > 1 && cfg.gap_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(cfg.gap_ms));
    caf::anon_send(batcher, item);
  }
  caf::anon_send(batcher, done_atom::value);
}

CAF_MAIN()
