// spinsort: N ordered nodes sort N values (SEJAP thesis Section 7.2). The first node gets all
// values; every node keeps the smallest value it has seen and forwards each larger one to its
// right neighbour. Node i expects N - i values; when it has them all, it reports the value it
// kept to a collector, which checks that node i kept the i-th smallest value.
//
// Values between two nodes may arrive in any order (messages are not FIFO per pair here): the
// property holds whatever the order, and exploring checks that it does.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Value {
  static constexpr const char* type_name = "Value";
  int value = 0;
  void describe(exocheck::Describer& d) const { d("value", value); }
};

struct Kept {
  static constexpr const char* type_name = "Kept";
  int node = 0;
  int value = 0;
  void describe(exocheck::Describer& d) const { d("node", node)("value", value); }
};

class Collector : public exocheck::Actor {
 public:
  explicit Collector(std::vector<int> values) : expected_(std::move(values)), kept_(expected_.size(), -1) {
    std::sort(expected_.begin(), expected_.end());
    on([this](const Kept& m) { collect(m); });
  }

  std::string final_state() const override {
    std::string text;
    for (int v : kept_) text += (text.empty() ? "" : " ") + std::to_string(v);
    return "kept: " + text;
  }

 private:
  void collect(const Kept& m) {
    const auto i = static_cast<std::size_t>(m.node);
    kept_[i] = m.value;
    exocheck::check(m.value == expected_[i], "node " + std::to_string(m.node) + " kept " + std::to_string(m.value) +
                                                 ", the " + std::to_string(m.node + 1) + "th smallest is " +
                                                 std::to_string(expected_[i]));
    if (++reports_ == expected_.size()) std::cout << final_state() << std::endl;
  }

  std::vector<int> expected_;
  std::vector<int> kept_;
  std::size_t reports_ = 0;
};

class Node : public exocheck::Actor {
 public:
  Node(int index, int expected, exocheck::ActorRef collector, exocheck::ActorRef right)
      : index_(index), expected_(expected), collector_(collector), right_(right) {
    on([this](const Value& m) { receive(m.value); });
  }

 private:
  void receive(int value) {
    if (received_++ == 0) {
      kept_ = value;
    } else {
      send(right_, Value{std::max(kept_, value)});
      kept_ = std::min(kept_, value);
    }
    if (received_ == expected_) send(collector_, Kept{index_, kept_});
  }

  int index_;
  int expected_;
  exocheck::ActorRef collector_;
  exocheck::ActorRef right_;
  int received_ = 0;
  int kept_ = 0;
};

/// Builds the line of nodes (the last first, so each knows its right neighbour) and hands the
/// first one every value, in its constructor (step 0).
class Boot : public exocheck::Actor {
 public:
  explicit Boot(const std::vector<int>& values) {
    const auto collector = spawn<Collector>(values);
    const int n = static_cast<int>(values.size());
    exocheck::ActorRef right;
    for (int i = n - 1; i >= 0; --i) right = spawn<Node>(i, n - i, collector, right);
    for (int value : values) send(right, Value{value});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"spinsort: N nodes in a line sort N values (SEJAP thesis Section 7.2)"};
  int n = 3;
  app.add_option("-n,--n", n, "how many nodes and values")->check(CLI::Range(1, 50));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  std::vector<int> values;  // descending: every value but the last travels
  for (int i = n; i >= 1; --i) values.push_back(i * 10);

  exocheck::System system;
  system.spawn<Boot>(values);
  return system.run();
}
