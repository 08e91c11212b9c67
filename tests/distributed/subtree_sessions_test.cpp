// An agent's subtrees (agent/daemon/subtree_sessions.cpp) as the coordinator's work messages
// change them: a lease released while the agent was away and given back to it in the same message
// as its drop is explored anew.
#include <gtest/gtest.h>

#include "subtree_sessions.hpp"

namespace exocheck::distributed_test {
namespace {

proto::Work granting(std::uint64_t lease) {
  proto::Work work;
  work.set_job_id(1);
  work.add_leases()->set_lease_id(lease);  // the whole tree
  return work;
}

TEST(SubtreeSessions, ALeaseDroppedAndGrantedAgainInOneMessageIsExploredAnew) {
  agent::SubtreeSessions sessions({}, nullptr);
  sessions.apply(granting(1));
  EXPECT_EQ(sessions.leases(), std::vector<std::uint64_t>{1});
  // The coordinator came back after its grace: the lease it waited for is dropped, then the agent,
  // hungry, takes it again, both in the message that answers its return.
  proto::Work again = granting(1);
  again.add_drop(1);
  sessions.apply(again);
  EXPECT_EQ(sessions.leases(), std::vector<std::uint64_t>{1});
  EXPECT_EQ(sessions.leases_seen(), 2u);
  // A drop alone ends it.
  proto::Work drop;
  drop.set_job_id(1);
  drop.add_drop(1);
  sessions.apply(drop);
  EXPECT_TRUE(sessions.leases().empty());
}

}  // namespace
}  // namespace exocheck::distributed_test
