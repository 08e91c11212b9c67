// workers: Concuerror's workers_2 (tests/suites/dpor_tests/src/workers_2.erl): a server hands out
// work items to --workers workers and, while it has retries left, collects every result and hands
// the results out again as new work. A test process waits for the final results and checks them.
//
// The server's receive loop takes work requests and exits; collecting results is a nested
// receive that takes results only (a guard here: results wait while the server serves, requests
// wait while it collects). Work is 1..--items; each round adds 10; after --retries rounds of
// collecting, the server answers requests with no_work, each worker then sends exit, and once
// all have exited it collects the last results and sends them, sorted, to the test process,
// which checks that they are 1 + 10 (retries + 1), ...: the property of the Erlang test.
// Concuerror counts 1,296 interleavings of workers_2 (2 workers, 2 retries, 2 items), with
// Erlang's mailbox order (per-sender FIFO): here under --delivery fifo and causal.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

constexpr int kAdd = 10;

struct Start {
  static constexpr const char* type_name = "Start";
  void describe(exocheck::Describer&) const {}
};
struct WorkRequest {
  static constexpr const char* type_name = "WorkRequest";
  void describe(exocheck::Describer&) const {}
};
struct Work {
  static constexpr const char* type_name = "Work";
  int n = 0;
  void describe(exocheck::Describer& d) const { d("n", n); }
};
struct NoWork {
  static constexpr const char* type_name = "NoWork";
  void describe(exocheck::Describer&) const {}
};
struct Result {
  static constexpr const char* type_name = "Result";
  int r = 0;
  void describe(exocheck::Describer& d) const { d("r", r); }
};
struct Exit {
  static constexpr const char* type_name = "Exit";
  void describe(exocheck::Describer&) const {}
};
struct Done {
  static constexpr const char* type_name = "Done";
  std::vector<int> results;
  void describe(exocheck::Describer& d) const { d("results", results); }
};

class Tester : public exocheck::Actor {
 public:
  explicit Tester(std::vector<int> expected) {
    on([this, expected](const Done& d) {
      got_ = d.results;
      exocheck::check(d.results == expected, "the results are not the work items after every retry");
    });
  }
  std::string final_state() const override {
    std::string text;
    for (int r : got_) text += (text.empty() ? "" : ",") + std::to_string(r);
    return "results " + text;
  }

 private:
  std::vector<int> got_;
};

class Server : public exocheck::Actor {
 public:
  Server(exocheck::ActorRef tester, int workers, int retries, int items)
      : tester_(tester), workers_(workers), retries_(retries), items_(items) {
    for (int n = 1; n <= items; ++n) work_.push_back(n);
    // Guards with a view (the mode they read): the explorer tests them on earlier states.
    const auto mode = [this] { return mode_; };
    guard<WorkRequest>(mode, [](Mode m, const WorkRequest&) { return m == Mode::kServing; });
    guard<Exit>(mode, [](Mode m, const Exit&) { return m == Mode::kServing; });
    guard<Result>(mode, [](Mode m, const Result&) { return m != Mode::kServing; });
    on([this](const WorkRequest&) {
      if (!work_.empty()) {
        send(sender(), Work{work_.front()});
        work_.pop_front();
      } else if (retries_ == 0) {
        send(sender(), NoWork{});
      } else {
        requester_ = sender();
        mode_ = Mode::kCollecting;  // collect_res(): every result before the next request
      }
      loop();
    });
    on([this](const Exit&) {
      --workers_;
      loop();
    });
    on([this](const Result& r) {
      collected_.insert(collected_.begin(), r.r);  // [R | Acc]: the latest first
      if (static_cast<int>(collected_.size()) < items_) return;
      if (mode_ == Mode::kFinishing) {
        std::sort(collected_.begin(), collected_.end());
        send(tester_, Done{collected_});
        destroy();
        return;
      }
      send(requester_, Work{collected_.front()});  // [R | Esult]: R to the requester, the rest is work
      work_.assign(collected_.begin() + 1, collected_.end());
      collected_.clear();
      --retries_;
      mode_ = Mode::kServing;
      loop();
    });
  }

 private:
  enum class Mode { kServing, kCollecting, kFinishing };

  /// server(0, 0, [], Parent): every worker gone, no retry and no work left: the last results.
  void loop() {
    if (mode_ == Mode::kServing && workers_ == 0 && retries_ == 0 && work_.empty()) mode_ = Mode::kFinishing;
  }

  exocheck::ActorRef tester_;
  int workers_;
  int retries_;
  int items_;
  std::deque<int> work_;
  std::vector<int> collected_;
  exocheck::ActorRef requester_;
  Mode mode_ = Mode::kServing;
};

class Worker : public exocheck::Actor {
 public:
  explicit Worker(exocheck::ActorRef server) {
    on([this, server](const Start&) { send(server, WorkRequest{}); });
    on([this, server](const Work& w) {
      send(server, Result{w.n + kAdd});
      send(server, WorkRequest{});
    });
    on([this, server](const NoWork&) {
      send(server, Exit{});
      destroy();
    });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"workers: a server hands out work and retries it through its workers (Concuerror's workers_2)"};
  int workers = 2;
  int retries = 2;
  int items = 2;
  app.add_option("--workers", workers, "workers")->check(CLI::Range(1, 6))->capture_default_str();
  app.add_option("--retries", retries, "rounds of collecting and handing out the results again")
      ->check(CLI::Range(0, 6))
      ->capture_default_str();
  app.add_option("--items", items, "work items (1, 2, ...)")->check(CLI::Range(1, 6))->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  std::vector<int> expected;
  for (int n = 1; n <= items; ++n) expected.push_back(n + (retries + 1) * kAdd);
  exocheck::System system;
  const auto tester = system.spawn<Tester>(expected);
  const auto server = system.spawn<Server>(tester, workers, retries, items);
  for (int i = 0; i < workers; ++i) system.send(system.spawn<Worker>(server), Start{});
  const int code = system.run();
  if (!system.controlled()) std::cout << "workers: done" << std::endl;
  return code;
}
