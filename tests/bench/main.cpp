// exocheck-bench: prints what exploration costs. Never a pass/fail test: the figures depend on
// the machine. Issue 5's targets: >= 10,000 executions per second on one core for registry with
// K = 2 to 5 workers, and a run on every core at least 1.8 times the one-core rate. Issue 2's:
// <= 2 us per macro-step.
//
// Each exploration figure is measured in a process of its own (this program, with --measure).

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cpu_shares.hpp"
#include "exploration_bench.hpp"
#include "measurement_rounds.hpp"
#include "measurements.hpp"

namespace {

/// What a controlled pingpong step should cost at most, in nanoseconds (wall time per macro-step).
constexpr int kTargetNsPerStep = 1500;

using exocheck::bench::ExplorationCase;
using exocheck::bench::ExplorationSetup;
using exocheck::bench::RunMode;

constexpr RunMode kModes[] = {RunMode::in_place, RunMode::fork, RunMode::process};
// Keeping fork servers between explorations changes what an exploration costs, not what a run does.
constexpr RunMode kExplorationModes[] = {RunMode::in_place, RunMode::in_place_kept, RunMode::fork, RunMode::process};

/// How the figures of a mode are named: their key in the JSON output, and for people.
struct ModeNames {
  RunMode mode;
  const char* key;
  const char* label;
};

constexpr ModeNames kModeNames[] = {
    {RunMode::in_place, "in_place", "fork server, runs in place"},
    {RunMode::in_place_kept, "in_place_servers_kept",
     "workers and fork servers kept between explorations, runs in place"},
    {RunMode::fork, "fork_server", "fork server, runs forked"},
    {RunMode::process, "process_per_run", "one process per run"},
};

const ModeNames& names_of(RunMode mode) {
  return *std::find_if(std::begin(kModeNames), std::end(kModeNames),
                       [mode](const ModeNames& names) { return names.mode == mode; });
}

const char* key_of(RunMode mode) {
  return names_of(mode).key;
}

const char* label_of(RunMode mode) {
  return names_of(mode).label;
}

using nlohmann::json;

struct Options {
  double seconds = 3;
  int rounds = 3;  // each exploration figure measured in this many turns, alternating with the others
  std::uint64_t steps = 100000;
  int repeat = 3;
  bool json = false;
  std::string bin_dir;
  std::vector<std::string> only;  // case labels' subjects to keep; empty: all
  // --measure: one exploration, printed as JSON (used by this program on itself).
  std::string measure;
  std::vector<std::string> measure_args;
  std::size_t cores = 1;
  std::size_t first_cpu = 0;
  std::string mode = "in-place";
  bool runner_alone = false;  // with --measure: the runner alone instead of an exploration
  bool available = false;     // with --measure: the exploration's own parallelism on --cores workers
  std::uint64_t runner_runs = 2000;
};

std::string own_path() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "exocheck-bench" : self.string();
}

std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<ExplorationCase> cases(const Options& options) {
  std::vector<ExplorationCase> all;
  for (int k = 2; k <= 7; ++k)
    all.push_back({fmt::format("registry K={}", k), "registry", {"--workers", std::to_string(k)}});
  // The same program written with CAF, through the CAF adapter (built when libcaf-dev is there).
  if (std::filesystem::exists(options.bin_dir + "/caf-registry")) {
    for (int k = 2; k <= 7; ++k)
      all.push_back({fmt::format("caf-registry K={}", k), "caf-registry", {fmt::format("--workers={}", k)}});
  }
  all.push_back({"pi --workers 5", "pi", {"--workers", "5"}});
  all.push_back({"regsim", "regsim", {}});
  // Runs that fail a check (43 of its 579 paths), explored on past them as with --keep-going.
  all.push_back({"serverreal", "serverreal", {}});
  std::vector<ExplorationCase> kept;
  for (auto& c : all) {
    if (options.only.empty() || std::find(options.only.begin(), options.only.end(), c.subject) != options.only.end()) {
      c.subject = options.bin_dir + "/" + c.subject;
      kept.push_back(std::move(c));
    }
  }
  return kept;
}

