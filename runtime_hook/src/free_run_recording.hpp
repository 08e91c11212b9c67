#pragma once
// Recording a free run (exocheck record; EXOCHECK_RECORD=LOG for a program a test harness starts):
// the thread-pool runtime (and the CAF adapter, caf_recording.hpp) writes each delivery to LOG,
// so that a run that fails elsewhere (a flaky CI job) leaves the order in which each actor
// received its messages, which `exocheck replay` follows under control (DESIGN.md, "Recorded runs").
//
// A step's place is its Lamport time: one more than the latest of its actor's previous step's and
// its message's sending step's. Sorted by it, the steps are a schedule a controlled run can follow
// (a message's delivery after its send, an actor's steps in their order) with no counter the
// threads share. Each thread appends a record per step, as the step ends (after its sends woke
// their receivers: off the path from one step to the next), to a buffer of its own, written to
// LOG with one write(2) when it fills, when the run ends, and from a fatal signal's handler,
// which writes every thread's committed records and the step the crashing thread was in: nothing
// recorded before a crash is lost. A step of the thread-pool runtime's that ended well is a
// compact binary record (exocheck/wire/free_run_log.hpp) naming its actor, sender and type by
// index; the others are lines, fields separated by tabs (tabs, newlines and backslashes escaped):
//   V <version>                                   first: the log's format version (wire/free_run_log.hpp)
//   P <program> <arg>...                          then the process's command line
//   A <index> <actor id>                          what compact records after it call actor <index>
//   T <index> <type name>                         likewise a message type
//   S <time> <actor> <message> <type> <outcome> <range>/<value>,... <detail>
//                                                 a step (outcome: ok, assertion, exception; the
//                                                 values choose() drew)
//   X <time> <actor> <message> <type>             the process died in that step (a fatal signal)
//   I <time> <actor> <message> <type>             another thread was in that step then
//   D <detail>                                    the run ended in a deadlock
//   F <outcome> <detail>                          a check failed outside any step
//   U <construct>                                 the run did what a replay cannot follow yet

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "exocheck/detail/actor_cell.hpp"
#include "exocheck/detail/envelope.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

/// What a step's record names: its actor, its message and the message's type. The strings live until
/// the step's end (a signal handler may read them while it runs), as do `cell` and `envelope`: the
/// thread-pool runtime's step, whose compact record gives them as numbers (null: a CAF step's).
struct RecordedStep {
  const std::string* actor;
  const std::string* message;
  const std::string* type;
  const ActorCell* cell = nullptr;
  const Envelope* envelope = nullptr;
};

class FreeRunRecorder {
 public:
  /// The environment variable naming the log ("%p" in it: the process id); unset or empty: no
  /// recording.
  static constexpr const char* kEnvironment = "EXOCHECK_RECORD";
  /// The recorder of this process when EXOCHECK_RECORD names a log it could open; else null.
  static FreeRunRecorder* from_environment();

  /// The Lamport time of the step that delivers `envelope` to `cell`, which it takes: called with
  /// the cell's lock held (a monitor's request is a step at its receiver, from another thread).
  static std::uint64_t step_time(ActorCell& cell, const Envelope& envelope);
  /// What a message sent now carries: the time of its sender's step in progress (its latest), 0
  /// for main's.
  static std::uint64_t time_of_sender(const Envelope& envelope) {
    return envelope.sender != nullptr ? envelope.sender->recorded_time : 0;
  }

  /// A step begins on this thread at `time` (`cell` and `envelope` live until it ends).
  void begin_step(const ActorCell& cell, const Envelope& envelope, std::uint64_t time);
  /// The same for a step the runtime does not deliver itself (a CAF actor's, caf_recording.cpp).
  void begin_step(const RecordedStep& step, std::uint64_t time);
  /// The step in progress on this thread did not happen after all (CAF skipped its message, which
  /// stays in the mailbox): no line.
  void cancel_step();
  /// exocheck::choose() answered `value` of `range` in the step in progress on this thread.
  void note_choice(std::uint32_t range, std::uint32_t value);
  /// The step in progress on this thread ends: its line.
  void end_step(proto::StepOutcome outcome, std::string_view detail);
  /// A step the runtime takes itself within another step on this thread (a monitor's request,
  /// which the controlled runtime delivers at its receiver): begun and ended at once.
  void runtime_step(const ActorCell& cell, const Envelope& envelope, std::uint64_t time);
  void deadlock(std::string_view detail);
  /// A check failed outside any step (a CAF actor's initial code): a line "F <outcome> <detail>".
  void failed_outside_step(proto::StepOutcome outcome, std::string_view detail);
  /// The run did what a recording cannot replay yet (`construct`): a line "U <construct>", which
  /// makes `exocheck record` refuse the trace, naming it.
  void unrecordable(std::string_view construct);
  /// Writes what this thread holds.
  void flush();
  /// Writes every thread's committed lines; async-signal-safe. Called as the run ends (the pool's
  /// threads have ended) and by the fatal signal handler.
  void flush_all() noexcept;
  /// The fatal signal handler's: every thread's lines, then the step this thread was in.
  void died() noexcept;

  /// One thread's lines (free_run_recording.cpp).
  struct ThreadLines;

 private:
  explicit FreeRunRecorder(int fd);
  ThreadLines& lines();
  void write_command_line();
  /// Where a line of at most `bytes` goes on this thread (what is held is written first if need be).
  char* room_for(ThreadLines& mine, std::size_t bytes);
  /// The line from `line` to `end` is whole: a signal handler may write it.
  void commit(ThreadLines& mine, const char* line, const char* end);
  /// The step's compact record, after the lines naming what it numbers if this thread has not
  /// written them yet; false when it has none (a CAF step, a message named otherwise).
  bool commit_compact(ThreadLines& mine, const RecordedStep& step, std::uint64_t time);
  /// Writes a line "A <index> <id>" ("T <index> <name>") unless this thread wrote it already.
  void name_actor(ThreadLines& mine, const ActorCell& cell);
  void name_type(ThreadLines& mine, const MessageType& type);
  /// The slow half of both: `named` grown to hold `index`.
  void name(ThreadLines& mine, std::vector<bool>& named, std::size_t index, char kind, const std::string& text);

  int fd_;
};

}  // namespace exocheck::detail
