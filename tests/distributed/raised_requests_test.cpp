// A lease's record of the backtrack requests it raised (agent/daemon/raised_requests.cpp): each
// goes once while it is among the latest two generations, and the record stays within them however
// many a long lease raises.
#include <gtest/gtest.h>

#include <string>

#include "raised_requests.hpp"

namespace exocheck::distributed_test {
namespace {

TEST(RaisedRequests, ARequestGoesOnceWhileItIsAmongTheLatestTwoGenerations) {
  agent::RaisedRequests raised(4);
  EXPECT_TRUE(raised.first_time("r0"));
  EXPECT_FALSE(raised.first_time("r0"));
  for (int k = 1; k < 8; ++k) EXPECT_TRUE(raised.first_time("r" + std::to_string(k)));
  EXPECT_FALSE(raised.first_time("r0")) << "the older generation still holds it";
  EXPECT_TRUE(raised.first_time("r8")) << "a third generation begins: the first goes";
  EXPECT_TRUE(raised.first_time("r0")) << "forgotten, it may go again: its owner takes it as the same race";
  EXPECT_FALSE(raised.first_time("r7"));
}

}  // namespace
}  // namespace exocheck::distributed_test
