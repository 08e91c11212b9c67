#include "ledger_image.hpp"

#include <stdexcept>
#include <vector>

#include "exocheck/coordinator/subtree_wire.hpp"

namespace exocheck::coordinator {
namespace {

// The stats' and subtrees' own, beside the overloads below.
using coordinator::from_wire;
using coordinator::to_wire;

void to_wire(const SubtreeLedger::Giver& giver, proto::LedgerGiver& out) {
  out.set_lease(giver.lease);
  out.set_subtree_id(giver.subtree_id);
  out.set_holding(giver.holding);
}

SubtreeLedger::Giver from_wire(const proto::LedgerGiver& giver) {
  return {giver.lease(), giver.subtree_id(), giver.holding()};
}

void to_wire(const SubtreeLedger::Counted& counted, proto::LedgerCounted& out) {
  to_wire(counted.stats, *out.mutable_stats());
  for (const auto& [signature, figures] : counted.bugs) {
    auto& tally = *out.add_bugs();
    tally.set_signature_key(signature);
    tally.set_paths(figures.first);
    tally.set_counted_classes(figures.second);
  }
}

SubtreeLedger::Counted from_wire(const proto::LedgerCounted& counted) {
  SubtreeLedger::Counted read;
  read.stats = from_wire(counted.stats());
  for (const auto& tally : counted.bugs()) read.bugs[tally.signature_key()] = {tally.paths(), tally.counted_classes()};
  return read;
}

}  // namespace

void to_wire(const SubtreeLedger::Image& image, proto::LedgerState& out,
             const std::function<std::string(std::uint64_t worker)>& instance_of) {
  for (const auto& [id, entry] : image.leases) {
    auto& lease = *out.add_leases();
    lease.set_id(id);
    to_wire(entry.subtree, *lease.mutable_subtree());
    if (entry.worker) lease.set_worker(instance_of(*entry.worker));
    if (entry.giver) to_wire(*entry.giver, *lease.mutable_giver());
    lease.set_holding(entry.holding);
    for (const auto child : entry.children) lease.add_children(child);
    to_wire(entry.counted, *lease.mutable_counted());
    to_wire(entry.folded, *lease.mutable_folded());
    for (const auto& notice : entry.notices) to_wire(notice, *lease.add_notices());
    lease.set_finished(entry.finished);
  }
  for (const auto id : image.waiting) out.add_waiting(id);
  out.set_next_id(image.next_id);
  out.set_takings(image.takings);
  to_wire(image.stats, *out.mutable_stats());
  to_wire(std::vector<engine::ClassKey>(image.classes.begin(), image.classes.end()), *out.mutable_class_keys());
  out.set_counted_classes(image.counted_classes);
  for (const auto& [signature, figures] : image.bugs) {
    auto& tally = *out.add_bugs();
    tally.set_signature_key(signature);
    tally.set_paths(figures.paths);
    to_wire(std::vector<engine::ClassKey>(figures.classes.begin(), figures.classes.end()), *tally.mutable_class_keys());
    tally.set_counted_classes(figures.counted_classes);
  }
}

SubtreeLedger::Image image_from_wire(const proto::LedgerState& state,
                                     const std::function<std::uint64_t(const std::string& instance)>& worker_of) {
  SubtreeLedger::Image image;
  for (const auto& lease : state.leases()) {
    SubtreeLedger::Entry entry;
    entry.subtree = from_wire(lease.subtree());
    if (!lease.worker().empty()) entry.worker = worker_of(lease.worker());
    if (lease.has_giver()) entry.giver = from_wire(lease.giver());
    entry.holding = lease.holding();
    entry.children.assign(lease.children().begin(), lease.children().end());
    entry.counted = from_wire(lease.counted());
    entry.folded = from_wire(lease.folded());
    for (const auto& notice : lease.notices()) entry.notices.push_back(from_wire(notice));
    entry.finished = lease.finished();
    if (!image.leases.emplace(lease.id(), std::move(entry)).second) {
      throw std::invalid_argument("a ledger with lease " + std::to_string(lease.id()) + " twice");
    }
  }
  // What names a lease must find it, or the book would throw later, mid-job.
  const auto known = [&](std::uint64_t id, const char* as) {
    if (!image.leases.contains(id)) {
      throw std::invalid_argument(std::string("a ledger naming lease ") + std::to_string(id) + " (" + as +
                                  ") it does not hold");
    }
  };
  for (const auto& [id, entry] : image.leases) {
    if (entry.giver) known(entry.giver->lease, "a giver");
    for (const auto child : entry.children) known(child, "a gift");
  }
  for (const auto id : state.waiting()) {
    known(id, "waiting");
    image.waiting.push_back(id);
  }
  image.next_id = state.next_id();
  image.takings = state.takings();
  image.stats = from_wire(state.stats());
  const auto keys = keys_from_wire(state.class_keys());
  image.classes.insert(keys.begin(), keys.end());
  image.counted_classes = state.counted_classes();
  for (const auto& tally : state.bugs()) {
    auto& figures = image.bugs[tally.signature_key()];
    figures.paths = tally.paths();
    const auto classes = keys_from_wire(tally.class_keys());
    figures.classes.insert(classes.begin(), classes.end());
    figures.counted_classes = tally.counted_classes();
  }
  return image;
}

}  // namespace exocheck::coordinator
