// exocheck-bench: prints what controlled execution costs. Never a pass/fail test: the figures
// depend on the machine. Targets from issue 2: >= 300 runs/s of registry on one core, <= 2 us
// per macro-step.

#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "measurements.hpp"

namespace {

using exocheck::bench::StepCost;
using exocheck::bench::Throughput;

struct Options {
  std::uint64_t runs = 2000;
  std::uint64_t steps = 100000;
  int repeat = 3;
  bool json = false;
  std::string bin_dir;
  std::string subject = "registry";
};

// Subjects are built next to the benchmark (${CMAKE_BINARY_DIR}/bin).
std::string own_directory() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "." : self.parent_path().string();
}

nlohmann::json step_cost_json(const StepCost& cost) {
  return {{"seconds", cost.seconds},
          {"ns_per_step", cost.nanoseconds_per_step()},
          {"runner_cpu_ns_per_step", cost.runner_cpu_ns_per_step()},
          {"subject_cpu_ns_per_step", cost.subject_cpu_ns_per_step()},
          {"outcome", cost.outcome}};
}

nlohmann::json as_json(const Options& options, const Throughput& runs, const StepCost& controlled,
                       const StepCost& uncontrolled) {
  return {
      {"runs",
       {{"subject", options.subject},
        {"runs", runs.runs},
        {"not_completed", runs.not_completed},
        {"seconds", runs.seconds},
        {"runs_per_second", runs.runs_per_second()},
        {"mean_ms", runs.mean_ms},
        {"p50_ms", runs.p50_ms},
        {"p99_ms", runs.p99_ms},
        {"target_runs_per_second", 300}}},
      {"pingpong",
       {{"steps", options.steps},
        {"repeat", options.repeat},
        {"controlled", step_cost_json(controlled)},
        {"uncontrolled", step_cost_json(uncontrolled)},
        {"target_ns_per_step", 2000}}},
  };
}

void print_text(const Options& options, const Throughput& runs, const StepCost& controlled,
                const StepCost& uncontrolled) {
  std::cout << fmt::format(
      "{} through the runner: {} runs in {:.3f} s = {:.0f} runs/s (target >= 300); per run mean {:.2f} ms, "
      "p50 {:.2f} ms, p99 {:.2f} ms; {} not completed\n",
      options.subject, runs.runs, runs.seconds, runs.runs_per_second(), runs.mean_ms, runs.p50_ms, runs.p99_ms,
      runs.not_completed);
  std::cout << fmt::format(
      "pingpong --steps {} through the runner: {:.3f} s = {:.0f} ns per macro-step (target <= 2000), best of {}; "
      "CPU per step: runner {:.0f} ns, subject {:.0f} ns; {}\n",
      options.steps, controlled.seconds, controlled.nanoseconds_per_step(), options.repeat,
      controlled.runner_cpu_ns_per_step(), controlled.subject_cpu_ns_per_step(), controlled.outcome);
  std::cout << fmt::format(
      "pingpong --steps {} by hand (uncontrolled): {:.3f} s = {:.0f} ns per macro-step, best of {}; CPU per step: "
      "subject {:.0f} ns; {}\n",
      options.steps, uncontrolled.seconds, uncontrolled.nanoseconds_per_step(), options.repeat,
      uncontrolled.subject_cpu_ns_per_step(), uncontrolled.outcome);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"exocheck-bench: controlled runs per second and nanoseconds per macro-step"};
  Options options;
  options.bin_dir = own_directory();
  app.add_option("--runs", options.runs, "controlled runs of the subject")->check(CLI::Range(1ULL, 1ULL << 32));
  app.add_option("--steps", options.steps, "macro-steps of the pingpong run")->check(CLI::Range(1ULL, 1ULL << 32));
  app.add_option("--repeat", options.repeat, "pingpong runs per mode; the fastest counts")->check(CLI::Range(1, 100));
  app.add_option("--subject", options.subject, "the subject of the runs-per-second figure (in --bin-dir)");
  app.add_option("--bin-dir", options.bin_dir, "where the subject and pingpong are")->check(CLI::ExistingDirectory);
  app.add_flag("--json", options.json, "print one JSON object instead of text");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  const std::string subject = options.bin_dir + "/" + options.subject, pingpong = options.bin_dir + "/pingpong";
  for (const auto& binary : {subject, pingpong}) {
    if (::access(binary.c_str(), X_OK) != 0) {
      std::cerr << "exocheck-bench: " << binary << " is missing; build it or pass --bin-dir" << std::endl;
      return 2;
    }
  }

  const auto runs = exocheck::bench::measure_runner_throughput(subject, options.runs);
  const auto controlled = exocheck::bench::measure_controlled_steps(pingpong, options.steps, options.repeat);
  const auto uncontrolled = exocheck::bench::measure_uncontrolled_steps(pingpong, options.steps, options.repeat);
  if (options.json) {
    std::cout << as_json(options, runs, controlled, uncontrolled).dump(2) << std::endl;
  } else {
    print_text(options, runs, controlled, uncontrolled);
  }
  return 0;
}
