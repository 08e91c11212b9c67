#pragma once
// A tiny actor program that answers run requests the way the hook would, with no process: main
// sends Ping env#1 and env#2 (or more: FakeBehaviour::pings) to actor "0"; each delivery is one
// step of "0". Two classes (the two delivery orders), so every reduction explores two paths.

#include <vector>

#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::coordinator::testing {

/// What a fake run produced.
struct FakeRun {
  std::vector<proto::Event> events;  ///< step 0, then one event per delivery
  proto::RunResult result;
};

/// How the fake program misbehaves.
struct FakeBehaviour {
  bool fail_when_env2_first = false;  ///< a check fails when env#2 is delivered before env#1
  bool destroy_after_first = false;   ///< "0" destroys itself on its first message: the other is a dead letter
  bool remember_last = false;         ///< "0" ends in state "0: last <message delivered last>"
  int pings = 2;                      ///< env#1 .. env#pings: pings! classes
};

/// Runs the request's prefix, then FIFO order (sleep sets are not modelled: they never block here).
FakeRun run_fake(const proto::RunRequest& request, FakeBehaviour behaviour = {});

}  // namespace exocheck::coordinator::testing
