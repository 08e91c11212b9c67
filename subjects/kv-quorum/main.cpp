// kv-quorum: a register replicated on three nodes and read and written by quorums (Gifford,
// "Weighted Voting for Replicated Data", SOSP 1979; Attiya, Bar-Noy and Dolev, "Sharing Memory
// Robustly in Message-Passing Systems", JACM 42(1), 1995; Kleppmann, "Designing Data-Intensive
// Applications", 2017, ch. 5, "Quorums for reading and writing": with n replicas, a write
// acknowledged by w of them and a read answered by r of them, w + r > n makes every read quorum
// meet every write quorum), and the failure that breaks the intersection (Kleppmann, ch. 5,
// "Limitations of Quorum Consistency": a node that carried the new value fails and comes back
// without it, and the replicas holding the value fall below w).
//
// The client writes --value with version 1 to all three replicas and counts the write as
// acknowledged once W = --write-quorum (2) of them have acknowledged it; then it reads from all
// three, takes the value with the highest version among the first R = --read-quorum (2) replies,
// and checks that it is the value written. A replica keeps the value with the highest version it
// was sent; it is restarted by its supervisor (restart_as) after a crash.
//
// The bug (default variant): a replica keeps its value only in memory, and a restarted one starts
// empty. With the write to one replica lost (a partition cutting it off the client while the write
// is in flight: `--lose 1 --lossy-types Write`) and one of the two replicas that acknowledged it
// crashing and restarting (`--crash 1 --crash-types Replica`), the read quorum can be the replica
// that missed the write and the one that forgot it: the read returns the initial value after the
// write was acknowledged. The loss alone is not enough (the quorums intersect); a crash is needed,
// but `--crash 1` lets every replica crash once, and two replicas that acknowledged and forgot
// suffice without the loss. Under the default unordered delivery a write still in flight to a
// replica that is read first is as good as lost; under `--delivery fifo` a single crash needs the
// loss. Without faults there is no bug.
//
// With --fixed, a replica writes the value to its "disk" (a shared_ptr given through restart_as,
// which outlives the crash) before it acknowledges, and a restarted replica reads it back: no bug
// under the same faults.
//
// The client is the test's observer and does not crash (crashable(false)). Started by hand
// nothing fails, and the read returns the value written.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

/// main's word to the client to begin (main's own sends are never lost, the client's are).
struct Start {
  static constexpr const char* type_name = "Start";
};
/// Client to replica: store `value` unless it holds a higher version.
struct Write {
  static constexpr const char* type_name = "Write";
  int version = 0;
  long value = 0;
  void describe(exocheck::Describer& d) const { d("version", version)("value", value); }
};
struct WriteAck {
  static constexpr const char* type_name = "WriteAck";
  int replica = 0;
  int version = 0;
  void describe(exocheck::Describer& d) const { d("replica", replica)("version", version); }
};
struct Read {
  static constexpr const char* type_name = "Read";
};
struct ReadReply {
  static constexpr const char* type_name = "ReadReply";
  int replica = 0;
  int version = 0;
  long value = 0;
  void describe(exocheck::Describer& d) const { d("replica", replica)("version", version)("value", value); }
};

/// A replica's stable storage: it survives a crash.
struct Disk {
  int version = 0;
  long value = 0;
};

class Replica : public exocheck::Actor {
 public:
  Replica(int index, std::shared_ptr<Disk> disk, bool fixed) : index_(index), disk_(std::move(disk)) {
    restart_as<Replica>(index, disk_, fixed);  // its supervisor restarts it after a crash
    if (fixed) {
      version_ = disk_->version;  // recovery: what was acknowledged is on disk
      value_ = disk_->value;
    }
    on([this, fixed](const Write& w) {
      if (w.version > version_) {
        version_ = w.version;
        value_ = w.value;
        if (fixed) *disk_ = Disk{version_, value_};  // durable before it is acknowledged
      }
      send(sender(), WriteAck{index_, w.version});
    });
    on([this](const Read&) { send(sender(), ReadReply{index_, version_, value_}); });
  }

  std::string final_state() const override {
    return "version=" + std::to_string(version_) + " value=" + std::to_string(value_);
  }

 private:
  int index_;
  std::shared_ptr<Disk> disk_;
  int version_ = 0;
  long value_ = 0;
};

class Client : public exocheck::Actor {
 public:
  Client(std::vector<exocheck::ActorRef> replicas, long value, int write_quorum, int read_quorum)
      : replicas_(std::move(replicas)), value_(value), write_quorum_(write_quorum), read_quorum_(read_quorum) {
    crashable(false);  // the test's observer, not part of the system under test
    on([this](const Start&) {
      for (const auto& replica : replicas_) send(replica, Write{1, value_});
    });
    on([this](const WriteAck&) {
      if (++acks_ != write_quorum_) return;
      // Acknowledged by a write quorum: a read from now on must return it.
      for (const auto& replica : replicas_) send(replica, Read{});
    });
    on([this](const ReadReply& r) {
      if (++replies_ > read_quorum_) return;  // a read quorum has answered already
      if (r.version > best_.version) best_ = r;
      if (replies_ < read_quorum_) return;
      exocheck::check(best_.value == value_, "read returned " + std::to_string(best_.value) + " (version " +
                                                 std::to_string(best_.version) + ") after the write of " +
                                                 std::to_string(value_) + " was acknowledged by " +
                                                 std::to_string(write_quorum_) + " replicas");
    });
  }

  std::string final_state() const override {
    if (replies_ < read_quorum_) return acks_ < write_quorum_ ? "write not acknowledged" : "read unanswered";
    return "read " + std::to_string(best_.value);
  }

 private:
  std::vector<exocheck::ActorRef> replicas_;
  long value_;
  int write_quorum_;
  int read_quorum_;
  int acks_ = 0;
  int replies_ = 0;
  ReadReply best_;  // the reply with the highest version so far (version 0: the initial value)
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kv-quorum: a register on three replicas, written and read by quorums; replicas may crash"};
  long value = 42;
  int write_quorum = 2;
  int read_quorum = 2;
  bool fixed = false;
  app.add_option("--value", value, "the value written (the initial value is 0)")->capture_default_str();
  app.add_option("--write-quorum", write_quorum, "W: acknowledgements that make a write acknowledged")
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  app.add_option("--read-quorum", read_quorum, "R: replies a read waits for")
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  app.add_flag("--fixed", fixed, "a replica writes to its disk before acknowledging and recovers from it");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  std::vector<exocheck::ActorRef> replicas;
  for (int i = 0; i < 3; ++i) replicas.push_back(system.spawn<Replica>(i, std::make_shared<Disk>(), fixed));
  const auto client = system.spawn<Client>(replicas, value, write_quorum, read_quorum);
  system.send(client, Start{});
  const int code = system.run();
  if (!system.controlled()) std::cout << "kv-quorum: done" << std::endl;
  return code;
}
