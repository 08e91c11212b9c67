// What the coordinator reads of a backtrack request an agent raised (coordinator/dispatch/src/
// backtrack_prefix.cpp): the prefix, from the request's wire form, which it then passes on as it
// came; bytes that are not a request are refused, not routed.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "backtrack_prefix.hpp"
#include "exocheck/coordinator/subtree_wire.hpp"

namespace exocheck::distributed_test {
namespace {

engine::BacktrackRequest a_request() {
  engine::BacktrackRequest request;
  request.prefix = {"0#1", "0.1#1", "0.2#1"};
  request.taken = "0.2#4";
  request.wakeup = {engine::WakeupStep{"0.1#6", "0.4", "", false, 1, false, false},
                    engine::WakeupStep{"0.2#5", "0.1", "0.4", false, 2, false, false}};
  request.dpor_set = {"0.3#1"};
  return request;
}

TEST(BacktrackPrefix, IsReadFromTheBytesAnAgentSendsWhichTheOwnerReadsWhole) {
  const auto bytes = coordinator::backtrack_bytes(a_request());
  EXPECT_EQ(coordinator::backtrack_prefix(bytes), (std::vector<std::string>{"0#1", "0.1#1", "0.2#1"}));
  const auto back = coordinator::backtrack_from_bytes(bytes);
  EXPECT_EQ(back.prefix, a_request().prefix);
  EXPECT_EQ(back.taken, "0.2#4");
  ASSERT_EQ(back.wakeup.size(), 2u);
  EXPECT_EQ(back.wakeup[1].sender, "0.4");
  EXPECT_EQ(back.wakeup[1].depth, 2u);
}

TEST(BacktrackPrefix, AtTheRootIsEmpty) {
  engine::BacktrackRequest request;
  request.message = "env#2";
  request.taken = "env#1";
  EXPECT_TRUE(coordinator::backtrack_prefix(coordinator::backtrack_bytes(request)).empty());
}

TEST(BacktrackPrefix, BytesThatAreNoRequestAreRefused) {
  const auto bytes = coordinator::backtrack_bytes(a_request());
  EXPECT_THROW((void)coordinator::backtrack_prefix(bytes.substr(0, bytes.size() - 3)), std::invalid_argument)
      << "cut short";
  EXPECT_THROW((void)coordinator::backtrack_prefix(std::string("\x0a\x7f", 2)), std::invalid_argument)
      << "a prefix entry longer than the bytes";
  EXPECT_THROW((void)coordinator::backtrack_prefix(std::string(1, '\0')), std::invalid_argument) << "tag 0";
  EXPECT_THROW((void)coordinator::backtrack_prefix(""), std::invalid_argument)
      << "no request is empty: an agent of another version sends none";
  EXPECT_THROW((void)coordinator::backtrack_from_bytes(bytes.substr(0, bytes.size() - 3)), std::invalid_argument);
}

}  // namespace
}  // namespace exocheck::distributed_test
