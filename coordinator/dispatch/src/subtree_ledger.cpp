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
  const auto found = leases_.find(lease);
  if (found == leases_.end() || found->second.finished) {
    throw std::logic_error("lease " + std::to_string(lease) + " finished twice");
  }
  Entry& entry = found->second;
  end(lease, entry);
  std::optional<Giver> told;
  if (entry.giver) {
    const Entry& giver = leases_.at(entry.giver->lease);
    if (!giver.finished && giver.holding == entry.giver->holding && giver.worker) told = entry.giver;
  }
  fold(lease);
  return told;
}

// A lease given away lives on in its giver only as figures to take back and a notice to send
// again: with an optimal exploration's root lease alive for the whole job, keeping every lease
// it gave away was most of what the coordinator held.
void SubtreeLedger::fold(std::uint64_t lease) {
  for (;;) {
    const auto found = leases_.find(lease);
    Entry& entry = found->second;
    if (!entry.finished || !entry.children.empty() || !entry.giver) return;
    const Giver given_by = *entry.giver;
    Entry& giver = leases_.at(given_by.lease);
    giver.folded.add(entry.counted);
    giver.folded.add(entry.folded);
    giver.notices.push_back(given_by);
    std::erase(giver.children, lease);
    leases_.erase(found);
    lease = given_by.lease;
  }
}

void SubtreeLedger::Counted::add(const Counted& more) {
  stats += more.stats;
  for (const auto& [signature, counted] : more.bugs) {
    auto& sum = bugs[signature];
    sum.first += counted.first;
    sum.second += counted.second;
  }
}

void SubtreeLedger::take_back(const Counted& counted) {
  stats_ -= counted.stats;
  counted_classes_ -= counted.stats.classes;
  stats_.classes = classes_.size() + counted_classes_;
  for (const auto& [signature, figures] : counted.bugs) {
    bugs_[signature].paths -= figures.first;
    bugs_[signature].counted_classes -= figures.second;
  }
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
  const auto found = leases_.find(lease);
  if (found == leases_.end()) return;  // void: given away by another lease released before it
  Entry& entry = found->second;
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
  notices = it->second.notices;
  for (const auto child : it->second.children) {
    const Entry& given = leases_.at(child);
    if (given.finished && given.giver) notices.push_back(*given.giver);
  }
  return notices;
}

// Void leases are forgotten: nothing names them any more but the dispatcher's drops.
void SubtreeLedger::void_descendants(Entry& entry, Released& released) {
  take_back(entry.folded);
  entry.folded = {};
  entry.notices.clear();
  for (const auto child : entry.children) {
    const auto found = leases_.find(child);
    Entry& given = found->second;
    if (given.finished) {
      take_back(given.counted);
    } else {
      end(child, given);
      released.dropped.emplace_back(child, given.worker);
      std::erase(waiting_, child);
    }
    void_descendants(given, released);
    leases_.erase(found);
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
  entry.counted.stats = added;
  for (const auto& [signature, figures] : bugs) {
    auto& held = bugs_[signature];
    held.paths += figures.paths;
    held.classes.insert(figures.classes.begin(), figures.classes.end());
    held.counted_classes += figures.counted_classes;
    entry.counted.bugs[signature] = {figures.paths, figures.counted_classes};
  }
  classes_.insert(keys.begin(), keys.end());
  stats_.classes = classes_.size() + counted_classes_;
}

engine::Stats SubtreeLedger::stats() const {
  return stats_;
}

SubtreeLedger::Image SubtreeLedger::image() const {
  return Image{leases_, waiting_, next_id_, takings_, stats_, classes_, counted_classes_, bugs_};
}

SubtreeLedger::SubtreeLedger(Image image)
    : leases_(std::move(image.leases)),
      waiting_(std::move(image.waiting)),
      next_id_(image.next_id),
      takings_(image.takings),
      stats_(image.stats),
      classes_(std::move(image.classes)),
      counted_classes_(image.counted_classes),
      bugs_(std::move(image.bugs)) {
  for (auto& [lease, entry] : leases_) {
    entry.asked = false;
    if (entry.finished) continue;
    ++unfinished_;
    if (entry.worker) ++out_;
    index_root(lease, true);
    make_splittable(lease, entry);
  }
}

}  // namespace exocheck::coordinator
