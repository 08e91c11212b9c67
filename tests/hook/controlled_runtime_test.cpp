// The controlled runtime driven in-process over a real socket: schedules, replay of prefixes,
// heuristics, clocks, guards, calls, verdicts.
#include <gtest/gtest.h>

#include "control_harness.hpp"
#include "exocheck/exocheck.hpp"

namespace exocheck::testing {
namespace {

using Ids = std::vector<std::string>;

// The registry example of the TransDPOR paper (Fig. 1).
struct Register {
  ActorRef who;
  void describe(Describer& d) const { d("who", who); }
};
struct RegistryAddress {
  ActorRef registry;
};
class Registry : public Actor {
 public:
  Registry() {
    on([this](const Register& m) { members_ += (members_.empty() ? "" : ",") + m.who.id(); });
  }
  std::string final_state() const override { return members_; }

 private:
  std::string members_;
};
class Worker : public Actor {
 public:
  Worker() {
    on([this](const RegistryAddress& m) { send(m.registry, Register{self()}); });
  }
};
class Master : public Actor {
 public:
  Master() {
    auto registry = spawn<Registry>();
    send(registry, Register{self()});
    auto w1 = spawn<Worker>();
    auto w2 = spawn<Worker>();
    send(w1, RegistryAddress{registry});
    send(w2, RegistryAddress{registry});
  }
};
void registry_program(System& system) {
  system.spawn<Master>();
}

Ids ids_of(const google::protobuf::RepeatedPtrField<std::string>& field) {
  return Ids(field.begin(), field.end());
}

std::string clock_text(const proto::Event& event) {
  std::string text;
  for (const auto& entry : event.clock()) text += entry.actor() + ":" + std::to_string(entry.count()) + " ";
  return text;
}

TEST(ControlledRuntime, RegistryInitialStepRecordsWhatMainDid) {
  auto run = run_controlled(request(), registry_program);
  ASSERT_TRUE(run.hello);
  ASSERT_EQ(run.events.size(), 6u);  // the initial step and five deliveries
  const auto& initial = run.events[0];
  EXPECT_EQ(initial.step(), 0u);
  EXPECT_EQ(initial.actor(), "env");
  EXPECT_EQ(ids_of(initial.created()), (Ids{"0", "0.1", "0.2", "0.3"}));
  ASSERT_EQ(initial.sent_size(), 3);
  EXPECT_EQ(initial.sent(0).id(), "0#1");
  EXPECT_EQ(initial.sent(0).receiver(), "0.1");
  EXPECT_EQ(initial.sent(0).type(), "Register");
  EXPECT_EQ(initial.sent(2).id(), "0#3");
  EXPECT_EQ(initial.sent(2).receiver(), "0.3");
  EXPECT_TRUE(initial.clock().empty());
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(run.result.steps(), 5u);
}

TEST(ControlledRuntime, FifoScheduleClocksAndEnabledSets) {
  auto run = run_controlled(request(proto::FIFO), registry_program);
  EXPECT_EQ(schedule_of(run), (Ids{"0#1", "0#2", "0#3", "0.2#1", "0.3#1"}));
  EXPECT_EQ(ids_of(run.events[1].enabled()), (Ids{"0#1", "0#2", "0#3"}));
  EXPECT_EQ(ids_of(run.events[4].enabled()), (Ids{"0.2#1", "0.3#1"}));
  EXPECT_EQ(clock_text(run.events[1]), "0.1:1 ");
  EXPECT_EQ(clock_text(run.events[2]), "0.2:1 ");
  EXPECT_EQ(clock_text(run.events[4]), "0.1:2 0.2:1 ");
  EXPECT_EQ(clock_text(run.events[5]), "0.1:3 0.2:1 0.3:1 ");
  EXPECT_EQ(run.events[4].sender(), "0.2");
  EXPECT_EQ(run.events[4].summary(), "Register{who=0.2}");
  EXPECT_EQ(run.result.final_state(0), "0.1: 0,0.2,0.3");
}

TEST(ControlledRuntime, LcaPrefersActorsCreatedLaterAndCreatorsAreYoungerThanTheirChildren) {
  // The master finishes construction last, so LCA ranks the workers and registry above it.
  auto run = run_controlled(request(proto::LCA), registry_program);
  EXPECT_EQ(schedule_of(run), (Ids{"0#3", "0#2", "0#1", "0.3#1", "0.2#1"}));
}

TEST(ControlledRuntime, PrefixIsReplayedThenTheHeuristicContinues) {
  auto run = run_controlled(request(proto::FIFO, {"0#2", "0.2#1"}), registry_program);
  EXPECT_EQ(schedule_of(run), (Ids{"0#2", "0.2#1", "0#1", "0#3", "0.3#1"}));
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
}

TEST(ControlledRuntime, APrefixNamingAMessageThatIsNotEnabledIsADivergence) {
  auto run = run_controlled(request(proto::FIFO, {"0#2", "0.3#1"}), registry_program);
  EXPECT_EQ(run.result.status(), proto::RUN_DIVERGENCE);
  EXPECT_EQ(run.result.divergence_index(), 1u);
  EXPECT_EQ(run.result.divergence_expected(), "0.3#1");
  EXPECT_EQ(ids_of(run.result.divergence_enabled()), (Ids{"0#1", "0#3", "0.2#1"}));
  EXPECT_EQ(run.events.size(), 2u);
  EXPECT_NE(run.result.detail().find("0.3#1"), std::string::npos);
  EXPECT_NE(run.result.detail().find("0#1, 0#3, 0.2#1"), std::string::npos);
}

TEST(ControlledRuntime, RunsAreByteForByteDeterministic) {
  for (auto heuristic : {proto::FIFO, proto::LIFO, proto::ECA, proto::LCA, proto::LDM, proto::HDM}) {
    auto first = run_controlled(request(heuristic), registry_program);
    auto second = run_controlled(request(heuristic), registry_program);
    ASSERT_EQ(first.events.size(), second.events.size());
    for (std::size_t i = 0; i < first.events.size(); ++i) {
      EXPECT_EQ(first.events[i].SerializeAsString(), second.events[i].SerializeAsString());
    }
  }
}

// Guards: Go is refused until Ready arrives.
struct Go {};
struct Ready {};
class Gate : public Actor {
 public:
  Gate() {
    on([](const Go&) {});
    on([this](const Ready&) { ready_ = true; });
    guard<Go>([this](const Go&) { return ready_; });
  }

