// The explorer's set of class keys: each key counted once, through every growth of its table.
#include "flat_class_keys.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace exocheck::engine {
namespace {

TEST(FlatClassKeys, CountsEachKeyOnceThroughGrowth) {
  FlatClassKeys keys;
  std::set<ClassKey> expected;
  // Keys whose low words share their low bits collide in the table's first slots.
  for (std::uint64_t i = 1; i <= 5000; ++i) {
    const ClassKey key{i * 0x9e3779b97f4a7c15ULL, i << 20};
    EXPECT_TRUE(keys.insert(key));
    expected.insert(key);
    if (i % 7 == 0) {
      EXPECT_FALSE(keys.insert(ClassKey{(i / 2) * 0x9e3779b97f4a7c15ULL, (i / 2) << 20}));
    }
  }
  EXPECT_EQ(keys.size(), 5000U);
  std::vector<ClassKey> held = keys.keys();
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, std::vector<ClassKey>(expected.begin(), expected.end()));
}

TEST(FlatClassKeys, HoldsTheAllZeroKeyApart) {
  FlatClassKeys keys;
  EXPECT_TRUE(keys.insert(ClassKey{}));
  EXPECT_FALSE(keys.insert(ClassKey{}));
  EXPECT_TRUE(keys.insert(ClassKey{0, 1}));
  EXPECT_EQ(keys.size(), 2U);
  std::vector<ClassKey> held = keys.keys();
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, (std::vector<ClassKey>{ClassKey{}, ClassKey{0, 1}}));
}

}  // namespace
}  // namespace exocheck::engine
