// primary-backup: a counter replicated on a primary and a backup by the primary-backup approach
// (Budhiraja, Marzullo, Schneider and Toueg, "The Primary-Backup Approach", in Mullender (ed.),
// "Distributed Systems", 2nd ed., 1993, ch. 8: the primary sends each update to its backup and
// answers the client only once the backup has acknowledged it; Kleppmann, "Designing
// Data-Intensive Applications", 2017, ch. 5, synchronous replication to a follower), with a client
// that resends a write whose acknowledgement does not come, and replicas that apply whatever they
// receive: the duplicate that Kleppmann's ch. 12 ("Duplicate suppression", "Operation
// identifiers") warns of.
//
// The client adds --amount to the counter: it sends Write{request, amount} to the primary and arms
// a timer; the primary forwards the write to the backup, the backup applies it and acknowledges
// (ForwardAck), the primary then applies it and acknowledges the client (WriteAck). Acknowledged,
// the client audits both replicas: each must hold exactly --amount. Timed out, it sends the same
// write (same request id) again, once (--retries).
//
// The bug (default variant): an acknowledgement is lost (`--lose 1 --lossy-types
// ForwardAck,WriteAck`). The client times out and retries, and the replica that had applied the
// write applies it again: the backup (ForwardAck lost) or both replicas (WriteAck lost) hold twice
// the amount, and the client's audit fails. Explored with `--timers quiescent` (messages are fast,
// timeouts long: the timer fires only when nothing else can happen) there is no bug without the
// loss; under the default `--timers anytime` a late acknowledgement does the same as a lost one
// (the `retry` subject).
//
// With --fixed, both replicas remember the request ids they applied: a repeated write is
// acknowledged again and not applied (the primary forwards it again if the backup has not
// acknowledged it yet).
//
// The acknowledgements are plain messages, not replies of calls: reply() answers only the call
// being handled, and the primary can acknowledge the client only after a later message (the
// backup's acknowledgement). The client's timeout is therefore a timer of its own (after), which
// is what a call's timeout is.
//
// Started by hand nothing is lost, the write is acknowledged once and the audit passes.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <set>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;

/// main's word to the client to begin (main's own sends are never lost or duplicated).
struct Start {
  static constexpr const char* type_name = "Start";
};
/// Client to primary: add `amount`; `request` is the same in every retry.
struct Write {
  static constexpr const char* type_name = "Write";
  std::uint64_t request = 0;
  long amount = 0;
  void describe(exocheck::Describer& d) const { d("request", request)("amount", amount); }
};
/// Primary to backup: the same write.
struct Forward {
  static constexpr const char* type_name = "Forward";
  std::uint64_t request = 0;
  long amount = 0;
  void describe(exocheck::Describer& d) const { d("request", request)("amount", amount); }
};
/// Backup to primary: the write is applied at the backup.
struct ForwardAck {
  static constexpr const char* type_name = "ForwardAck";
  std::uint64_t request = 0;
  long amount = 0;
  void describe(exocheck::Describer& d) const { d("request", request)("amount", amount); }
};
/// Primary to client: the write is applied at both replicas.
struct WriteAck {
  static constexpr const char* type_name = "WriteAck";
  std::uint64_t request = 0;
  void describe(exocheck::Describer& d) const { d("request", request); }
};
/// The client's timer: the acknowledgement of `request` did not come in time.
struct AckTimeout {
  static constexpr const char* type_name = "AckTimeout";
  std::uint64_t request = 0;
  void describe(exocheck::Describer& d) const { d("request", request); }
};
/// The client's audit: a replica answers its counter.
struct Read {
  static constexpr const char* type_name = "Read";
};

class Backup : public exocheck::Actor {
 public:
  explicit Backup(bool fixed) {
    on([this, fixed](const Forward& f) {
      if (!fixed || applied_.insert(f.request).second) value_ += f.amount;
      send(sender(), ForwardAck{f.request, f.amount});
    });
    on([this](const Read&) { reply(value_); });
  }

  std::string final_state() const override { return "value=" + std::to_string(value_); }

 private:
  long value_ = 0;
  std::set<std::uint64_t> applied_;
};

class Primary : public exocheck::Actor {
 public:
  Primary(exocheck::ActorRef backup, bool fixed) : backup_(backup) {
    on([this, fixed](const Write& w) {
      client_ = sender();
      if (fixed && applied_.count(w.request) != 0) {
        send(client_, WriteAck{w.request});  // applied already: its acknowledgement was lost
        return;
      }
      send(backup_, Forward{w.request, w.amount});
    });
    on([this, fixed](const ForwardAck& a) {
      if (fixed && !applied_.insert(a.request).second) return;  // acknowledged already
      value_ += a.amount;
      send(client_, WriteAck{a.request});
    });
    on([this](const Read&) { reply(value_); });
  }

  std::string final_state() const override { return "value=" + std::to_string(value_); }

 private:
  exocheck::ActorRef backup_;
  exocheck::ActorRef client_;
  long value_ = 0;
  std::set<std::uint64_t> applied_;
};

class Client : public exocheck::Actor {
 public:
  Client(exocheck::ActorRef primary, exocheck::ActorRef backup, long amount, int retries)
      : primary_(primary), backup_(backup), amount_(amount), left_(retries) {
    on([this](const Start&) { attempt(); });
    on([this](const AckTimeout&) {
      if (acknowledged_) return;
      if (left_-- > 0) attempt();
    });
    on([this](const WriteAck&) {
      if (acknowledged_) return;
      acknowledged_ = true;
      cancel(timer_);
      audit();
    });
  }

  std::string final_state() const override { return acknowledged_ ? "acknowledged" : "gave up"; }

 private:
  void attempt() {
    send(primary_, Write{1, amount_});
    timer_ = after(100ms, AckTimeout{1});
  }

  /// Both replicas must hold the one write that was acknowledged, once.
  void audit() {
    call<long>(primary_, Read{}, [this](long primary) {
      expect("primary", primary);
      call<long>(backup_, Read{}, [this](long backup) { expect("backup", backup); });
    });
  }

  void expect(const std::string& replica, long value) const {
    exocheck::check(value == amount_, replica + " holds " + std::to_string(value) + " after one write of " +
                                          std::to_string(amount_) + ": a retried write was applied twice");
  }

  exocheck::ActorRef primary_;
  exocheck::ActorRef backup_;
  long amount_;
  int left_;
  bool acknowledged_ = false;
  exocheck::Timer timer_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"primary-backup: a client writes to a primary that replicates to a backup, and retries on timeout"};
  long amount = 10;
  int retries = 1;
  bool fixed = false;
  app.add_option("--amount", amount, "the write: added to the counter")->capture_default_str();
  app.add_option("--retries", retries, "retries of a write whose acknowledgement did not come")
      ->check(CLI::Range(0, 5))
      ->capture_default_str();
  app.add_flag("--fixed", fixed, "both replicas apply a request id once (duplicate suppression)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto backup = system.spawn<Backup>(fixed);
  const auto primary = system.spawn<Primary>(backup, fixed);
  const auto client = system.spawn<Client>(primary, backup, amount, retries);
  system.send(client, Start{});
  const int code = system.run();
  if (!system.controlled()) std::cout << "primary-backup: done" << std::endl;
  return code;
}
