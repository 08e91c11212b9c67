#include "exocheck/coordinator/subtree_wire.hpp"

#include <stdexcept>
#include <string>

namespace exocheck::coordinator {
namespace {

void add_steps(const std::vector<engine::WakeupStep>& steps,
               google::protobuf::RepeatedPtrField<proto::WakeupStep>& out) {
  for (const auto& step : steps) {
    auto& wire = *out.Add();
    wire.set_message(step.message);
    wire.set_receiver(step.receiver);
    wire.set_sender(step.sender);
    wire.set_tentative(step.tentative);
    wire.set_depth(step.depth);
    wire.set_chosen(step.chosen);
    wire.set_rest(step.rest);
    wire.set_notifies(step.notifies);
  }
}

std::vector<engine::WakeupStep> steps_from_wire(const google::protobuf::RepeatedPtrField<proto::WakeupStep>& steps) {
  std::vector<engine::WakeupStep> out;
  out.reserve(static_cast<std::size_t>(steps.size()));
  for (const auto& step : steps)
    out.push_back({step.message(), step.receiver(), step.sender(), step.tentative(), step.depth(), step.chosen(),
                   step.rest(), step.notifies()});
  return out;
}

}  // namespace

void to_wire(const engine::Subtree& subtree, proto::Subtree& out) {
  out.set_id(subtree.id);
  for (const auto& id : subtree.prefix) out.add_prefix(id);
  for (const auto& [message, receiver] : subtree.sleep) {
    auto& sleeping = *out.add_sleep();
    sleeping.set_message(message);
    sleeping.set_receiver(receiver);
    sleeping.set_notifies(engine::notifying(subtree, message));
  }
  out.set_first_run(subtree.first_run);
  out.set_run_count(subtree.run_count);
  add_steps(subtree.wakeup, *out.mutable_wakeup());
}

engine::Subtree from_wire(const proto::Subtree& subtree) {
  engine::Subtree out;
  out.id = subtree.id();
  out.prefix.assign(subtree.prefix().begin(), subtree.prefix().end());
  for (const auto& sleeping : subtree.sleep()) {
    out.sleep.emplace_back(sleeping.message(), sleeping.receiver());
    if (sleeping.notifies()) out.sleep_notifying.push_back(sleeping.message());
  }
  out.first_run = subtree.first_run();
  out.run_count = subtree.run_count();
  out.wakeup = steps_from_wire(subtree.wakeup());
  std::uint32_t above = 0;  // a node's depth is at most one more than the node before it
  for (const auto& step : out.wakeup) {
    if (step.depth == 0 || step.depth > above + 1) {
      throw std::invalid_argument("subtree " + std::to_string(subtree.id()) +
                                  ": its wakeup tree's preorder goes from depth " + std::to_string(above) + " to " +
                                  std::to_string(step.depth));
    }
    above = step.depth;
  }
  return out;
}

void to_wire(const engine::BacktrackRequest& request, proto::BacktrackRequest& out) {
  for (const auto& id : request.prefix) out.add_prefix(id);
  out.set_message(request.message);
  out.set_taken(request.taken);
  for (const auto& id : request.dpor_set) out.add_dpor_set(id);
  out.set_minimal(request.minimal);
  add_steps(request.wakeup, *out.mutable_wakeup());
  for (const auto& label : request.alternatives) out.add_alternatives(label);
  out.set_cut_off(request.cut_off);
}

engine::BacktrackRequest from_wire(const proto::BacktrackRequest& request) {
  engine::BacktrackRequest out;
  out.prefix.assign(request.prefix().begin(), request.prefix().end());
  out.message = request.message();
  out.taken = request.taken();
  out.dpor_set.assign(request.dpor_set().begin(), request.dpor_set().end());
  out.minimal = request.minimal();
  out.wakeup = steps_from_wire(request.wakeup());
  out.alternatives.assign(request.alternatives().begin(), request.alternatives().end());
  out.cut_off = request.cut_off();
  return out;
}

std::string backtrack_bytes(const engine::BacktrackRequest& request) {
  proto::BacktrackRequest wire;
  to_wire(request, wire);
  return wire.SerializeAsString();
}

engine::BacktrackRequest backtrack_from_bytes(std::string_view bytes) {
  proto::BacktrackRequest wire;
  if (!wire.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw std::invalid_argument("a backtrack request that is not one (" + std::to_string(bytes.size()) + " bytes)");
  }
  return from_wire(wire);
}

void to_wire(const engine::Stats& stats, proto::ExplorationStats& out) {
  out.set_paths(stats.paths);
  out.set_sleep_blocked(stats.sleep_blocked);
  out.set_transitions(stats.transitions);
  out.set_executed_steps(stats.executed_steps);
  out.set_classes(stats.classes);
  out.set_bugs(stats.bugs);
  out.set_step_limited(stats.step_limited);
  out.set_faulted(stats.faulted);
  out.set_analysed_in_part(stats.analysed_in_part);
  out.set_cut_for_memory(stats.cut_for_memory);
  out.set_sampled(stats.sampled);
}

engine::Stats from_wire(const proto::ExplorationStats& stats) {
  return {stats.paths(),  stats.sleep_blocked(), stats.transitions(), stats.executed_steps(),   stats.classes(),
          stats.bugs(),   stats.step_limited(),  stats.faulted(),     stats.analysed_in_part(), stats.cut_for_memory(),
          stats.sampled()};
}

void to_wire(const std::vector<engine::ClassKey>& keys, google::protobuf::RepeatedField<std::uint64_t>& out) {
  out.Reserve(static_cast<int>(2 * keys.size()));
  for (const auto& key : keys) {
    out.Add(key.high);
    out.Add(key.low);
  }
}

std::vector<engine::ClassKey> keys_from_wire(const google::protobuf::RepeatedField<std::uint64_t>& keys) {
  if (keys.size() % 2 != 0) {
    throw std::invalid_argument("class keys come in pairs, got " + std::to_string(keys.size()) + " numbers");
  }
  std::vector<engine::ClassKey> out;
  out.reserve(static_cast<std::size_t>(keys.size() / 2));
  for (int i = 0; i < keys.size(); i += 2) out.push_back({keys[i], keys[i + 1]});
  return out;
}

}  // namespace exocheck::coordinator
