#include "exocheck/coordinator/bug_wire.hpp"

#include "exocheck/coordinator/subtree_wire.hpp"

namespace exocheck::coordinator {

void to_wire(const Bug& bug, std::uint64_t lease, proto::FoundBug& out) {
  out.set_lease_id(lease);
  out.set_status(bug.status);
  out.set_detail(bug.detail);
  if (bug.has_trace()) *out.mutable_trace() = bug.trace;
  if (bug.reference) *out.mutable_reference() = *bug.reference;
  out.set_class_high(bug.key.high);
  out.set_class_low(bug.key.low);
  out.set_actor_type(bug.signature.actor_type);
  out.set_message_type(bug.signature.message_type);
  out.set_what(bug.signature.what);
  out.set_found_by(bug.found_by);
  out.set_sampled(bug.sampled);
}

Bug from_wire(const proto::FoundBug& found) {
  Bug bug;
  bug.status = found.status();
  bug.detail = found.detail();
  if (found.has_trace()) bug.trace = found.trace();
  if (found.has_reference()) bug.reference = found.reference();
  bug.key = {found.class_high(), found.class_low()};
  bug.signature = {found.status(), found.actor_type(), found.message_type(), found.what()};
  bug.found_by = found.found_by();
  bug.sampled = found.sampled();
  return bug;
}

void to_wire(const std::vector<BugTally>& tallies, google::protobuf::RepeatedPtrField<proto::BugTally>& out) {
  for (const auto& tally : tallies) {
    auto& wire = *out.Add();
    wire.set_signature_key(tally.signature_key);
    wire.set_paths(tally.paths);
    to_wire(tally.classes, *wire.mutable_class_keys());
    wire.set_counted_classes(tally.counted_classes);
  }
}

std::vector<BugTally> tallies_from_wire(const google::protobuf::RepeatedPtrField<proto::BugTally>& tallies) {
  std::vector<BugTally> read;
  read.reserve(static_cast<std::size_t>(tallies.size()));
  for (const auto& tally : tallies) {
    read.push_back({tally.signature_key(), tally.paths(), keys_from_wire(tally.class_keys()), tally.counted_classes()});
  }
  return read;
}

}  // namespace exocheck::coordinator
