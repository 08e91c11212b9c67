#include "exocheck/coordinator/subtree_ledger.hpp"

#include <algorithm>
#include <stdexcept>

namespace exocheck::coordinator {

SubtreeLedger::SubtreeLedger(std::vector<std::string> root_prefix) {
  Entry root;
  root.subtree.prefix = std::move(root_prefix);
  leases_.emplace(next_id_, std::move(root));
  index_root(next_id_, true);
  waiting_.push_back(next_id_++);
  unfinished_ = 1;
}

void SubtreeLedger::make_splittable(std::uint64_t lease, const Entry& entry) {
  if (!entry.finished && !entry.asked && entry.worker) splittable_.emplace(entry.subtree.prefix.size(), lease);
}

std::optional<SubtreeLedger::Taken> SubtreeLedger::take(std::uint64_t worker) {
  if (waiting_.empty()) return std::nullopt;
  const std::uint64_t lease = waiting_.front();
  waiting_.pop_front();
  Entry& entry = leases_.at(lease);
  entry.worker = worker;
  ++entry.holding;
  ++takings_;
  ++out_;
  make_splittable(lease, entry);
  return Taken{lease, entry.subtree};
}

// The shallowest first: `splittable_` is ordered by depth.
std::optional<std::uint64_t> SubtreeLedger::lease_to_split(const std::function<bool(std::uint64_t)>& may_ask) {
  for (auto it = splittable_.begin(); it != splittable_.end(); ++it) {
    const auto lease = it->second;
    if (may_ask && !may_ask(lease)) continue;
    leases_.at(lease).asked = true;
    splittable_.erase(it);
    return lease;
  }
  return std::nullopt;
}

std::uint64_t SubtreeLedger::split_off(std::uint64_t lease, engine::Subtree subtree) {
  Entry& giver = leases_.at(lease);
  giver.asked = false;
  make_splittable(lease, giver);
  Entry entry;
  entry.giver = Giver{lease, subtree.id, giver.holding};
  entry.subtree = std::move(subtree);
  const std::uint64_t id = next_id_++;
  giver.children.push_back(id);
  leases_.emplace(id, std::move(entry));
  index_root(id, true);
  waiting_.push_back(id);
  ++unfinished_;
  return id;
}

void SubtreeLedger::nothing_to_split(std::uint64_t lease) {
  Entry& entry = leases_.at(lease);
  entry.asked = false;
  make_splittable(lease, entry);
}

namespace {

/// The hashes of `prefix`'s first 0, 1, ..., prefix.size() ids (FNV-1a, ids separated).
std::vector<std::uint64_t> prefix_hashes(const std::vector<std::string>& prefix) {
  std::vector<std::uint64_t> hashes;
  hashes.reserve(prefix.size() + 1);
  std::uint64_t hash = 14695981039346656037ULL;
  hashes.push_back(hash);
  for (const auto& id : prefix) {
    for (const char c : id) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    hash = (hash ^ 0xffU) * 1099511628211ULL;
    hashes.push_back(hash);
  }
  return hashes;
}

}  // namespace

// The longest prefix first, each looked up by its hash: with thousands of leases and a request
// for every race above a subtree's root, a scan of every lease was most of the coordinator's work.
std::optional<std::uint64_t> SubtreeLedger::owner_of(const std::vector<std::string>& prefix) const {
  const auto hashes = prefix_hashes(prefix);
  for (std::size_t length = prefix.size() + 1; length-- > 0;) {
    const auto [first, last] = roots_.equal_range(hashes[length]);
    for (auto it = first; it != last; ++it) {
      const auto& root = leases_.at(it->second).subtree.prefix;
      if (root.size() == length && std::equal(root.begin(), root.end(), prefix.begin())) return it->second;
    }
  }
  return std::nullopt;
}

void SubtreeLedger::index_root(std::uint64_t lease, bool add) {
  const auto hash = prefix_hashes(leases_.at(lease).subtree.prefix).back();
  if (add) {
    roots_.emplace(hash, lease);
    return;
  }
  const auto [first, last] = roots_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (it->second == lease) {
      roots_.erase(it);
      return;
    }
  }
}

std::optional<SubtreeLedger::Giver> SubtreeLedger::finish(std::uint64_t lease) {
  Entry& entry = leases_.at(lease);
  if (entry.finished) throw std::logic_error("lease " + std::to_string(lease) + " finished twice");
  end(lease, entry);
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
  splittable_.erase({entry.subtree.prefix.size(), lease});
  entry.worker.reset();
  entry.asked = false;
  --out_;
  released.waiting.push_back(lease);
}

void SubtreeLedger::end(std::uint64_t lease, Entry& entry) {
  entry.finished = true;
  index_root(lease, false);
  --unfinished_;
  if (entry.worker) --out_;
  splittable_.erase({entry.subtree.prefix.size(), lease});
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
      stats_.step_limited -= given.counted.step_limited;
      stats_.faulted -= given.counted.faulted;
      stats_.analysed_in_part -= given.counted.analysed_in_part;
      counted_classes_ -= given.counted.classes;
      stats_.classes = classes_.size() + counted_classes_;
      given.counted = {};
      for (const auto& [signature, counted] : given.counted_bugs) {
        bugs_[signature].paths -= counted.first;
        bugs_[signature].counted_classes -= counted.second;
      }
      given.counted_bugs.clear();
    } else {
      end(child, given);
      released.dropped.emplace_back(child, given.worker);
      std::erase(waiting_, child);
    }
    void_descendants(given, released);
  }
  entry.children.clear();
}

std::size_t SubtreeLedger::out() const {
  return out_;
}

bool SubtreeLedger::finished() const {
  return unfinished_ == 0;
}

std::optional<std::uint64_t> SubtreeLedger::worker_of(std::uint64_t lease) const {
  const auto it = leases_.find(lease);
  if (it == leases_.end() || it->second.finished) return std::nullopt;
  return it->second.worker;
}

// Explorers that hold their classes report their keys, united here; those that count them
// (engine::counts_classes) report none, and their counts add up: each class is counted by one.
void SubtreeLedger::count(std::uint64_t lease, const engine::Stats& stats, const std::vector<engine::ClassKey>& keys,
                          const BugsFigures& bugs) {
  engine::Stats added = stats;
  added.classes = keys.empty() ? stats.classes : 0;
  counted_classes_ += added.classes;
  stats_ += added;
  Entry& entry = leases_.at(lease);
  entry.counted = added;
  for (const auto& [signature, figures] : bugs) {
    auto& held = bugs_[signature];
    held.paths += figures.paths;
    held.classes.insert(figures.classes.begin(), figures.classes.end());
    held.counted_classes += figures.counted_classes;
    entry.counted_bugs[signature] = {figures.paths, figures.counted_classes};
  }
  classes_.insert(keys.begin(), keys.end());
  stats_.classes = classes_.size() + counted_classes_;
}

engine::Stats SubtreeLedger::stats() const {
  return stats_;
}

}  // namespace exocheck::coordinator
