// caf-stream: a CAF 0.17 stream source -> stage -> sink (attach_stream_source, _stage, _sink, as
// CAF's integer_stream example builds it). The source tells a controller when it has produced
// its last element; the controller then stops the sink, which asserts that it has every element.
// But produced is not consumed: batches may still be on their way through the stage, and the sink
// stopped before they arrive loses them. With --fixed the controller waits for the sink's report
// that its stream is done (sent by the sink's finalizer) before it stops the sink.

#include <cassert>
#include <iostream>

#include "caf/all.hpp"

namespace {

using open_atom = caf::atom_constant<caf::atom("open")>;
using produced_atom = caf::atom_constant<caf::atom("produced")>;
using consumed_atom = caf::atom_constant<caf::atom("consumed")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  int elements = 6;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "stop the sink once its stream is done")
        .add(elements, "elements", "how many elements the source produces");
  }
};

/// Produces 0..n-1 for whoever opens it; tells `controller` when the last one is out.
caf::behavior source(caf::event_based_actor* self, caf::actor controller) {
  return {[=](open_atom, int n) {
    return caf::attach_stream_source(
        self, [](int& next) { next = 0; },
        [=](int& next, caf::downstream<int>& out, size_t hint) {
          const int last = std::min(next + static_cast<int>(hint), n);
          for (; next < last; ++next) out.push(next);
          if (next == n) self->send(controller, produced_atom::value);
        },
        [=](const int& next) { return next == n; });
  }};
}

/// Passes every element on, times ten.
caf::behavior stage(caf::event_based_actor* self) {
  return {[=](caf::stream<int> in) {
    return caf::attach_stream_stage(
        self, in, [](caf::unit_t&) {},
        [](caf::unit_t&, caf::downstream<int>& out, int value) { out.push(value * 10); });
  }};
}

struct sink_state {
  int count = 0;
  static inline const char* name = "sink";
};

/// Counts elements; reports to `controller` when its stream is done; `stop` ends it.
caf::behavior sink(caf::stateful_actor<sink_state>* self, caf::actor controller, int expected) {
  return {
      [=](caf::stream<int> in) {
        return caf::attach_stream_sink(
            self, in, [](caf::unit_t&) {}, [=](caf::unit_t&, int) { ++self->state.count; },
            [=](caf::unit_t&, const caf::error&) { self->send(controller, consumed_atom::value); });
      },
      [=](stop_atom) {
        std::cout << "stream: the sink got " << self->state.count << " of " << expected << std::endl;
        assert(self->state.count == expected);
        self->quit();
      },
  };
}

struct controller_state {
  caf::actor sink;
  static inline const char* name = "controller";
};

/// Stops the sink when the source has produced everything (--fixed: when the sink is done).
caf::behavior controller(caf::stateful_actor<controller_state>* self, bool fixed) {
  auto stop = [=] {
    self->send(self->state.sink, stop_atom::value);
    self->quit();
  };
  return {
      [=](const caf::actor& sink) { self->state.sink = sink; },
      [=](produced_atom) {
        if (!fixed) stop();
      },
      [=](consumed_atom) {
        if (fixed) stop();
      },
  };
}

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  auto control = system.spawn(controller, cfg.fixed);
  auto snk = system.spawn(sink, control, cfg.elements);
  caf::anon_send(control, snk);
  auto pipeline = snk * system.spawn(stage) * system.spawn(source, control);
  caf::anon_send(pipeline, open_atom::value, cfg.elements);
}

CAF_MAIN()
