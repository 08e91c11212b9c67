// The explorer's list of open configurations: both ends found by depth, closed ones taken off
// lazily and handed back (the explorer drops them then).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "open_list.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr Key kChoice = 7;

void open(Node& node, std::uint32_t depth) {
  node.depth = depth;
  node.backtrack.push_back(kChoice);
}

void close(Node& node) {
  node.done.push_back(kChoice);
}

TEST(OpenList, FindsTheDeepestAndTheShallowestAndTakesOffClosedOnesOnTheWay) {
  std::array<Node, 4> nodes;
  open(nodes[0], 1);
  open(nodes[1], 3);
  open(nodes[2], 3);
  open(nodes[3], 5);
  OpenList list;
  for (Node& node : nodes) list.add(node);
  list.add(nodes[3]);  // listed once
  EXPECT_EQ(list.size(), 4u);

  std::vector<const Node*> unlisted;
  const auto note = [&](Node* node) { unlisted.push_back(node); };
  EXPECT_EQ(list.deepest(note), &nodes[3]);
  EXPECT_EQ(list.shallowest(note), &nodes[0]);
  EXPECT_TRUE(unlisted.empty());

  close(nodes[3]);
  EXPECT_EQ(list.deepest(note), &nodes[2]);  // of depth 3, the latest listed
  EXPECT_EQ(unlisted, (std::vector<const Node*>{&nodes[3]}));
  EXPECT_FALSE(nodes[3].listed);
  close(nodes[2]);
  EXPECT_EQ(list.deepest(note), &nodes[1]);
  EXPECT_EQ(unlisted, (std::vector<const Node*>{&nodes[3], &nodes[2]}));
  EXPECT_EQ(list.size(), 2u);

  close(nodes[0]);
  EXPECT_EQ(list.shallowest(note), &nodes[1]);
  EXPECT_EQ(unlisted.back(), &nodes[0]);
  EXPECT_TRUE(list.any_open());

  close(nodes[1]);
  EXPECT_FALSE(list.any_open());
  EXPECT_EQ(list.shallowest(note), nullptr);
  EXPECT_EQ(list.deepest(note), nullptr);
  EXPECT_EQ(list.size(), 0u);
}

TEST(OpenList, AClosedConfigurationIsNotListedAndAnOpenedOneIsListedAgain) {
  Node node;
  node.depth = 2;
  OpenList list;
  list.add(node);  // no choice yet
  EXPECT_EQ(list.size(), 0u);
  open(node, 2);
  list.add(node);
  close(node);
  EXPECT_EQ(list.deepest([](Node*) {}), nullptr);
  node.backtrack.push_back(kChoice + 1);  // a race added another choice
  list.add(node);
  EXPECT_EQ(list.shallowest([](Node*) {}), &node);
}

}  // namespace
}  // namespace exocheck::engine::testing
