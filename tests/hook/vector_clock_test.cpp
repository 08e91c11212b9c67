#include "vector_clock.hpp"

#include <gtest/gtest.h>

namespace exocheck::detail {
namespace {

VectorClock clock_of(std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> ticks) {
  VectorClock clock;
  for (auto [actor, times] : ticks) {
    for (std::uint32_t i = 0; i < times; ++i) clock.tick(actor);
  }
  return clock;
}

TEST(VectorClock, TickCountsPerActorAndKeepsEntriesSorted) {
  VectorClock clock = clock_of({{5, 2}, {1, 1}, {3, 3}});
  using Entry = VectorClock::Entry;
  EXPECT_EQ(clock.entries(), (std::vector<Entry>{{1, 1}, {3, 3}, {5, 2}}));
  EXPECT_EQ(clock.at(3), 3u);
  EXPECT_EQ(clock.at(4), 0u);
}

TEST(VectorClock, MergeTakesEntryWiseMaximum) {
  VectorClock a = clock_of({{0, 2}, {2, 1}});
  VectorClock b = clock_of({{0, 1}, {1, 4}, {2, 3}});
  a.merge(b);
  using Entry = VectorClock::Entry;
  EXPECT_EQ(a.entries(), (std::vector<Entry>{{0, 2}, {1, 4}, {2, 3}}));
}

TEST(VectorClock, MergeOfAClockWithNoNewActorTakesTheMaximumInPlace) {
  VectorClock a = clock_of({{0, 2}, {1, 1}, {3, 5}, {4, 1}});
  a.merge(clock_of({{1, 3}, {3, 2}}));  // actors 1 and 3 only: one larger count, one smaller
  using Entry = VectorClock::Entry;
  EXPECT_EQ(a.entries(), (std::vector<Entry>{{0, 2}, {1, 3}, {3, 5}, {4, 1}}));
  a.merge(clock_of({{0, 1}, {1, 1}, {3, 1}, {4, 7}}));  // all of them
  EXPECT_EQ(a.entries(), (std::vector<Entry>{{0, 2}, {1, 3}, {3, 5}, {4, 7}}));
}

TEST(VectorClock, MergeWithEmptyIsIdentity) {
  VectorClock a = clock_of({{7, 1}});
  VectorClock before = a;
  a.merge(VectorClock{});
  EXPECT_EQ(a, before);
  VectorClock empty;
  empty.merge(before);
  EXPECT_EQ(empty, before);
}

TEST(VectorClock, PrecedesIsHappensBeforeOrEqual) {
  VectorClock a = clock_of({{0, 1}});
  VectorClock b = clock_of({{0, 1}, {1, 1}});
  VectorClock c = clock_of({{1, 2}});
  EXPECT_TRUE(a.precedes_or_equals(b));
  EXPECT_FALSE(b.precedes_or_equals(a));
  EXPECT_TRUE(a.precedes_or_equals(a));
  EXPECT_FALSE(a.precedes_or_equals(c));  // concurrent
  EXPECT_FALSE(c.precedes_or_equals(a));
  EXPECT_TRUE(VectorClock{}.precedes_or_equals(c));  // main's steps precede nothing in particular
}

}  // namespace
}  // namespace exocheck::detail
