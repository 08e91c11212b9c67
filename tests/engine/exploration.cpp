#include "exploration.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "exocheck/options/heuristic.hpp"
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

void record(Reached& reached, const Execution& execution) {
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
      break;
    default:
      break;
  }
}

Execution run_item(const Program& program, const WorkItem& item, Heuristic heuristic) {
  RunSpec spec;
  spec.prefix = item.prefix;
  spec.sleep = item.sleep;
  spec.ranking = item.ranking;
  spec.heuristic = options::to_hook(heuristic);
  return run_program(program, spec);
}

/// What an agent sends for `execution`: the steps from the prefix's length on.
Execution as_sent(const Execution& execution, const WorkItem& item, const ExplorerOptions& options, Results results) {
  const bool learns = options.heuristic == Heuristic::kHms || options.heuristic == Heuristic::kSgr;
  if (results == Results::kWhole || learns || item.prefix.empty()) return execution;
  Execution sent;
  sent.first_step = item.prefix.size();
  const auto first = static_cast<std::ptrdiff_t>(std::min(item.prefix.size() - 1, execution.steps.size()));
  sent.steps.assign(execution.steps.begin() + first, execution.steps.end());
  sent.ending = execution.ending;
  sent.detail = execution.detail;
  sent.final_state = execution.final_state;
  return sent;
}

}  // namespace

Reached explore(const Program& program, ExplorerOptions options, Results results) {
  Explorer explorer(options);
  Reached reached;
  while (auto item = explorer.next()) {
    const Execution execution = run_item(program, *item, options.heuristic);
    record(reached, execution);
    explorer.complete(item->id, as_sent(execution, *item, options, results));
  }
  reached.stats = explorer.stats();
  reached.classes = explorer.classes();
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
    if (running.empty()) break;
    // A random agent finishes next; occasionally one is lost and its item handed out again.
    const std::size_t pick = random() % running.size();
    WorkItem item = std::move(running[pick]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(pick));
    if (random() % 16 == 0) {
      explorer.abandon(item.id);
      continue;
    }
    const Execution execution = run_item(program, item, options.heuristic);
    record(reached, execution);
    explorer.complete(item.id, as_sent(execution, item, options, results));
  }
  reached.stats = explorer.stats();
  reached.classes = explorer.classes();
  return reached;
}

}  // namespace exocheck::engine::testing
