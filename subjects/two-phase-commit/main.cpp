// two-phase-commit: atomic commitment by two-phase commit (Gray, "Notes on Data Base Operating
// Systems", 1978; Bernstein, Hadzilacos and Goodman, "Concurrency Control and Recovery in Database
// Systems", 1987, ch. 7), and the failure that makes it hard: the coordinator crashing while
// participants that voted yes are uncertain.
//
// The coordinator asks every participant to prepare; each votes yes and is then uncertain: it may
// neither commit nor abort until it hears the decision. Once every vote is yes the coordinator
// writes commit to its log and sends the decision to everyone. A participant monitors the
// coordinator from the start; told that it ended before the participant voted, it aborts on its
// own, which is allowed (Bernstein et al., 7.4, "unilateral abort").
//
// The bug (default variant): a participant that voted yes and is told that the coordinator ended
// also aborts on its own, a "timeout" the textbook forbids. If the coordinator crashes right after
// sending commit, one participant may receive the commit and another the news of the crash first:
// they decide differently, and the client, which asks every participant for its outcome, fails
// its check. It takes a crash (`--crash 1 --crash-types Coordinator`): without faults every run
// commits everywhere.
//
// With --fixed, an uncertain participant waits, and the coordinator is restarted by its supervisor
// (restart_as) from its log: a decision logged is sent again, no decision logged becomes abort
// (presumed abort). No bug under `--crash 1 --crash-types Coordinator`. (Had the coordinator stayed
// down, the participants would block, which two-phase commit cannot avoid.)
//
// Started by hand nothing crashes, and every participant commits.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Begin {
  static constexpr const char* type_name = "Begin";
};
struct Prepare {
  static constexpr const char* type_name = "Prepare";
};
struct Vote {
  static constexpr const char* type_name = "Vote";
  int participant = 0;
  bool yes = true;
  void describe(exocheck::Describer& d) const { d("participant", participant)("yes", yes); }
};
struct Decision {
  static constexpr const char* type_name = "Decision";
  bool commit = false;
  void describe(exocheck::Describer& d) const { d("commit", commit); }
};
/// The client's question to a participant, answered once it has decided.
struct Outcome {
  static constexpr const char* type_name = "Outcome";
};

/// The coordinator's stable storage: it survives a crash.
struct Log {
  bool began = false;
  std::optional<bool> decision;
};

const char* name_of(bool commit) {
  return commit ? "commit" : "abort";
}

class Participant : public exocheck::Actor {
 public:
  Participant(int index, exocheck::ActorRef coordinator, bool fixed) {
    monitor(coordinator);
    on([this, index](const Prepare&) {
      if (decision_) return;  // it aborted on its own before it was asked
      voted_ = true;
      send(sender(), Vote{index, true});
    });
    on([this](const Decision& d) {
      if (!decision_) decision_ = d.commit;
    });
    on([this, fixed](const exocheck::Down&) {
      if (decision_) return;
      // Before voting a participant may abort alone; after voting yes it must wait (--fixed).
      if (!voted_ || !fixed) decision_ = false;
    });
    on([this](const Outcome&) { reply(std::string(name_of(*decision_))); });
    guard<Outcome>([this](const Outcome&) { return decision_.has_value(); });
  }

  std::string final_state() const override { return decision_ ? name_of(*decision_) : "uncertain"; }

 private:
  bool voted_ = false;
  std::optional<bool> decision_;
};

class Coordinator : public exocheck::Actor {
 public:
  /// Spawns `count` participants (ids 0.1, 0.2, ...) the first time, and tells main who they are
  /// (`roster`); a restart is given them.
  Coordinator(int count, std::vector<exocheck::ActorRef> participants, std::shared_ptr<Log> log, bool fixed,
              std::vector<exocheck::ActorRef>* roster)
      : participants_(std::move(participants)), log_(std::move(log)) {
    for (int i = static_cast<int>(participants_.size()); i < count; ++i) {
      participants_.push_back(spawn<Participant>(i, self(), fixed));
    }
    if (roster != nullptr) *roster = participants_;
    if (fixed) {
      restart_as<Coordinator>(count, participants_, log_, fixed,
                              static_cast<std::vector<exocheck::ActorRef>*>(nullptr));
      recover();
    }
    on([this](const Begin&) {
      log_->began = true;
      for (const auto& participant : participants_) send(participant, Prepare{});
    });
    on([this](const Vote& vote) {
      if (log_->decision) return;  // decided already (a late vote after a recovery)
      if (!vote.yes) return decide(false);
      if (++yes_ == static_cast<int>(participants_.size())) decide(true);
    });
  }

  std::string final_state() const override {
    return log_->decision ? std::string("decided ") + name_of(*log_->decision) : "undecided";
  }

 private:
  /// After a crash: what the log says is sent again; a transaction begun and not decided aborts.
  void recover() {
    if (!log_->began) return;
    if (!log_->decision) log_->decision = false;
    for (const auto& participant : participants_) send(participant, Decision{*log_->decision});
  }

  void decide(bool commit) {
    log_->decision = commit;  // logged before anyone is told
    for (const auto& participant : participants_) send(participant, Decision{commit});
  }

  std::vector<exocheck::ActorRef> participants_;
  std::shared_ptr<Log> log_;
  int yes_ = 0;
};

/// The transaction's client: begins it, then asks each participant for its outcome in turn.
class Client : public exocheck::Actor {
 public:
  Client(exocheck::ActorRef coordinator, std::vector<exocheck::ActorRef> participants)
      : participants_(std::move(participants)) {
    crashable(false);  // the test's observer, not part of the system under test
    send(coordinator, Begin{});
    ask(0);
  }

  std::string final_state() const override { return std::to_string(outcomes_.size()) + " outcomes"; }

 private:
  void ask(std::size_t next) {
    call<std::string>(participants_[next], Outcome{}, [this, next](const std::string& outcome) {
      outcomes_.push_back(outcome);
      if (next + 1 < participants_.size()) return ask(next + 1);
      for (const auto& other : outcomes_) {
        exocheck::check(other == outcomes_.front(),
                        "participants decided differently: " + outcomes_.front() + " and " + other);
      }
    });
  }

  std::vector<exocheck::ActorRef> participants_;
  std::vector<std::string> outcomes_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"two-phase-commit: a coordinator and participants commit a transaction; the coordinator may crash"};
  int participants = 2;
  bool fixed = false;
  app.add_option("--participants", participants, "participants")->check(CLI::Range(1, 6))->capture_default_str();
  app.add_flag("--fixed", fixed,
               "an uncertain participant waits for the decision; the coordinator recovers from its log");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  // The coordinator spawns the participants, which monitor it; the client learns them from it.
  std::vector<exocheck::ActorRef> roster;
  const auto coordinator = system.spawn<Coordinator>(participants, std::vector<exocheck::ActorRef>{},
                                                     std::make_shared<Log>(), fixed, &roster);
  system.spawn<Client>(coordinator, roster);
  const int code = system.run();
  if (!system.controlled()) std::cout << "two-phase-commit: done" << std::endl;
  return code;
}
