// shortpath: Chandy-Misra distributed shortest paths (TransDPOR Section 6, SEJAP thesis Section
// 7.2). Every node of a weighted directed graph is an actor. The source starts at distance 0;
// a node that learns a shorter distance takes it and tells its successors (distance + edge
// weight). Termination is detected by Dijkstra-Scholten acknowledgements: every Length message
// is acknowledged, a node acknowledges the message that engaged it only when all its own
// messages are acknowledged, and when the source's are, the computation is over. The source
// then tells every node, which checks its distance against Dijkstra's algorithm run
// sequentially.

#include <CLI/CLI.hpp>
#include <iostream>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Edge {
  int from;
  int to;
  int weight;
};

constexpr int kUnreached = std::numeric_limits<int>::max();

/// Dijkstra's algorithm from node 0.
std::vector<int> sequential_distances(int nodes, const std::vector<Edge>& edges) {
  std::vector<int> distance(static_cast<std::size_t>(nodes), kUnreached);
  using Entry = std::pair<int, int>;  // distance, node
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  distance[0] = 0;
  queue.push({0, 0});
  while (!queue.empty()) {
    const auto [d, n] = queue.top();
    queue.pop();
    if (d > distance[static_cast<std::size_t>(n)]) continue;
    for (const Edge& e : edges) {
      if (e.from != n || d + e.weight >= distance[static_cast<std::size_t>(e.to)]) continue;
      distance[static_cast<std::size_t>(e.to)] = d + e.weight;
      queue.push({d + e.weight, e.to});
    }
  }
  return distance;
}

struct Start {
  static constexpr const char* type_name = "Start";
};
struct Length {
  static constexpr const char* type_name = "Length";
  int distance = 0;
  void describe(exocheck::Describer& d) const { d("distance", distance); }
};
struct Ack {
  static constexpr const char* type_name = "Ack";
};
struct Finished {
  static constexpr const char* type_name = "Finished";
};

/// The graph as the nodes see it: filled in by Boot in the initial step, read-only afterwards.
struct Graph {
  std::vector<exocheck::ActorRef> nodes;
  std::vector<Edge> edges;
};

class Node : public exocheck::Actor {
 public:
  Node(int index, int expected, std::shared_ptr<const Graph> graph)
      : index_(index), expected_(expected), graph_(std::move(graph)) {
    on([this](const Start&) { improve(0, exocheck::ActorRef()); });
    on([this](const Length& m) { improve(m.distance, sender()); });
    on([this](const Ack&) {
      --deficit_;
      settle();
    });
    on([this](const Finished&) { check(); });
  }

  std::string final_state() const override {
    return "node " + std::to_string(index_) + " at " + (distance_ == kUnreached ? "oo" : std::to_string(distance_));
  }

 private:
  bool source() const { return index_ == 0; }

  void improve(int distance, const exocheck::ActorRef& from) {
    const bool engaged = source() ? started_ : parent_.valid();
    if (distance >= distance_) {
      if (from.valid()) send(from, Ack{});
      return;
    }
    distance_ = distance;
    if (source()) {
      started_ = true;
    } else if (engaged) {
      send(from, Ack{});
    } else {
      parent_ = from;  // acknowledged once everything this node sends is
    }
    for (const Edge& e : graph_->edges) {
      if (e.from != index_) continue;
      send(graph_->nodes[static_cast<std::size_t>(e.to)], Length{distance_ + e.weight});
      ++deficit_;
    }
    settle();
  }

  void settle() {
    if (deficit_ != 0) return;
    if (source()) {
      if (!started_ || finished_) return;
      finished_ = true;
      for (std::size_t i = 1; i < graph_->nodes.size(); ++i) send(graph_->nodes[i], Finished{});
      check();
    } else if (parent_.valid()) {
      send(parent_, Ack{});
      parent_ = exocheck::ActorRef();
    }
  }

  void check() {
    std::cout << final_state() + "\n" << std::flush;  // one write: nodes print from several threads
    exocheck::check(distance_ == expected_, final_state() + ", but Dijkstra's algorithm gives " +
                                                (expected_ == kUnreached ? "oo" : std::to_string(expected_)));
  }

  int index_;
  int expected_;
  std::shared_ptr<const Graph> graph_;
  int distance_ = kUnreached;
  exocheck::ActorRef parent_;
  int deficit_ = 0;
  bool started_ = false;
  bool finished_ = false;
};

class Boot : public exocheck::Actor {
 public:
  Boot(int nodes, const std::vector<Edge>& edges) {
    auto graph = std::make_shared<Graph>();
    graph->edges = edges;
    const auto expected = sequential_distances(nodes, edges);
    for (int i = 0; i < nodes; ++i)
      graph->nodes.push_back(spawn<Node>(i, expected[static_cast<std::size_t>(i)], graph));
    send(graph->nodes.front(), Start{});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"shortpath: Chandy-Misra distributed shortest paths (TransDPOR Section 6)"};
  int nodes = 4;
  app.add_option("-n,--nodes", nodes, "which graph: 4 or 5 nodes")->check(CLI::IsMember({4, 5}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  // Two graphs where a first, longer path is later improved upon.
  const std::vector<Edge> four{{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}, {2, 3, 5}};
  const std::vector<Edge> five{{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}, {2, 3, 5}, {3, 4, 1}, {1, 4, 6}};
  exocheck::System system;
  system.spawn<Boot>(nodes, nodes == 4 ? four : five);
  return system.run();
}
