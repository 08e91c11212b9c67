#include "exploration.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "exocheck/coordinator/subtree_ledger.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"
#include "interpreter.hpp"

namespace exocheck::engine::testing {
namespace {

std::uint32_t clock_entry(const Step& step, const std::string& actor) {
  for (const auto& [a, count] : step.clock) {
    if (a == actor) return count;
  }
  return 0;
}

/// A failure is identified by its failing step's causal past (what the failing actor had seen).
std::string failure_form(const Execution& execution, const Step& failing) {
  Execution past;
  for (const auto& step : execution.steps) {
    if (clock_entry(step, step.actor) <= clock_entry(failing, step.actor)) past.steps.push_back(step);
  }
  return canonical_form(past);
}

void record(Reached& reached, const Execution& execution, const ExplorerOptions& options) {
  // The classes the runs reached, made here from the runs themselves, not asked of the explorer:
  // the explorer's count (Stats::classes) is checked against them (expect_same_reach).
  if (execution.ending != Ending::kSleepBlocked && execution.ending != Ending::kDivergence) {
    const std::string form = canonical_form(execution, options.timers);
    reached.classes.insert(form);
    reached.class_keys.insert(class_key_of(form));
  }
  switch (execution.ending) {
    case Ending::kCompleted: {
      std::string state;
      for (const auto& line : execution.final_state) state += line + "\n";
      reached.final_states.insert(state);
      break;
    }
    case Ending::kDeadlock:
      reached.deadlocks.insert(canonical_form(execution));
      break;
    case Ending::kAssertion:
      for (const auto& step : execution.steps) {
        if (step.failed) reached.failures.insert(failure_form(execution, step));
      }
      if (!execution.steps.empty() && execution.steps.back().failed && execution.steps.back().enabled.size() > 1) {
        ++reached.cut_off;
      }
      break;
    default:
      break;
  }
}

/// What an agent sends for `execution`: the steps from the prefix's length on.
Execution as_sent(const Execution& execution, const WorkItem& item, const ExplorerOptions& options, Results results) {
  const bool learns = options.heuristic == Heuristic::kHms || options.heuristic == Heuristic::kSgr;
  // An item that needs the whole run may leave out only the steps its explorer holds.
  const std::size_t first_step = item.whole ? item.steps_held : item.prefix.size();
  if (results == Results::kWhole || learns || first_step == 0) return execution;
  Execution sent;
  sent.first_step = first_step;
  const auto first = static_cast<std::ptrdiff_t>(std::min(first_step - 1, execution.steps.size()));
  sent.steps.assign(execution.steps.begin() + first, execution.steps.end());
  sent.ending = execution.ending;
  sent.detail = execution.detail;
  sent.final_state = execution.final_state;
  return sent;
}

}  // namespace

Execution run_item(const Program& program, const WorkItem& item, const ExplorerOptions& explorer) {
  RunSpec spec;
  spec.prefix = item.prefix;
  spec.sleep = item.sleep;
  spec.sleep_notifying = item.sleep_notifying;
  spec.sleep_notifying_lanes = item.sleep_notifying_lanes;
  spec.ranking = item.ranking;
  spec.heuristic = options::to_hook(explorer.heuristic);
  spec.delivery = options::row_of(options::kDeliveries, explorer.delivery).wire;
  spec.timers = options::row_of(options::kTimers, explorer.timers).wire;
  spec.wakeup_entries = item.wakeup_entries;
  if (item.sample) {
    spec.heuristic = options::to_hook(item.sample->strategy);
    spec.seed = item.sample->seed;
    spec.pct_depth = item.sample->pct_depth;
    spec.pct_steps = item.sample->pct_steps;
  }
  return run_program(program, spec);
}

Reached explore(const Program& program, ExplorerOptions options, Results results) {
  Explorer explorer(options);
  Reached reached;
  while (auto item = explorer.next()) {
    const Execution execution = run_item(program, *item, options);
    record(reached, execution, options);
    explorer.complete(item->id, as_sent(execution, *item, options, results));
  }
  if (!explorer.finished()) throw std::logic_error("the explorer hands out nothing, and is not finished");
  reached.stats = explorer.stats();
  return reached;
}

Reached explore_in_parallel(const Program& program, ExplorerOptions options, int workers, std::uint64_t seed,
                            Results results) {
  Explorer explorer(options);
  Reached reached;
  std::mt19937_64 random(seed);
  std::vector<WorkItem> running;
  for (;;) {
    while (static_cast<int>(running.size()) < workers) {
      auto item = explorer.next();
      if (!item) break;
      running.push_back(std::move(*item));
    }
    if (running.empty()) {
      if (!explorer.finished()) throw std::logic_error("the explorer hands out nothing, and is not finished");
      break;
    }
    // A random agent finishes next; occasionally one is lost and its item handed out again.
    const std::size_t pick = random() % running.size();
    WorkItem item = std::move(running[pick]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(pick));
    if (random() % 16 == 0) {
      explorer.abandon(item.id);
      continue;
    }
    const Execution execution = run_item(program, item, options);
    record(reached, execution, options);
    explorer.complete(item.id, as_sent(execution, item, options, results));
  }
  reached.stats = explorer.stats();
  return reached;
}

namespace {

/// One explorer of the simulation, exploring one lease of the ledger.
struct Part {
  std::unique_ptr<Explorer> explorer;
  std::vector<WorkItem> running;
  int requests_in_flight = 0;  ///< made and not delivered yet: the part cannot finish before
  bool done = false;
};

struct InFlight {
  std::uint64_t from;
  BacktrackRequest request;
};

}  // namespace

Reached explore_in_subtrees(const Program& program, ExplorerOptions options, int explorers, std::uint64_t seed,
                            int* splits) {
  constexpr std::size_t kItemsPerPart = 2;
  std::mt19937_64 random(seed);
  coordinator::SubtreeLedger ledger;
  std::map<std::uint64_t, Part> parts;  // by lease
  std::vector<InFlight> in_flight;
  Reached reached;
  int split_count = 0;
  std::uint64_t workers = 0;
  const auto active = [&] {
    return std::count_if(parts.begin(), parts.end(), [](const auto& part) { return !part.second.done; });
  };
  const auto take = [&] {
    auto taken = ledger.take(++workers);
    if (!taken) return false;
    parts[taken->lease].explorer = std::make_unique<Explorer>(options, taken->subtree);
    return true;
  };
  const auto fetch = [&](Part& part) {
    bool fetched = false;
    while (part.running.size() < kItemsPerPart) {
      auto item = part.explorer->next();
      if (!item) break;
      part.running.push_back(std::move(*item));
      fetched = true;
    }
    return fetched;
  };
  // The request goes to the owner of its configuration, which must still hold it.
  const auto deliver = [&](std::size_t pick) {
    InFlight delivered = std::move(in_flight[pick]);
    in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(pick));
    const auto owner = ledger.owner_of(delivered.request.prefix);
    if (!owner || !parts.at(*owner).explorer->request_backtrack(delivered.request)) {
      throw std::logic_error("a backtrack request found no owner holding its configuration");
    }
    --parts.at(delivered.from).requests_in_flight;
  };
  take();  // the whole tree
  while (!ledger.finished()) {
    // A part with nothing left is counted and reports to its giver.
    for (auto& [lease, part] : parts) {
      if (part.done || !part.running.empty() || part.requests_in_flight != 0 || !part.explorer->finished()) continue;
      part.done = true;
      ledger.count(lease, part.explorer->stats(), part.explorer->class_keys());
      if (const auto giver = ledger.finish(lease)) parts.at(giver->lease).explorer->subtree_finished(giver->subtree_id);
    }
    if (ledger.finished()) break;
    // One event, chosen at random: an idle worker takes a subtree (one that waits, or one the
    // ledger has split off the shallowest lease), a request is delivered, a part takes work, or a
    // result comes in. Work stays open between results, so that splits find some.
    std::vector<std::uint64_t> with_runs;
    for (const auto& [lease, part] : parts) {
      if (!part.running.empty()) with_runs.push_back(lease);
    }
    const auto roll = random() % 8;
    if (roll <= 2 && static_cast<int>(active()) < explorers) {
      if (ledger.waiting() == 0) {
        if (const auto lease = ledger.lease_to_split()) {
          if (auto subtree = parts.at(*lease).explorer->split()) {
            ++split_count;
            ledger.split_off(*lease, std::move(*subtree));
          } else {
            ledger.nothing_to_split(*lease);
          }
        }
      }
      if (take()) continue;
    }
    if (roll <= 4 && !in_flight.empty()) {
      deliver(random() % in_flight.size());
      continue;
    }
    if (roll == 5) {
      auto it = parts.begin();
      std::advance(it, static_cast<std::ptrdiff_t>(random() % parts.size()));
      if (!it->second.done && fetch(it->second)) continue;
    }
    if (with_runs.empty()) {
      // Nothing running: every part takes work, or a request goes out.
      bool fetched = false;
      for (auto& [lease, part] : parts) fetched = (!part.done && fetch(part)) || fetched;
      if (!fetched && !in_flight.empty()) deliver(in_flight.size() - 1);
      // Nothing to run, nothing to deliver and nothing waiting to be taken: the explorers wait
      // for one another.
      const bool ending = std::any_of(parts.begin(), parts.end(), [](const auto& p) {
        return !p.second.done && p.second.requests_in_flight == 0 && p.second.explorer->finished();
      });
      if (!fetched && !ending && in_flight.empty() && ledger.waiting() == 0 &&
          static_cast<int>(active()) >= explorers) {
        throw std::logic_error("the explorers of the subtrees all wait, with nothing out");
      }
      continue;
    }
    const std::uint64_t from = with_runs[random() % with_runs.size()];
    Part& part = parts.at(from);
    const std::size_t pick = random() % part.running.size();
    WorkItem item = std::move(part.running[pick]);
    part.running.erase(part.running.begin() + static_cast<std::ptrdiff_t>(pick));
    const Execution execution = run_item(program, item, options);
    record(reached, execution, options);
    // A subtree's first run comes whole (its explorer holds no step above its root yet); later
    // ones leave out their prefix (or the steps held, for optimal's) half of the time, as agents
    // send them.
    const bool whole = (item.whole && item.steps_held == 0) || random() % 2 == 0;
    if (!part.explorer->complete(
            item.id, as_sent(execution, item, options, whole ? Results::kWhole : Results::kWithoutPrefix))) {
      throw std::logic_error("an explorer refused the result of an item it handed out");
    }
    for (auto& request : part.explorer->take_backtrack_requests()) {
      in_flight.push_back({from, std::move(request)});
      ++part.requests_in_flight;
    }
  }
  reached.stats = ledger.stats();
  if (splits != nullptr) *splits = split_count;
  return reached;
}

}  // namespace exocheck::engine::testing
