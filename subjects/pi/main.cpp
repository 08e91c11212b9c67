// pi: the heuristics paper's illustrative example (Section 4, Fig. 3), a port of the MPI "cpi"
// sample. A master splits the midpoint-rule integral of 4/(1+x^2) over [0,1] among N workers,
// adds their partial sums, then stops the workers and itself.
//
// Porting note (SUBJECTS.md): the master creates its workers in its constructor, so the workers
// are older than the master, and the first transition is the master's Start; Stop messages are
// delivered and each worker destroys itself on its Stop.

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

/// Sent by main (the paper's Driver) to start the computation.
struct Start {
  static constexpr const char* type_name = "Start";
};

/// The master's request to compute a share of the n intervals.
struct Intervals {
  static constexpr const char* type_name = "Intervals";
  exocheck::ActorRef master;
  int n = 0;
  void describe(exocheck::Describer& d) const { d("master", master)("n", n); }
};

/// One worker's partial sum, already multiplied by the interval width.
struct Sum {
  static constexpr const char* type_name = "Sum";
  double value = 0;
  void describe(exocheck::Describer& d) const { d("value", value); }
};

/// Sent by the master to each worker once every sum has arrived.
struct Stop {
  static constexpr const char* type_name = "Stop";
};

/// `value` printed with `digits` significant digits.
std::string significant(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

/// The largest error the midpoint rule may leave with n intervals. For 4/(1+x^2) on [0,1] the
/// error is h^2/12 to leading order (h = 1/n); we allow twice that, plus room for rounding.
double tolerance(int n) {
  const double h = 1.0 / n;
  return h * h / 6 + 1e-9;
}

/// Fig. 3's worker number `id` of `count`: sums the midpoints i = id+1, id+1+count, ... (the
/// original cpi's `myid + 1` start, which keeps every term inside [0,1]).
class Worker : public exocheck::Actor {
 public:
  Worker(int id, int count) {
    on([this, id, count](const Intervals& m) {
      const double h = 1.0 / m.n;
      double sum = 0;
      for (int i = id + 1; i <= m.n; i += count) {
        const double x = h * (i - 0.5);
        sum += 4.0 / (1.0 + x * x);
      }
      send(m.master, Sum{h * sum});
    });
    on([this](const Stop&) { destroy(); });
  }
};

/// Fig. 3's master: creates the workers, hands out the work, reduces the sums, stops everyone.
class Master : public exocheck::Actor {
 public:
  Master(int workers, int intervals) : intervals_(intervals) {
    for (int i = 0; i < workers; ++i) workers_.push_back(spawn<Worker>(i, workers));
    on([this](const Start&) {
      for (const auto& worker : workers_) send(worker, Intervals{self(), intervals_});
    });
    on([this](const Sum& m) { add(m.value); });
  }

  /// The result to 9 significant digits: the order of the additions differs between paths,
  /// and only the last bits may differ with it.
  std::string final_state() const override { return "pi=" + significant(result_, 9); }

 private:
  void add(double partial) {
    ++received_;
    result_ += partial;
    if (received_ < workers_.size()) return;
    for (const auto& worker : workers_) send(worker, Stop{});
    std::cout << "pi: " << significant(result_, 15) << std::endl;
    const double error = std::abs(result_ - std::numbers::pi);
    exocheck::check(error <= tolerance(intervals_), "pi=" + significant(result_, 15) + " is off by " +
                                                        significant(error, 3) + ", more than the tolerance " +
                                                        significant(tolerance(intervals_), 3));
    destroy();
  }

  int intervals_;
  std::vector<exocheck::ActorRef> workers_;
  std::size_t received_ = 0;
  double result_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pi: the heuristics paper's pi example (Section 4, Fig. 3)"};
  int workers = 5;
  int intervals = 1000;
  app.add_option("--workers", workers, "number of worker actors")->check(CLI::Range(1, 1000));
  app.add_option("--intervals", intervals, "number of intervals of the midpoint rule")->check(CLI::Range(1, 1'000'000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  exocheck::System system;
  auto master = system.spawn<Master>(workers, intervals);
  system.send(master, Start{});
  return system.run();
}
