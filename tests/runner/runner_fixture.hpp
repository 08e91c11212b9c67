#pragma once
// Shared by the runner's end-to-end tests: where the binaries are, and one-call runs.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "exocheck/agent/runner.hpp"
#include "kernel_features.hpp"

namespace exocheck::agent::testing {

/// Path of a binary built into ${CMAKE_BINARY_DIR}/bin.
inline std::string bin(const std::string& name) {
  return std::string(EXOCHECK_BIN_DIR) + "/" + name;
}

/// The spec of a run of `binary` with `args`.
inline RunSpec spec_of(const std::string& binary, const std::vector<std::string>& args = {},
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(5000),
                       const proto::RunRequest& request = {}) {
  RunSpec spec;
  spec.binary = binary;
  spec.args = args;
  spec.request = request;
  spec.timeout = timeout;
  return spec;
}

/// Runs `binary` with `args` and an empty prefix (FIFO, no step limit), in a process of its own.
inline RunReport run(const std::string& binary, const std::vector<std::string>& args = {},
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(5000),
                     const proto::RunRequest& request = {}) {
  return Runner(RunnerOptions{.fork_server = false}).run(spec_of(binary, args, timeout, request));
}

/// The first three messages registry's FIFO run delivers, as a prefix to replay.
inline proto::RunRequest registry_prefix() {
  const auto whole = run(bin("registry"));
  proto::RunRequest request;
  for (int step = 1; step <= 3; ++step) request.add_prefix(whole.events.at(step).message());
  return request;
}

/// A name for each runner of tests parameterized by RunnerOptions::fork_server.
inline std::string runner_name(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "ForkServer" : "ProcessPerRun";
}

/// Runs scripted_hook with the given actions (see scripted_hook.cpp).
inline RunReport run_script(const std::vector<std::string>& actions,
                            std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  return run(bin("scripted_hook"), actions, timeout);
}

/// The step numbers of the recorded events, in order.
inline std::vector<unsigned> steps_of(const RunReport& report) {
  std::vector<unsigned> steps;
  for (const auto& event : report.events) steps.push_back(event.step());
  return steps;
}

/// 0, 1, ..., count - 1.
inline std::vector<unsigned> first_steps(unsigned count) {
  std::vector<unsigned> steps(count);
  for (unsigned i = 0; i < count; ++i) steps[i] = i;
  return steps;
}

/// The step every fault of the fault subjects happens in: hop 3 of the relay, at actor "0".
inline const std::string kStep3 = "step 3 (message 1#1 at actor 0)";
/// The last step a fault leaves recorded when its process ends without last words (a hang, _exit()).
inline const std::string kAfterStep2 = "after step 2 (message 0#1 at actor 1)";

/// The fault subjects' steps 0 to 2, recorded before their fault in step 3 (relay.hpp), and with
/// `fault_step` step 3 too, which the hook's last words record when the fault ends the process
/// (a signal, exit()).
inline void expect_relay_steps_to_fault(const RunReport& report, bool fault_step) {
  ASSERT_EQ(steps_of(report), first_steps(fault_step ? 4 : 3));
  EXPECT_EQ(report.events[1].message(), "env#1");
  EXPECT_EQ(report.events[1].actor(), "0");
  EXPECT_EQ(report.events[2].message(), "0#1");
  EXPECT_EQ(report.events[2].actor(), "1");
  if (!fault_step) return;
  EXPECT_EQ(report.events[3].message(), "1#1");
  EXPECT_EQ(report.events[3].actor(), "0");
}

/// Wall-clock milliseconds `body` took.
template <typename Body>
long long milliseconds_taken(Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace exocheck::agent::testing