 private:
  bool ready_ = false;
};

TEST(ControlledRuntime, GuardedMessagesStayPendingUntilAccepted) {
  auto run = run_controlled(request(), [](System& system) {
    auto gate = system.spawn<Gate>();
    system.send(gate, Go{});
    system.send(gate, Ready{});
  });
  EXPECT_EQ(schedule_of(run), (Ids{"env#2", "env#1"}));
  EXPECT_EQ(ids_of(run.events[1].enabled()), (Ids{"env#2"}));
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
}

TEST(ControlledRuntime, AMessageNoGuardWillEverAcceptIsADeadlock) {
  auto run = run_controlled(request(), [](System& system) { system.send(system.spawn<Gate>(), Go{}); });
  EXPECT_EQ(run.result.status(), proto::RUN_DEADLOCK);
  ASSERT_EQ(run.result.pending_size(), 1);
  EXPECT_EQ(run.result.pending(0).id(), "env#1");
  EXPECT_EQ(run.result.pending(0).receiver(), "0");
  EXPECT_EQ(run.result.pending(0).type(), "Go");
}

proto::RunRequest with_sleep(proto::RunRequest r, const Ids& sleep) {
  for (const auto& id : sleep) r.add_sleep(id);
  return r;
}

TEST(ControlledRuntime, SleepingMessagesAreNotChosenUntilAStepOfTheirReceiverWakesThem) {
  auto run = run_controlled(with_sleep(request(proto::FIFO), {"0#1"}), registry_program);
  // 0#1 (to the registry 0.1) sleeps through the workers' steps; the registry's first step wakes it.
  EXPECT_EQ(schedule_of(run), (Ids{"0#2", "0#3", "0.2#1", "0#1", "0.3#1"}));
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
}

TEST(ControlledRuntime, SleepAppliesOnlyAfterThePrefix) {
  // 0#2 sleeps once the prefix is replayed; no step of its receiver 0.2 can wake it, so the run
  // ends sleep-blocked when it is the last message left.
  auto run = run_controlled(with_sleep(request(proto::FIFO, {"0#1"}), {"0#2"}), registry_program);
  EXPECT_EQ(schedule_of(run), (Ids{"0#1", "0#3", "0.3#1"}));
  EXPECT_EQ(run.result.status(), proto::RUN_SLEEP_BLOCKED);
}

TEST(ControlledRuntime, ARunWhoseEnabledMessagesAllSleepIsSleepBlocked) {
  auto run = run_controlled(with_sleep(request(), {"env#2"}), [](System& system) {
    auto gate = system.spawn<Gate>();
    system.send(gate, Go{});
    system.send(gate, Ready{});
  });
  EXPECT_EQ(run.result.status(), proto::RUN_SLEEP_BLOCKED);
  EXPECT_EQ(run.events.size(), 1u);
}

// Synchronous calls: the caller accepts only the reply while it waits.
struct Get {};
struct Poke {};
class Server : public Actor {
 public:
  explicit Server(bool answers) {
    on([this, answers](const Get&) {
      if (answers) reply(7);
    });
  }
};
class Client : public Actor {
 public:
  explicit Client(ActorRef server) {
    call<int>(server, Get{}, [this](int value) { got_ = value; });
    on([](const Poke&) {});
  }
  std::string final_state() const override { return "got " + std::to_string(got_); }

