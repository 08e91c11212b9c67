#include "remote_exploration.hpp"

#include <unistd.h>

#include <filesystem>
#include <optional>

#include <spdlog/spdlog.h>

#include "coordinator_client.hpp"
#include "exit_status.hpp"
#include "exocheck/agent/explore_progress.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "interruption.hpp"
#include "sha256.hpp"

namespace exocheck::cli {
namespace {

// Long enough for a coordinator on another host, short enough that a wrong address is soon told.
constexpr std::chrono::seconds kConnectTimeout{5};

proto::SubmitRequest submission_of(const ExploreSettings& settings) {
  const auto& session = settings.session;
  proto::SubmitRequest request;
  // Agents do not share our working directory: a relative path is sent as an absolute one.
  std::filesystem::path subject = session.subject;
  if (subject.has_parent_path()) subject = std::filesystem::absolute(subject).lexically_normal();
  request.set_subject(subject.string());
  for (const auto& arg : session.args) request.add_args(arg);
  try {
    request.set_sha256(agent::sha256_of_file(subject));
  } catch (const std::runtime_error& error) {
    throw InputError(std::string("explore: ") + error.what());
  }
  *request.mutable_settings() = coordinator::to_wire(session);
  return request;
}

coordinator::Progress to_progress(const proto::JobProgress& job) {
  coordinator::Progress progress;
  progress.stats.paths = job.paths();
  progress.stats.sleep_blocked = job.sleep_blocked();
  progress.stats.transitions = job.transitions();
  progress.stats.executed_steps = job.executed_steps();
  progress.stats.classes = job.classes();
  progress.stats.bugs = job.bug_paths();
  progress.stats.step_limited = job.step_limited();
  progress.stats.analysed_in_part = job.analysed_in_part();
  progress.stats.cut_for_memory = job.cut_for_memory();
  progress.stats.faulted = job.faulted();
  progress.stats.sampled = job.sampled();
  progress.outstanding = job.outstanding();
  progress.frontier = job.frontier();
  progress.bugs = job.bugs();
  return progress;
}

coordinator::Verdict to_verdict(const proto::JobProgress& job) {
  if (job.state() == proto::JOB_FAILED) {
    throw InputError("explore: the coordinator could not run the job: " + job.error());
  }
  const auto verdict = endings::verdict_of(job.state());
  if (!verdict || *verdict == coordinator::Verdict::kRunning) {
    throw InputError("explore: the coordinator reported job " + std::to_string(job.job_id()) + " in state " +
                     proto::JobState_Name(job.state()) + " at its end");
  }
  return *verdict;
}

std::vector<coordinator::Bug> fetch_bugs(agent::CoordinatorClient& client, std::uint64_t job_id) {
  std::vector<coordinator::Bug> bugs;
  for (const auto& summary : client.bugs(job_id)) {
    auto& bug = bugs.emplace_back();
    bug.number = summary.number();
    bug.status = summary.status();
    bug.detail = summary.detail();
    bug.signature = {summary.status(), summary.actor_type(), summary.message_type(), summary.what()};
    bug.paths = summary.paths();
    bug.classes = summary.classes();
    bug.found_by = summary.found_by();
    if (!summary.has_trace()) continue;  // past --bug-traces: counted only
    bug.trace = client.trace(job_id, summary.number());
    if (summary.has_reference()) bug.reference = client.trace(job_id, summary.number(), true);
  }
  return bugs;
}

// A job no agent runs waits (agents may attach later), but the user is told why nothing moves.
constexpr double kAgentlessWarningSeconds = 5;

ExploreOutcome follow(agent::CoordinatorClient& client, std::uint64_t job_id, const std::string& address,
                      bool nearest_looked_for) {
  agent::ExploreProgress progress(::isatty(STDERR_FILENO) == 1);
  int refusals_shown = 0;
  bool cancelled = false;
  bool agentless_told = false;
  std::optional<double> agentless_since;  // the job's elapsed seconds when it last lost its agents
  const auto last = client.watch(job_id, [&](const proto::JobProgress& update) {
    // The job would run on for nobody: cancel it and keep watching until it ends.
    if (Interruption::requested() && !cancelled) {
      cancelled = true;
      client.cancel(job_id);
    }
    for (; refusals_shown < update.refusals_size(); ++refusals_shown) {
      spdlog::warn("explore: {}", update.refusals(refusals_shown));
    }
    if (update.state() != proto::JOB_RUNNING || update.agents() != 0) {
      agentless_since.reset();
      agentless_told = false;  // agents that come and go again are told of again
    } else if (!agentless_since) {
      agentless_since = update.elapsed_seconds();
    } else if (const double agentless = update.elapsed_seconds() - *agentless_since;
               !agentless_told && agentless >= kAgentlessWarningSeconds) {
      agentless_told = true;
      spdlog::warn("explore: job {} has had no agent for {} s; start one with: exocheck-agent --coordinator {}", job_id,
                   static_cast<long>(agentless), address);
    }
    progress.update(to_progress(update));
  });
  progress.finish();
  ExploreOutcome outcome;
  outcome.verdict = to_verdict(last);
  outcome.complete = last.complete();
  outcome.progress = to_progress(last);
  outcome.bugs = fetch_bugs(client, job_id);
  if (nearest_looked_for) {
    if (auto nearest = client.nearest_passing(job_id); nearest.found()) {
      outcome.nearest_passing.emplace(std::move(*nearest.mutable_trace()), nearest.shared_deliveries());
    }
  }
  outcome.warnings.assign(last.warnings().begin(), last.warnings().end());
  outcome.wall_seconds = last.elapsed_seconds();
  outcome.subtrees = last.subtrees();
  return outcome;
}

}  // namespace

ExploreOutcome explore_remotely(const ExploreSettings& settings, const std::string& address,
                                const link::LinkSettings& link) {
  const auto request = submission_of(settings);
  try {
    agent::CoordinatorClient client(address, kConnectTimeout, link);
    const auto job_id = client.submit(request);
    spdlog::info("explore: job {} submitted to {}", job_id, address);
    return follow(client, job_id, address, !settings.session.nearest_to.empty());
  } catch (const agent::CoordinatorError& error) {
    throw InputError(std::string("explore: ") + error.what());
  }
}

}  // namespace exocheck::cli
