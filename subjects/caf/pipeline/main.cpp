// caf-pipeline: a typed-actor pipeline on CAF 0.17: source -> two parallel workers -> sink. The
// source sends items 1..N alternately to the two workers; each squares its items and forwards
// them to the sink tagged with their sequence numbers. The sink expects the results in sequence
// order, but the two workers race: item 2 can reach the sink before item 1, and the sink's
// assertion fails. With --fixed the sink keeps a reorder buffer and emits results in order; it
// asserts that the emitted sequence is complete and ordered.

#include <cassert>
#include <iostream>
#include <map>
#include <vector>

#include "caf/all.hpp"

namespace {

using start_atom = caf::atom_constant<caf::atom("start")>;
using item_atom = caf::atom_constant<caf::atom("item")>;
using result_atom = caf::atom_constant<caf::atom("result")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;

using sink_actor = caf::typed_actor<caf::reacts_to<result_atom, int, int>>;  // seq, value
using worker_actor = caf::typed_actor<caf::reacts_to<item_atom, int, int>,   // seq, value
                                      caf::reacts_to<stop_atom>>;
using source_actor = caf::typed_actor<caf::reacts_to<start_atom>>;

struct config : caf::actor_system_config {
  int items = 2;
  bool fixed = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(items, "items", "number of items sent through the pipeline (>= 1)")
        .add(fixed, "fixed", "the sink reorders results by sequence number");
  }
};

struct sink_state {
  int received = 0;
  int next = 1;               // sequence number of the next result to emit
  std::map<int, int> buffer;  // --fixed: results that arrived early, by sequence number
  std::vector<int> emitted;   // sequence numbers emitted, in order
};

/// Emits the results in sequence order; after the N-th result, checks them and quits.
sink_actor::behavior_type sink(sink_actor::stateful_pointer<sink_state> self, int items, bool fixed) {
  return {
      [=](result_atom, int seq, int value) {
        auto& st = self->state;
        auto emit = [&](int s, int v) {
          std::cout << "sink: item " << s << " -> " << v << std::endl;
          st.emitted.push_back(s);
          st.next = s + 1;
        };
        if (!fixed) {
          if (seq != st.next) std::cout << "sink: item " << seq << " arrived before item " << st.next << std::endl;
          assert(seq == st.next);
          emit(seq, value);
        } else {
          st.buffer.emplace(seq, value);
          for (auto i = st.buffer.find(st.next); i != st.buffer.end(); i = st.buffer.find(st.next)) {
            emit(i->first, i->second);
            st.buffer.erase(i);
          }
        }
        if (++st.received < items) return;
        bool ordered = st.buffer.empty() && static_cast<int>(st.emitted.size()) == items;
        for (int i = 0; ordered && i < items; ++i) ordered = st.emitted[i] == i + 1;
        std::cout << "sink: " << st.emitted.size() << " of " << items << " items emitted"
                  << (ordered ? " in order" : ", NOT complete and in order") << std::endl;
        assert(ordered);
        self->quit();
      },
  };
}

/// Squares each item and forwards it to the sink; quits on stop.
worker_actor::behavior_type worker(worker_actor::pointer self, sink_actor out) {
  return {
      [=](item_atom, int seq, int value) { self->send(out, result_atom::value, seq, value * value); },
      [=](stop_atom) { self->quit(); },
  };
}

/// On start: sends items 1..N alternately to the two workers, then stops them, then quits.
source_actor::behavior_type source(source_actor::pointer self, worker_actor w1, worker_actor w2, int items) {
  return {
      [=](start_atom) {
        for (int i = 1; i <= items; ++i) self->send(i % 2 == 1 ? w1 : w2, item_atom::value, i, i);
        self->send(w1, stop_atom::value);
        self->send(w2, stop_atom::value);
        self->quit();
      },
  };
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  if (cfg.items < 1) {
    std::cerr << "pipeline: --items must be at least 1" << std::endl;
    return;
  }
  auto out = sys.spawn(sink, cfg.items, cfg.fixed);
  auto w1 = sys.spawn(worker, out);
  auto w2 = sys.spawn(worker, out);
  auto src = sys.spawn(source, w1, w2, cfg.items);
  caf::anon_send(src, start_atom::value);
}

CAF_MAIN()