 private:
  int got_ = 0;
};

TEST(ControlledRuntime, ACallBlocksTheCallerUntilItsReplyIsDelivered) {
  auto run = run_controlled(request(), [](System& system) {
    auto server = system.spawn<Server>(true);
    auto client = system.spawn<Client>(server);
    system.send(client, Poke{});
  });
  EXPECT_EQ(schedule_of(run), (Ids{"1#1", "0#1", "env#1"}));
  EXPECT_EQ(ids_of(run.events[1].enabled()), (Ids{"1#1"}));
  EXPECT_EQ(ids_of(run.events[2].enabled()), (Ids{"0#1"}));
  EXPECT_EQ(run.events[2].type(), "Reply");
  EXPECT_TRUE(run.events[2].reply());
  EXPECT_FALSE(run.events[1].reply());
  EXPECT_FALSE(run.events[3].reply());
  EXPECT_EQ(run.events[2].summary(), "Reply{value=7}");
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(ids_of(run.result.final_state()), (Ids{"1: got 7"}));
}

TEST(ControlledRuntime, ACallThatIsNeverAnsweredIsADeadlockNamingTheWaitingActor) {
  auto run = run_controlled(request(), [](System& system) {
    auto server = system.spawn<Server>(false);
    auto client = system.spawn<Client>(server);
    system.send(client, Poke{});
  });
  EXPECT_EQ(run.result.status(), proto::RUN_DEADLOCK);
  ASSERT_EQ(run.result.blocked_size(), 1);
  EXPECT_EQ(run.result.blocked(0).actor(), "1");
  EXPECT_EQ(run.result.blocked(0).waiting_for(), "1#1");
  ASSERT_EQ(run.result.pending_size(), 1);
  EXPECT_EQ(run.result.pending(0).id(), "env#1");
}

// Destroy: what is pending for the actor, and what is sent to it later, are dead letters.
struct Kill {};
struct Ping {};
class Mortal : public Actor {
 public:
  Mortal() {
    on([this](const Kill&) { destroy(); });
    on([](const Ping&) {});
  }
};
class Sender : public Actor {
 public:
  explicit Sender(ActorRef target) : target_(target) {
    on([this](const Ping&) { send(target_, Ping{}); });
  }

