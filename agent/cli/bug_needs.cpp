#include "bug_needs.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "exocheck/agent/run_conditions.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/agent/schedule_shrinker.hpp"
#include "exocheck/coordinator/bug_signature.hpp"

namespace exocheck::cli {
namespace {

using agent::RunCondition;

// Each try is one or two replays; a run has a handful of conditions, each dropped or kept once.
constexpr std::size_t kMaxTries = 24;
// A moved message renumbers a few later ones; each mend is a replay.
constexpr std::size_t kMaxMends = 8;

bool contains(const std::vector<std::string>& texts, const std::string& text) {
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

class NeedsSearch {
 public:
  NeedsSearch(const proto::TraceFile& bug, coordinator::BugSignature signature, RunSettings settings)
      : bug_(bug), settings_(std::move(settings)), signature_(std::move(signature)) {}

  BugNeeds run(const std::function<bool()>& stop) {
    original_ = bug_;
    // A subject that does not replay (it reads the clock, a file) would make every condition look
    // needed: its trace must fail the same way first.
    if (!agent::conditions_of(original_).empty() && !same_bug(replay(agent::schedule_of_trace(original_)))) {
      throw std::runtime_error("its trace does not fail the same way when replayed (a nondeterministic subject?)");
    }
    for (std::size_t tries = 0; tries < kMaxTries; ++tries) {
      const auto conditions = agent::conditions_of(original_);
      const auto next = std::find_if(conditions.begin(), conditions.end(), [&](const RunCondition& c) {
        return !contains(needed_, c.text) && !contains(impossible_, c.text);
      });
      if (next == conditions.end() || (stop && stop())) break;
      if (auto survived = without(*next)) {
        original_ = std::move(*survived);
        ++result_.dropped;
      }
    }
    if (result_.dropped != 0) result_.run = original_;
    for (const auto& condition : agent::conditions_of(original_)) {
      if (contains(needed_, condition.text)) {
        result_.needs.push_back(condition.text);
      } else if (!contains(impossible_, condition.text)) {
        result_.unchecked.push_back(condition.text);
      }
    }
    return std::move(result_);
  }

 private:
  // The run without `condition` if it still fails the same way: with the rest of the schedule as
  // the trace went on, else from the change on as the run goes by itself (a message moved first
  // renumbers what its receiver sends after it). The change itself not possible there: no need.
  std::optional<proto::TraceFile> without(const RunCondition& condition) {
    agent::Schedule schedule = condition.without;
    auto whole = replay(schedule);
    for (std::size_t mends = 0; mends < kMaxMends && whole.result().divergence_index() >= condition.changed_at;
         ++mends) {
      auto mended = agent::mended_at_divergence(original_, schedule, whole);
      if (!mended) break;
      schedule = std::move(*mended);
      whole = replay(schedule);
    }
    if (same_bug(whole)) return whole;
    const agent::Schedule head(condition.without.begin(),
                               condition.without.begin() + static_cast<std::ptrdiff_t>(condition.changed_at));
    auto alone = replay(head);
    if (same_bug(alone)) return alone;
    if (alone.result().status() == proto::RUN_DIVERGENCE) {
      impossible_.push_back(condition.text);
    } else {
      needed_.push_back(condition.text);
    }
    return std::nullopt;
  }

  // The same bug as the report groups them (numbers in its text masked: a condition dropped may
  // change a count the check prints), first or not among the ways the run fails.
  bool same_bug(const proto::TraceFile& run) const {
    if (run.result().status() == proto::RUN_DIVERGENCE) return false;
    const auto failures = coordinator::failures_of(run);
    return std::any_of(failures.begin(), failures.end(),
                       [&](const coordinator::Failure& f) { return f.signature == signature_; });
  }

  proto::TraceFile replay(const agent::Schedule& schedule) {
    RunSettings settings = settings_;
    settings.prefix = schedule;
    ++result_.runs;
    return record_run(settings, runner_);
  }

  const proto::TraceFile& bug_;
  proto::TraceFile original_;  ///< the run whose conditions are tried: the bug's, or one that survived some
  RunSettings settings_;
  coordinator::BugSignature signature_;
  agent::Runner runner_;
  std::vector<std::string> needed_, impossible_;
  BugNeeds result_;
};

std::string joined(const std::vector<std::string>& texts) {
  std::string text;
  for (const auto& part : texts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace

BugNeeds needs_of_bug(const proto::TraceFile& bug, const coordinator::BugSignature& signature,
                      const RunSettings& settings, const std::function<bool()>& stop) {
  return NeedsSearch(bug, signature, settings).run(stop);
}

std::string needs_text(const BugNeeds& needs) {
  std::string text;
  if (!needs.needs.empty()) text = "needs: " + joined(needs.needs);
  if (!needs.unchecked.empty())
    text += (text.empty() ? "" : "; ") + std::string("not checked: ") + joined(needs.unchecked);
  if (text.empty()) text = "needs nothing unlikely: no fault, no timer firing early, no delivery weaker than causal";
  return text;
}

}  // namespace exocheck::cli