/// What a child process of this program measures.
enum class Measured { exploration, runner_alone, available_parallelism };

/// One measurement running in a child process of this program.
struct Measurement {
  std::string command;
  FILE* pipe = nullptr;
};

// Starts one measurement in a child process of this program, pinned to `cores` CPUs from the
// `first_cpu`-th on.
Measurement start_measurement(const Options& options, const ExplorationCase& c, std::size_t cores, RunMode mode,
                              Measured measured = Measured::exploration, std::size_t first_cpu = 0,
                              double seconds = 0) {
  std::string command = quoted(own_path()) + " --measure " + quoted(c.subject) + " --cores " + std::to_string(cores) +
                        " --first-cpu " + std::to_string(first_cpu) + " --mode " + exocheck::bench::name_of(mode) +
                        " --seconds " + std::to_string(seconds > 0 ? seconds : options.seconds) +
                        (measured == Measured::runner_alone            ? " --runner-alone"
                         : measured == Measured::available_parallelism ? " --available-parallelism"
                                                                       : "") +
                        " --";
  for (const auto& arg : c.args) command += " " + quoted(arg);
  return {command, ::popen(command.c_str(), "r")};
}

// Waits for a measurement's end and returns its JSON.
json finish_measurement(const Measurement& measurement) {
  if (measurement.pipe == nullptr) return {{"error", "cannot start " + measurement.command}};
  std::string output;
  char chunk[4096];
  while (const std::size_t got = std::fread(chunk, 1, sizeof chunk, measurement.pipe)) output.append(chunk, got);
  const int status = ::pclose(measurement.pipe);
  const auto parsed = json::parse(output, nullptr, false);
  if (status != 0 || parsed.is_discarded()) return {{"error", "measurement failed: " + measurement.command}};
  return parsed;
}

json measure_in_child(const Options& options, const ExplorationCase& c, std::size_t cores, RunMode mode,
                      Measured measured = Measured::exploration, double seconds = 0) {
  return finish_measurement(start_measurement(options, c, cores, mode, measured, 0, seconds));
}

double rate_of(const json& m) {
  return m.contains("executions_per_second") ? m["executions_per_second"].get<double>() : 0;
}

// The rate had the hypervisor taken none of the CPUs' time (cpu_shares.hpp).
double rate_given_of(const json& m) {
  if (m.contains("executions_per_second_with_cpus_given")) return m["executions_per_second_with_cpus_given"];
  return exocheck::bench::rate_with_cpus_given(rate_of(m), m);
}

double share_of(const json& m, const char* key) {
  return m.contains("cpu_shares") ? m["cpu_shares"].value(key, 0.0) : 0.0;
}

/// The side-by-side explorations' mean share of `key`.
double side_by_side_share(const json& side_by_side, const char* key) {
  if (!side_by_side.contains("each") || side_by_side["each"].empty()) return share_of(side_by_side, key);
  double sum = 0;
  for (const auto& one : side_by_side["each"]) sum += share_of(one, key);
  return sum / static_cast<double>(side_by_side["each"].size());
}

// `cores` one-core explorations at once, each in a process of its own on a CPU of its own: nothing
// shared but the machine. Their summed rate is what this machine gives `cores` times one core of
// this work, the ceiling for one exploration on `cores` cores. One round: each one's figures.
std::vector<json> measure_side_by_side(const Options& options, const ExplorationCase& c, std::size_t cores,
                                       RunMode mode, double seconds) {
  std::vector<Measurement> running;
  for (std::size_t cpu = 0; cpu < cores; ++cpu) {
    running.push_back(start_measurement(options, c, 1, mode, Measured::exploration, cpu, seconds));
  }
  // Every one is waited for, also after a failure: none is left running or unreaped.
  std::vector<json> each;
  for (const auto& measurement : running) each.push_back(finish_measurement(measurement));
  return each;
}