 private:
  ActorRef target_;
};

TEST(ControlledRuntime, MessagesForADestroyedActorAreDeadLetters) {
  auto run = run_controlled(request(proto::FIFO, {"env#1"}), [](System& system) {
    auto mortal = system.spawn<Mortal>();
    auto sender = system.spawn<Sender>(mortal);
    system.send(mortal, Kill{});
    system.send(mortal, Ping{});
    system.send(sender, Ping{});
  });
  EXPECT_EQ(schedule_of(run), (Ids{"env#1", "env#3"}));
  EXPECT_TRUE(run.events[1].destroyed());
  EXPECT_EQ(ids_of(run.events[1].dead_letters()), (Ids{"env#2"}));
  EXPECT_EQ(ids_of(run.events[2].dead_letters()), (Ids{"1#1"}));
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(ids_of(run.result.dead_letters()), (Ids{"env#2", "1#1"}));
}

// Verdicts of single steps.
struct Bounce {
  ActorRef other;
};
class Bouncer : public Actor {
 public:
  Bouncer() {
    on([this](const Bounce& m) { send(m.other, Bounce{self()}); });
  }
};

TEST(ControlledRuntime, ANonTerminatingProgramStopsAtTheStepLimit) {
  auto run = run_controlled(request(proto::FIFO, {}, 10), [](System& system) {
    auto a = system.spawn<Bouncer>();
    auto b = system.spawn<Bouncer>();
    system.send(a, Bounce{b});
  });
  EXPECT_EQ(run.result.status(), proto::RUN_STEP_LIMIT);
  EXPECT_EQ(run.result.steps(), 10u);
  EXPECT_EQ(run.events.size(), 11u);
}

struct Fail {
  bool swallow = false;
};
struct Throw {};
class Checker : public Actor {
 public:
  Checker() {
    on([](const Fail& m) {
      try {
        check(1 + 1 == 3, "arithmetic still works");
      } catch (...) {
        if (!m.swallow) throw;
      }
    });
    on([](const Throw&) { throw std::runtime_error("boom"); });
  }
};

TEST(ControlledRuntime, AFailedCheckIsTheRunsVerdictWithItsText) {
  for (bool swallow : {false, true}) {
    auto run =
        run_controlled(request(), [swallow](System& system) { system.send(system.spawn<Checker>(), Fail{swallow}); });
    EXPECT_EQ(run.result.status(), proto::RUN_ASSERTION_FAILED) << "swallowed: " << swallow;
    ASSERT_EQ(run.events.size(), 2u);
    EXPECT_EQ(run.events[1].outcome(), proto::STEP_ASSERTION_FAILED);
    EXPECT_EQ(run.events[1].detail(), "arithmetic still works");
    EXPECT_NE(run.result.detail().find("env#1"), std::string::npos);
  }
}

TEST(ControlledRuntime, AFailedCheckEndsItsActorButNotTheRun) {
  // The failed actor's pending message becomes a dead letter; the other actor goes on, so that
  // exploration still sees what happens after the failure.
  auto run = run_controlled(request(), [](System& system) {
    auto checker = system.spawn<Checker>();
    auto gate = system.spawn<Gate>();
    system.send(checker, Fail{});
    system.send(checker, Throw{});
    system.send(gate, Ready{});
  });
  EXPECT_EQ(schedule_of(run), (Ids{"env#1", "env#3"}));
  EXPECT_TRUE(run.events[1].destroyed());
  EXPECT_EQ(ids_of(run.events[1].dead_letters()), (Ids{"env#2"}));
  EXPECT_EQ(run.result.status(), proto::RUN_ASSERTION_FAILED);
  EXPECT_NE(run.result.detail().find("at step 1"), std::string::npos);
}

TEST(ControlledRuntime, ASleepBlockedRunIsRedundantEvenAfterAFailedCheck) {
  // The explored path of the same class fails the same check and reports it; this cut-short
  // run must not count as a class of its own.
  auto run = run_controlled(with_sleep(request(), {"env#2"}), [](System& system) {
    auto checker = system.spawn<Checker>();
    auto gate = system.spawn<Gate>();
    system.send(checker, Fail{});
    system.send(gate, Ready{});
  });
  EXPECT_EQ(schedule_of(run), (Ids{"env#1"}));
  EXPECT_EQ(run.events[1].outcome(), proto::STEP_ASSERTION_FAILED);
  EXPECT_EQ(run.result.status(), proto::RUN_SLEEP_BLOCKED);
}

TEST(ControlledRuntime, AnUncaughtExceptionEndsTheRun) {
  auto run = run_controlled(request(), [](System& system) { system.send(system.spawn<Checker>(), Throw{}); });
  EXPECT_EQ(run.result.status(), proto::RUN_EXCEPTION);
  EXPECT_EQ(run.events[1].outcome(), proto::STEP_EXCEPTION);
  EXPECT_EQ(run.events[1].detail(), "boom");
}

TEST(ControlledRuntime, AMessageWithoutHandlerIsAnException) {
  auto run = run_controlled(request(), [](System& system) { system.send(system.spawn<Gate>(), Poke{}); });
  EXPECT_EQ(run.result.status(), proto::RUN_EXCEPTION);
  EXPECT_NE(run.events[1].detail().find("no handler for Poke"), std::string::npos);
}

}  // namespace
}  // namespace exocheck::testing
