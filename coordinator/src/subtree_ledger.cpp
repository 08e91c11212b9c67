#include "exocheck/coordinator/subtree_ledger.hpp"

#include <algorithm>
#include <stdexcept>

namespace exocheck::coordinator {

SubtreeLedger::SubtreeLedger() {
  leases_.emplace(next_id_, Entry{});
  waiting_.push_back(next_id_++);
}

std::optional<SubtreeLedger::Taken> SubtreeLedger::take(std::uint64_t worker) {
  if (waiting_.empty()) return std::nullopt;
  const std::uint64_t lease = waiting_.front();
  waiting_.pop_front();
  Entry& entry = leases_.at(lease);
  entry.worker = worker;
  ++entry.holding;
  ++takings_;
  return Taken{lease, entry.subtree};
}

std::optional<std::uint64_t> SubtreeLedger::lease_to_split() {
  Entry* shallowest = nullptr;
  std::uint64_t chosen = 0;
  for (auto& [lease, entry] : leases_) {
    if (entry.finished || entry.asked || !entry.worker) continue;
    if (shallowest == nullptr || entry.subtree.prefix.size() < shallowest->subtree.prefix.size()) {
      shallowest = &entry;
      chosen = lease;
    }
  }
  if (shallowest == nullptr) return std::nullopt;
  shallowest->asked = true;
  return chosen;
}

std::uint64_t SubtreeLedger::split_off(std::uint64_t lease, engine::Subtree subtree) {
  Entry& giver = leases_.at(lease);
  giver.asked = false;
  Entry entry;
  entry.giver = Giver{lease, subtree.id, giver.holding};
  entry.subtree = std::move(subtree);
  const std::uint64_t id = next_id_++;
  giver.children.push_back(id);
  leases_.emplace(id, std::move(entry));
  waiting_.push_back(id);
  return id;
}

void SubtreeLedger::nothing_to_split(std::uint64_t lease) {
  leases_.at(lease).asked = false;
}

std::optional<std::uint64_t> SubtreeLedger::owner_of(const std::vector<std::string>& prefix) const {
  std::optional<std::uint64_t> owner;
  std::size_t longest = 0;
  for (const auto& [lease, entry] : leases_) {
    const auto& root = entry.subtree.prefix;
    if (entry.finished || root.size() > prefix.size() || (owner && root.size() <= longest)) continue;
    if (std::equal(root.begin(), root.end(), prefix.begin())) {
      owner = lease;
      longest = root.size();
    }
  }
  return owner;
}

std::optional<SubtreeLedger::Giver> SubtreeLedger::finish(std::uint64_t lease) {
  Entry& entry = leases_.at(lease);
  if (entry.finished) throw std::logic_error("lease " + std::to_string(lease) + " finished twice");
  entry.finished = true;
  if (!entry.giver) return std::nullopt;
  const Entry& giver = leases_.at(entry.giver->lease);
  if (giver.finished || giver.holding != entry.giver->holding || !giver.worker) return std::nullopt;
  return entry.giver;
}

SubtreeLedger::Released SubtreeLedger::release(std::uint64_t worker) {
  auto held = held_by(worker);
  // The shallowest first: a lease given away by another of the worker's is void, not released.
  std::stable_sort(held.begin(), held.end(), [this](std::uint64_t a, std::uint64_t b) {
    return leases_.at(a).subtree.prefix.size() < leases_.at(b).subtree.prefix.size();
  });
  Released released;
  for (const auto lease : held) release_one(lease, released);
  // Ahead of what waits: a released lease may hold its giver's last open work.
  waiting_.insert(waiting_.begin(), released.waiting.begin(), released.waiting.end());
  return released;
}

SubtreeLedger::Released SubtreeLedger::release_lease(std::uint64_t lease) {
  Released released;
  release_one(lease, released);
  waiting_.insert(waiting_.begin(), released.waiting.begin(), released.waiting.end());
  return released;
}

void SubtreeLedger::release_one(std::uint64_t lease, Released& released) {
  Entry& entry = leases_.at(lease);
  if (entry.finished || !entry.worker) return;
  void_descendants(entry, released);
  entry.worker.reset();
  entry.asked = false;
  released.waiting.push_back(lease);
}

std::vector<std::uint64_t> SubtreeLedger::held_by(std::uint64_t worker) const {
  std::vector<std::uint64_t> held;
  for (const auto& [lease, entry] : leases_) {
    if (!entry.finished && entry.worker == worker) held.push_back(lease);
  }
  return held;
}

std::vector<SubtreeLedger::Giver> SubtreeLedger::finished_children(std::uint64_t lease) const {
  std::vector<Giver> notices;
  const auto it = leases_.find(lease);
  if (it == leases_.end()) return notices;
  for (const auto child : it->second.children) {
    const Entry& given = leases_.at(child);
    if (given.finished && given.giver) notices.push_back(*given.giver);
  }
  return notices;
}

void SubtreeLedger::void_descendants(Entry& entry, Released& released) {
  for (const auto child : entry.children) {
    Entry& given = leases_.at(child);
    if (given.finished) {
      stats_.paths -= given.counted.paths;
      stats_.sleep_blocked -= given.counted.sleep_blocked;
      stats_.transitions -= given.counted.transitions;
      stats_.executed_steps -= given.counted.executed_steps;
      stats_.bugs -= given.counted.bugs;
      given.counted = {};
    } else {
      given.finished = true;
      released.dropped.emplace_back(child, given.worker);
      std::erase(waiting_, child);
    }
    void_descendants(given, released);
  }
  entry.children.clear();
}

std::size_t SubtreeLedger::out() const {
  return static_cast<std::size_t>(std::count_if(leases_.begin(), leases_.end(), [](const auto& lease) {
    return !lease.second.finished && lease.second.worker.has_value();
  }));
}

bool SubtreeLedger::finished() const {
  return std::all_of(leases_.begin(), leases_.end(), [](const auto& lease) { return lease.second.finished; });
}

std::optional<std::uint64_t> SubtreeLedger::worker_of(std::uint64_t lease) const {
  const auto it = leases_.find(lease);
  if (it == leases_.end() || it->second.finished) return std::nullopt;
  return it->second.worker;
}

void SubtreeLedger::count(std::uint64_t lease, const engine::Stats& stats, const std::vector<engine::ClassKey>& keys) {
  engine::Stats added = stats;
  added.classes = 0;
  stats_ += added;
  leases_.at(lease).counted = added;
  classes_.insert(keys.begin(), keys.end());
  stats_.classes = classes_.size();
}

engine::Stats SubtreeLedger::stats() const {
  return stats_;
}

}  // namespace exocheck::coordinator