// The side-by-side explorations' rounds put together: each CPU's rounds combined, their rates summed.
json side_by_side_of(const std::vector<std::vector<json>>& rounds_per_cpu) {
  json each = json::array();
  double sum = 0, sum_given = 0;
  for (const auto& rounds : rounds_per_cpu) {
    const json combined = exocheck::bench::combine_rounds(rounds);
    if (combined.contains("error")) return combined;
    sum += rate_of(combined);
    sum_given += exocheck::bench::rate_with_cpus_given(rate_of(combined), combined);
    each.push_back(combined);
  }
  return {{"explorations_at_once", rounds_per_cpu.size()},
          {"executions_per_second", sum},
          {"executions_per_second_with_cpus_given", sum_given},
          {"each", each}};
}

/// One mode's exploration figures: on one core, on every core, and one-core explorations side by side.
struct ModeFigures {
  json one, all, side_by_side;
  std::vector<double> speedup_per_round, side_by_side_per_round;  // over the same round's one core
};

// The three in turn, options.rounds times, each round options.seconds / options.rounds long: in
// the same minutes, so that their ratios hold on a machine whose speed drifts
// (measurement_rounds.hpp).
ModeFigures measure_mode(const Options& options, const ExplorationCase& c, RunMode mode, std::size_t all_cores) {
  const double seconds = options.seconds / options.rounds;
  std::vector<json> one, all;
  std::vector<std::vector<json>> side_by_side(all_cores);
  std::vector<std::vector<json>> all_per_round, side_by_side_per_round;
  for (int round = 0; round < options.rounds; ++round) {
    one.push_back(measure_in_child(options, c, 1, mode, Measured::exploration, seconds));
    if (all_cores == 1) continue;
    all.push_back(measure_in_child(options, c, all_cores, mode, Measured::exploration, seconds));
    all_per_round.push_back({all.back()});
    auto each = measure_side_by_side(options, c, all_cores, mode, seconds);
    side_by_side_per_round.push_back(each);
    for (std::size_t cpu = 0; cpu < all_cores; ++cpu) side_by_side[cpu].push_back(std::move(each[cpu]));
  }
  ModeFigures figures;
  figures.speedup_per_round = exocheck::bench::ratios_per_round(all_per_round, one);
  figures.side_by_side_per_round = exocheck::bench::ratios_per_round(side_by_side_per_round, one);
  figures.one = exocheck::bench::combine_rounds(one);
  figures.all = all_cores > 1 ? exocheck::bench::combine_rounds(all) : figures.one;
  figures.side_by_side = all_cores > 1 ? side_by_side_of(side_by_side) : figures.one;
  return figures;
}

// "1.62x 1.85x 1.90x".
std::string ratios_text(const std::vector<double>& ratios) {
  std::string text;
  for (const double ratio : ratios) text += fmt::format("{}{:.2f}x", text.empty() ? "" : " ", ratio);
  return text;
}

std::string row(const std::string& label, const json& m) {
  if (m.contains("error")) return fmt::format("{:<16} {}\n", label, m["error"].get<std::string>());
  const auto& cpu = m["cpu_us_per_execution"];
  return fmt::format(
      "{:<16} {:>5} {:<13} {:>9.0f} {:>8.1f} | {:>7.1f} {:>7.1f} {:>9.1f} {:>6.1f} | {:>9} {:>8} | {:>8} {}\n", label,
      m["cores"].get<int>(), m["mode"].get<std::string>(), m["executions_per_second"].get<double>(),
      m["us_per_execution"].get<double>(), cpu["coordinator"].get<double>(), cpu["agent"].get<double>(),
      cpu["subject_and_hook"].get<double>(), cpu["other"].get<double>(), m["peak_rss_kib"]["explorer"].get<long>(),
      m["peak_rss_kib"]["largest_subject_process"].get<long>(), m["executions"].get<long>(),
      m["complete"].get<bool>()
          ? fmt::format("complete ({} explorations{})", m["explorations"].get<long>(),
                        m["bugs"].get<long>() > 0 ? fmt::format(", {} bugs each", m["bugs"].get<long>()) : "")
          : std::string("time limit"));
}

