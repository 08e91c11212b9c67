#include "paper_programs.hpp"

namespace exocheck::engine::testing {

using Op = Action::Op;

Program registry_program(int workers) {
  enum Types { kMaster, kRegistry, kWorker };
  enum Messages { kRegister, kAddress };
  Program program;
  program.message_names = {"Register", "RegistryAddress"};
  ActorType master{"Master", {}, {}, {}, {}};
  master.constructor.push_back({.op = Op::kSpawn, .type = kRegistry, .slot = 0});
  master.constructor.push_back({.op = Op::kSend, .type = kRegister, .slot = 0, .carry = Target::kSelf});
  for (int w = 1; w <= workers; ++w) master.constructor.push_back({.op = Op::kSpawn, .type = kWorker, .slot = w});
  for (int w = 1; w <= workers; ++w) {
    master.constructor.push_back(
        {.op = Op::kSend, .type = kAddress, .slot = w, .carry = Target::kSlot, .carry_slot = 0});
  }
  ActorType registry{"Registry", {}, {{kRegister, {}}}, {}, {}};
  ActorType worker{"Worker",
                   {},
                   {{kAddress, {{.op = Op::kSend, .type = kRegister, .to = Target::kCarried, .carry = Target::kSelf}}}},
                   {},
                   {}};
  program.types = {master, registry, worker};
  program.roots = {kMaster};
  return program;
}

Program pi_program(int workers) {
  enum Types { kMaster, kWorker };
  enum Messages { kStart, kIntervals, kSum, kStop };
  Program program;
  program.message_names = {"Start", "Intervals", "Sum", "Stop"};
  ActorType master{"Master", {}, {}, {}, {}};
  Handler start;
  Handler sum;
  for (int w = 0; w < workers; ++w) {
    master.constructor.push_back({.op = Op::kSpawn, .type = kWorker, .slot = w});
    start.push_back({.op = Op::kSend, .type = kIntervals, .slot = w, .carry = Target::kSelf});
    sum.push_back({.op = Op::kSend, .type = kStop, .slot = w, .when_count = workers + 1});
  }
  sum.push_back({.op = Op::kDestroy, .when_count = workers + 1});
  master.handlers = {{kStart, start}, {kSum, sum}};
  ActorType worker{
      "Worker",
      {},
      {{kIntervals, {{.op = Op::kSend, .type = kSum, .to = Target::kCarried}}}, {kStop, {{.op = Op::kDestroy}}}},
      {},
      {}};
  program.types = {master, worker};
  program.roots = {kMaster};
  program.initial = {{0, kStart, 0}};
  return program;
}

}  // namespace exocheck::engine::testing
