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

std::vector<int> cpus_of_this_thread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

TEST(CpuHold, HoldsTheCpuItWokeOnAndLetsGoOnceHeldLongEnough) {
  const auto allowed = allowed_cpus();
  if (allowed.size() < 2) GTEST_SKIP() << "one CPU: nothing to hold on to";
  {
    CpuHold hold(allowed);
    hold.before_run();
    EXPECT_EQ(cpus_of_this_thread(), allowed);
    hold.after_run();
    const auto held = cpus_of_this_thread();
    ASSERT_EQ(held.size(), 1u);
    EXPECT_EQ(held[0], ::sched_getcpu());
    hold.before_run();  // not long enough yet
    EXPECT_EQ(cpus_of_this_thread(), held);
    std::this_thread::sleep_for(CpuHold::kHoldFor + std::chrono::milliseconds(10));
    hold.before_run();
    EXPECT_EQ(cpus_of_this_thread(), allowed);
    hold.after_run();
    EXPECT_EQ(cpus_of_this_thread().size(), 1u);
  }
  EXPECT_EQ(cpus_of_this_thread(), allowed);  // let go at the end
}

}  // namespace
}  // namespace exocheck::agent