// The exploration's own parallelism: what the speedups below can reach at best.
std::string available_row(const std::string& label, const json& m) {
  if (m.contains("error")) return fmt::format("{:<16} {}\n", label, m["error"].get<std::string>());
  const auto& many = m["all_workers"];
  return fmt::format(
      "{:<16} available to {} workers: {} executions in {} lock-step rounds, {:.2f}x at most (runs of equal "
      "length, no overhead){}\n",
      label, m["workers"].get<int>(), many["executions"].get<long>(), many["rounds"].get<long>(),
      m["speedup"].get<double>(), many["complete"].get<bool>() ? "" : "; stopped at the cap on executions");
}

int run_benchmark(const Options& options) {
  const std::size_t all_cores = std::max(1u, std::thread::hardware_concurrency());
  json results = json::array();
  if (!options.json) {
    std::cout << fmt::format(
        "Explorations: TransDPOR + sleep sets, FIFO, one worker per core (--pin-workers), for {} s (explored again\n"
        "and again when complete sooner) in {} rounds of {:.2f} s, 1 core, all cores and side by side in turn; "
        "CPU in us per execution; peak memory of the explorer process and of the largest subject process\n"
        "{:<16} {:>5} {:<13} {:>9} {:>8} | {:>7} {:>7} {:>9} {:>6} | {:>9} {:>8} | {:>8}\n",
        options.seconds, options.rounds, options.seconds / options.rounds, "case", "cores", "runs", "exec/s", "us/exec",
        "coord", "agent", "subj+hook", "other", "peak KiB", "subj KiB", "execs");
  }
  for (const auto& c : cases(options)) {
    json entry{{"case", c.label}, {"subject", c.subject}, {"args", c.args}};
    if (all_cores > 1) {
      const json available =
          measure_in_child(options, c, all_cores, RunMode::in_place, Measured::available_parallelism);
      entry["available_parallelism"] = available;
      if (!options.json) std::cout << available_row(c.label, available);
    }
    for (const RunMode mode : kExplorationModes) {
      const auto [one, all, side_by_side, speedup_per_round, side_by_side_per_round] =
          measure_mode(options, c, mode, all_cores);
      const double speedup = rate_of(one) > 0 ? rate_of(all) / rate_of(one) : 0;
      const double ceiling = rate_of(one) > 0 ? rate_of(side_by_side) / rate_of(one) : 0;
      // The same with the time the hypervisor took from each measurement's CPUs given back: how
      // exocheck scales, apart from how busy the host was in each measurement's minutes.
      const double one_given = rate_given_of(one);
      const double speedup_given = one_given > 0 ? rate_given_of(all) / one_given : 0;
      const double ceiling_given = one_given > 0 ? rate_given_of(side_by_side) / one_given : 0;
      entry[key_of(mode)] = {{"one_core", one},
                             {"all_cores", all},
                             {"speedup", speedup},
                             {"one_core_explorations_side_by_side", side_by_side},
                             {"side_by_side_speedup", ceiling},
                             {"speedup_with_cpus_given", speedup_given},
                             {"side_by_side_speedup_with_cpus_given", ceiling_given},
                             {"speedup_per_round", speedup_per_round},
                             {"side_by_side_speedup_per_round", side_by_side_per_round}};
      if (!options.json) {
        std::cout << row(c.label, one) << row(c.label, all)
                  << fmt::format(
                         "{:<16} {} cores / 1 core: {:.2f}x (round by round: {}); {} one-core explorations side "
                         "by side (the machine's ceiling): {:.0f} exec/s, {:.2f}x (round by round: {})",
                         "", all_cores, speedup, ratios_text(speedup_per_round), all_cores, rate_of(side_by_side),
                         ceiling, ratios_text(side_by_side_per_round));
        if (all.contains("worker_wait_us_per_execution")) {
          const auto& wait = all["worker_wait_us_per_execution"];
          std::cout << fmt::format(
              "; workers on {} cores waited {:.1f} us per execution for a lease (spinning on their CPU for {:.1f} of "
              "them)",
              all_cores, wait["for_a_lease"].get<double>(),
              all["cpu_us_per_execution"].value("spinning_for_a_lease", 0.0));
        }
        if (one.contains("replayed_steps_per_execution")) {
          std::cout << fmt::format("; steps per execution {:.1f}, of them replayed prefix {:.1f}",
                                   one["steps_per_execution"].get<double>(),
                                   one["replayed_steps_per_execution"].get<double>());
        }
        std::cout << "\n";
        if (one.contains("cpu_shares")) {
          std::cout << fmt::format(
              "{:<16} CPU time the hypervisor took (steal): 1 core {:.0f}%, {} cores {:.0f}%, side by side {:.0f}%; "
              "with it given back: {} cores / 1 core {:.2f}x, side by side {:.2f}x; CPUs left idle on {} cores: "
              "{:.0f}%\n",
              "", 100 * share_of(one, "stolen"), all_cores, 100 * share_of(all, "stolen"),
              100 * side_by_side_share(side_by_side, "stolen"), all_cores, speedup_given, ceiling_given, all_cores,
              100 * share_of(all, "idle"));
        }
      }
    }
    results.push_back(entry);
  }
  // The runner alone, one core: what a run costs without any exploration around it.
  const ExplorationCase registry{"registry K=2", options.bin_dir + "/registry", {}};
  json alone = json::object();
  for (const RunMode mode : kModes) {
    const json m = measure_in_child(options, registry, 1, mode, Measured::runner_alone);
    alone[key_of(mode)] = m;
    if (!options.json && !m.contains("error")) {
      std::cout << fmt::format(
          "runner alone, 1 core, {}: registry K=2 FIFO run {:.1f} us; a run ending after step 0 {:.1f} us "
          "(fork + _exit + waitpid: of this benchmark process {:.1f} us, of a minimal static program {:.1f} us)\n",
          label_of(mode), m["us_per_fifo_run"].get<double>(), m["us_per_run_ending_after_step_0"].get<double>(),
          m["us_per_fork_exit_wait_of_the_benchmark"].get<double>(),
          m["us_per_fork_exit_wait_of_a_minimal_static_program"].get<double>());
    }
  }
  const std::string pingpong = options.bin_dir + "/pingpong";
  using exocheck::bench::runner_options;
  const auto in_place = exocheck::bench::measure_controlled_steps(pingpong, options.steps, options.repeat,
                                                                  runner_options(RunMode::in_place));
  const auto forked =
      exocheck::bench::measure_controlled_steps(pingpong, options.steps, options.repeat, runner_options(RunMode::fork));
  const auto own = exocheck::bench::measure_controlled_steps(pingpong, options.steps, options.repeat,
                                                             runner_options(RunMode::process));
  const auto explored = exocheck::bench::measure_explored_steps(pingpong, options.steps, options.repeat,
                                                                runner_options(RunMode::in_place));
  const auto uncontrolled = exocheck::bench::measure_uncontrolled_steps(pingpong, options.steps, options.repeat);
  const auto step_json = [](const exocheck::bench::StepCost& cost) {
    return json{{"ns_per_step", cost.nanoseconds_per_step()},
                {"runner_cpu_ns_per_step", cost.runner_cpu_ns_per_step()},
                {"subject_cpu_ns_per_step", cost.subject_cpu_ns_per_step()},
                {"outcome", cost.outcome}};
  };
  if (options.json) {
    std::cout << json{{"explorations", results},
                      {"runner_alone", alone},
                      {"pingpong",
                       {{"steps", options.steps},
                        {"in_place", step_json(in_place)},
                        {"in_place_decoded_as_explored", step_json(explored)},
                        {"fork_server", step_json(forked)},
                        {"process_per_run", step_json(own)},
                        {"uncontrolled", step_json(uncontrolled)},
                        {"target_ns_per_step", kTargetNsPerStep}}}}
                     .dump(2)
              << std::endl;
  } else {
    const std::vector<std::pair<std::string, exocheck::bench::StepCost>> rows{
        {label_of(RunMode::in_place), in_place},
        {std::string(label_of(RunMode::in_place)) + ", decoded as an exploration does", explored},
        {label_of(RunMode::fork), forked},
        {label_of(RunMode::process), own},
        {"by hand (uncontrolled)", uncontrolled}};
    for (const auto& [label, cost] : rows) {
      std::cout << fmt::format(
          "pingpong --steps {}, {}: {:.0f} ns per macro-step (target <= {}), CPU per step: agent {:.0f} ns, "
          "subject {:.0f} ns; best of {}; {}\n",
          options.steps, label, cost.nanoseconds_per_step(), kTargetNsPerStep, cost.runner_cpu_ns_per_step(),
          cost.subject_cpu_ns_per_step(), options.repeat, cost.outcome);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Figures (and a measurement's JSON, which its parent reads) go to stdout; logs to stderr.
  spdlog::set_default_logger(spdlog::stderr_color_mt("exocheck-bench"));
  CLI::App app{"exocheck-bench: executions per second of explorations, per core and on every core"};
  Options options;
  options.bin_dir = std::filesystem::path(own_path()).parent_path().string();
  app.add_option("--seconds", options.seconds, "how long each exploration figure is measured, in all its rounds")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--rounds", options.rounds,
                 "turns each exploration figure is measured in, alternating 1 core, all cores and side by side "
                 "(each turn --seconds / --rounds long)")
      ->check(CLI::Range(1, 100));
  app.add_option("--only", options.only,
                 "subjects to measure (registry, caf-registry, pi, regsim, serverreal); default: all");
  app.add_option("--steps", options.steps, "macro-steps of the pingpong run")->check(CLI::Range(1ULL, 1ULL << 32));
  app.add_option("--repeat", options.repeat, "pingpong runs per mode; the fastest counts")->check(CLI::Range(1, 100));
  app.add_option("--bin-dir", options.bin_dir, "where the subjects are")->check(CLI::ExistingDirectory);
  app.add_flag("--json", options.json, "print one JSON object instead of text");
  app.add_option("--measure", options.measure, "(internal) measure one exploration of this subject, print JSON");
  app.add_option("--cores", options.cores, "(with --measure) CPUs and workers")->check(CLI::Range(1, 1024));
  app.add_option("--first-cpu", options.first_cpu, "(with --measure) the first of those CPUs, from 0")
      ->check(CLI::Range(0, 1023));
  app.add_option("--mode", options.mode, "(with --measure) in-place, in-place-kept, fork or process")
      ->check(CLI::IsMember({"in-place", "in-place-kept", "fork", "process"}));
  app.add_flag("--runner-alone", options.runner_alone, "(with --measure) time the runner alone, not an exploration");
  app.add_flag("--available-parallelism", options.available,
               "(with --measure) the speedup --cores workers could give at best: runs of equal length, no overhead");
  app.add_option("args", options.measure_args, "(with --measure) the subject's arguments, after --");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  // Each round is a --measure of its own, which takes --seconds down to 0.1.
  if (options.measure.empty() && options.seconds + 1e-9 < 0.1 * options.rounds) {
    std::cerr << "exocheck-bench: --seconds " << options.seconds << " in " << options.rounds
              << " rounds gives each round less than the least a measurement takes (0.1 s); give more seconds or "
                 "fewer rounds"
              << std::endl;
    return 2;
  }
  try {
    if (!options.measure.empty()) {
      const RunMode mode = exocheck::bench::run_mode_named(options.mode).value();  // checked by IsMember
      if (options.available) {
        std::cout << exocheck::bench::measure_available_parallelism(options.measure, options.measure_args,
                                                                    options.cores)
                         .dump()
                  << std::endl;
        return 0;
      }
      if (options.runner_alone) {
        std::cout << exocheck::bench::measure_runner_alone(options.measure, options.measure_args, mode,
                                                           options.runner_runs)
                         .dump()
                  << std::endl;
        return 0;
      }
      ExplorationSetup setup{options.cores, options.first_cpu, mode, options.seconds};
      std::cout << exocheck::bench::measure_exploration(options.measure, options.measure_args, setup).dump()
                << std::endl;
      return 0;
    }
    for (const auto& c : cases(options)) {
      if (::access(c.subject.c_str(), X_OK) != 0) {
        std::cerr << "exocheck-bench: " << c.subject << " is missing; build it or pass --bin-dir" << std::endl;
        return 2;
      }
    }
    return run_benchmark(options);
  } catch (const std::exception& error) {
    std::cerr << "exocheck-bench: " << error.what() << std::endl;
    return 1;
  }
}
