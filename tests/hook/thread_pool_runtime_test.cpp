// The normal (uncontrolled) runtime: real threads, run to quiescence.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "exocheck/exocheck.hpp"

namespace exocheck {
namespace {

class NormalMode : public ::testing::Test {
 protected:
  void SetUp() override { ::unsetenv("EXOCHECK_CONTROL_FD"); }
};

struct Count {
  int left;
  ActorRef back;
};
class Counter : public Actor {
 public:
  explicit Counter(std::atomic<int>* steps) {
    on([this, steps](const Count& m) {
      ++*steps;
      if (m.left > 0) send(m.back, Count{m.left - 1, self()});
    });
  }
};

TEST_F(NormalMode, MessagesFlowUntilQuiescence) {
  std::atomic<int> steps{0};
  System system;
  EXPECT_FALSE(system.controlled());
  for (int pair = 0; pair < 8; ++pair) {
    auto a = system.spawn<Counter>(&steps);
    auto b = system.spawn<Counter>(&steps);
    system.send(a, Count{999, b});
  }
  EXPECT_EQ(system.run(), 0);
  EXPECT_EQ(steps.load(), 8 * 1000);
}

struct Ask {};
class Answerer : public Actor {
 public:
  Answerer() {
    on([this](const Ask&) { reply(sender().id().size()); });
  }
};
class Asker : public Actor {
 public:
  Asker(ActorRef answerer, std::atomic<int>* answers) { for_each_round(answerer, answers, 50); }

 private:
  void for_each_round(ActorRef answerer, std::atomic<int>* answers, int rounds) {
    if (rounds == 0) return;
    call<std::size_t>(answerer, Ask{}, [=, this](std::size_t) {
      ++*answers;
      for_each_round(answerer, answers, rounds - 1);
    });
  }
};

TEST_F(NormalMode, CallsAreAnsweredOneAtATimePerCaller) {
  std::atomic<int> answers{0};
  System system;
  auto answerer = system.spawn<Answerer>();
  for (int i = 0; i < 6; ++i) system.spawn<Asker>(answerer, &answers);
  EXPECT_EQ(system.run(), 0);
  EXPECT_EQ(answers.load(), 6 * 50);
}

struct Go {};
struct Ready {};
class Gate : public Actor {
 public:
  explicit Gate(std::atomic<int>* order) {
    on([order](const Go&) { order->store(order->load() * 10 + 2); });
    on([this, order](const Ready&) {
      ready_ = true;
      order->store(order->load() * 10 + 1);
    });
    guard<Go>([this](const Go&) { return ready_; });
  }

 private:
  bool ready_ = false;
};

TEST_F(NormalMode, GuardsHoldMessagesBack) {
  std::atomic<int> order{0};
  System system;
  auto gate = system.spawn<Gate>(&order);
  system.send(gate, Go{});
  system.send(gate, Ready{});
  EXPECT_EQ(system.run(), 0);
  EXPECT_EQ(order.load(), 12);
}

TEST_F(NormalMode, AMessageThatIsNeverAcceptedMakesRunReportFailure) {
  std::atomic<int> order{0};
  System system;
  system.send(system.spawn<Gate>(&order), Go{});
  EXPECT_EQ(system.run(), 1);
}

struct Fail {};
class Checker : public Actor {
 public:
  Checker() {
    on([](const Fail&) { check(false, "expected failure"); });
  }
};

TEST_F(NormalMode, AFailedCheckMakesRunReportFailure) {
  System system;
  system.send(system.spawn<Checker>(), Fail{});
  EXPECT_EQ(system.run(), 1);
}

// A child that messages its parent while the parent is still being constructed.
struct Hello {};
class Child : public Actor {
 public:
  explicit Child(ActorRef parent) { send(parent, Hello{}); }
};
class Parent : public Actor {
 public:
  explicit Parent(std::atomic<int>* greetings) {
    on([greetings](const Hello&) { ++*greetings; });
    for (int i = 0; i < 4; ++i) spawn<Child>(self());
  }
};
struct Spawn {};
class Root : public Actor {
 public:
  explicit Root(std::atomic<int>* greetings) {
    on([this, greetings](const Spawn&) { spawn<Parent>(greetings); });
  }
};

TEST_F(NormalMode, MessagesToAnActorUnderConstructionWaitForIt) {
  std::atomic<int> greetings{0};
  System system;
  auto root = system.spawn<Root>(&greetings);
  for (int i = 0; i < 20; ++i) system.send(root, Spawn{});
  EXPECT_EQ(system.run(), 0);
  EXPECT_EQ(greetings.load(), 20 * 4);
}

// Timers by hand: real time passes, the program waits for armed timers, a cancelled one never
// fires, and a call that times out runs its timeout and drops the reply that comes later.
using namespace std::chrono_literals;

struct Tick {};
struct Stop {};
class Ticker : public Actor {
 public:
  Ticker(std::atomic<int>* ticks, std::atomic<bool>* late) {
    const auto armed = std::chrono::steady_clock::now();
    after(20ms, Stop{});
    timer_ = every(2ms, Tick{});
    const Timer never = after(1h, Stop{});
    cancel(never);  // else run() would wait an hour
    on([ticks](const Tick&) { ++*ticks; });
    on([this, armed, late](const Stop&) {
      *late = std::chrono::steady_clock::now() - armed >= 20ms;
      cancel(timer_);
    });
  }

 private:
  Timer timer_;
};

TEST_F(NormalMode, TimersFireAfterTheirDelayAndACancelledOneNever) {
  std::atomic<int> ticks{0};
  std::atomic<bool> late{false};
  System system;
  system.spawn<Ticker>(&ticks, &late);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(system.run(), 0);
  EXPECT_TRUE(late.load()) << "Stop fired before its 20 ms";
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_GE(ticks.load(), 2);  // every 2 ms for 20 ms, however loaded the machine: a few at least
}

struct Slow {};
class SlowServer : public Actor {
 public:
  SlowServer() {
    on([this](const Slow&) {
      std::this_thread::sleep_for(50ms);  // the caller's 5 ms timeout fires meanwhile
      reply();
    });
  }
};
class Impatient : public Actor {
 public:
  Impatient(ActorRef server, std::atomic<int>* replies, std::atomic<int>* timeouts) {
    call<Done>(
        server, Slow{}, [replies](const Done&) { ++*replies; }, 5ms, [timeouts] { ++*timeouts; });
  }
};

TEST_F(NormalMode, ACallThatTimesOutRunsItsTimeoutAndDropsTheLateReply) {
  std::atomic<int> replies{0};
  std::atomic<int> timeouts{0};
  System system;
  const auto server = system.spawn<SlowServer>();
  system.spawn<Impatient>(server, &replies, &timeouts);
  EXPECT_EQ(system.run(), 0);
  EXPECT_EQ(timeouts.load(), 1);
  EXPECT_EQ(replies.load(), 0);
}

}  // namespace
}  // namespace exocheck
