// A worker that is not pinned holds on to its CPU for a while at a time (CpuHold), and lets the
// scheduler place it again between holds.

#include "cpu_hold.hpp"

#include <sched.h>

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "cpu_pinning.hpp"

namespace exocheck::agent {
namespace {

TEST(CpuHold, HoldsTheCpuItWokeOnAndLetsGoOnceHeldLongEnough) {
  const auto allowed = allowed_cpus();
  if (allowed.size() < 2) GTEST_SKIP() << "one CPU: nothing to hold on to";
  {
    CpuHold hold(allowed);
    hold.before_run();
    EXPECT_EQ(allowed_cpus(), allowed);
    hold.after_run();
    const auto held = allowed_cpus();
    ASSERT_EQ(held.size(), 1u);
    EXPECT_EQ(held[0], ::sched_getcpu());
    hold.before_run();  // not long enough yet
    EXPECT_EQ(allowed_cpus(), held);
    std::this_thread::sleep_for(CpuHold::kHoldFor + std::chrono::milliseconds(10));
    hold.before_run();
    EXPECT_EQ(allowed_cpus(), allowed);
    hold.after_run();
    EXPECT_EQ(allowed_cpus().size(), 1u);
  }
  EXPECT_EQ(allowed_cpus(), allowed);  // let go at the end
}

}  // namespace
}  // namespace exocheck::agent
