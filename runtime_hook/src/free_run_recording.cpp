#include "free_run_recording.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "exocheck/actor.hpp"
#include "exocheck/wire/free_run_log.hpp"

namespace exocheck::detail {

/// One thread's lines: written by that thread only; `committed` (release) is what a signal
/// handler may write, whole lines only.
struct FreeRunRecorder::ThreadLines {
  static constexpr std::size_t kSize = 1 << 16;
  std::array<char, kSize> data;  ///< not zeroed: a short run touches a page or two of it per thread
  std::atomic<std::size_t> committed{0};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> choices;  ///< the step in progress's
  std::vector<char> oversized;                                   ///< a line longer than `data`
  /// The actors and types whose "A" and "T" lines this thread wrote, by index.
  std::vector<bool> named_actors;
  std::vector<bool> named_types;
  /// The step in progress, for its line at its end, or died()'s: `in_step` (release) says `step`
  /// and `time` are whole.
  std::atomic<bool> in_step{false};
  RecordedStep step{};
  std::uint64_t time = 0;
};

namespace {

constexpr std::size_t kMostThreads = 1024;
/// Every thread's lines, for the signal handler: never freed (a thread's may be written after it ended).
std::array<std::atomic<FreeRunRecorder::ThreadLines*>, kMostThreads> all_lines{};
std::atomic<std::size_t> threads_seen{0};
FreeRunRecorder* the_recorder = nullptr;
thread_local FreeRunRecorder::ThreadLines* this_threads_lines = nullptr;  ///< null until it records

void write_all(int fd, const char* data, std::size_t size) noexcept {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void on_fatal_signal(int signal) {
  if (the_recorder != nullptr) the_recorder->died();
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

/// Writes a line into a buffer with room for it: no allocation, nothing a signal handler may not do.
class LineWriter {
 public:
  explicit LineWriter(char* at) : at_(at) {}
  /// The most bytes `text` takes escaped.
  static std::size_t room(std::string_view text) { return 2 * text.size() + 1; }

  LineWriter& raw(std::string_view text) {
    // Ids and names are a few bytes: a loop the compiler inlines beats a call into memcpy here.
    if (text.size() > 32) {
      std::memcpy(at_, text.data(), text.size());
      at_ += text.size();
      return *this;
    }
    for (const char c : text) *at_++ = c;
    return *this;
  }
  /// A field the runtime made (an actor or message id: digits, '.', '#', "env"): nothing to escape.
  LineWriter& id(std::string_view text) {
    *at_++ = '\t';
    return raw(text);
  }
  LineWriter& field(std::string_view text) {
    *at_++ = '\t';
    const auto special = [](char c) { return c == '\t' || c == '\n' || c == '\\'; };
    if (std::none_of(text.begin(), text.end(), special)) return raw(text);
    for (const char c : text) {
      if (special(c)) {
        *at_++ = '\\';
        *at_++ = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
      } else {
        *at_++ = c;
      }
    }
    return *this;
  }
  LineWriter& number(std::uint64_t value) {
    at_ = std::to_chars(at_, at_ + 20, value).ptr;
    return *this;
  }
  /// "<kind> <time> <actor> <message> <type>": what every step's line begins with.
  LineWriter& step(std::string_view kind, std::uint64_t time, const RecordedStep& step) {
    return raw(kind).raw("\t").number(time).id(*step.actor).id(*step.message).field(*step.type);
  }
  static std::size_t step_room(const RecordedStep& step) {
    return 32 + step.actor->size() + step.message->size() + room(*step.type);
  }
  char* end() {
    *at_++ = '\n';
    return at_;
  }

 private:
  char* at_;
};

const char* outcome_word(proto::StepOutcome outcome) {
  switch (outcome) {
    case proto::STEP_ASSERTION_FAILED:
      return "assertion";
    case proto::STEP_EXCEPTION:
      return "exception";
    default:
      return "ok";
  }
}

}  // namespace

FreeRunRecorder* FreeRunRecorder::from_environment() {
  static FreeRunRecorder* recorder = []() -> FreeRunRecorder* {
    const char* variable = std::getenv(kEnvironment);
    if (variable == nullptr || *variable == '\0') return nullptr;
    // "%p": this process's id, so that every process a test harness starts has a log of its own.
    std::string path(variable);
    if (const auto pid = path.find("%p"); pid != std::string::npos) path.replace(pid, 2, std::to_string(::getpid()));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return nullptr;
    the_recorder = new FreeRunRecorder(fd);  // lives as long as the process
    the_recorder->write_command_line();
    // The signals that end a process: a crash, and a harness's timeout or Ctrl-C (a free run that
    // waits for ever keeps what it did). A handler the program set already stays its own.
    for (const int signal : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT, SIGHUP}) {
      struct sigaction current {};
      if (::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
        ::signal(signal, on_fatal_signal);
    }
    return the_recorder;
  }();
  return recorder;
}

FreeRunRecorder::FreeRunRecorder(int fd) : fd_(fd) {}

FreeRunRecorder::ThreadLines& FreeRunRecorder::lines() {
  if (this_threads_lines == nullptr) {
    this_threads_lines = new ThreadLines;
    const std::size_t slot = threads_seen.fetch_add(1);
    if (slot < kMostThreads) all_lines[slot].store(this_threads_lines, std::memory_order_release);
  }
  return *this_threads_lines;
}

// "V <version>", then "P <program> <arg>...": what a trace made from the log alone (exocheck record
// --from) replays.
void FreeRunRecorder::write_command_line() {
  std::string words;
  if (const int fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC); fd >= 0) {
    char chunk[4096];
    for (ssize_t got; (got = ::read(fd, chunk, sizeof chunk)) > 0;) words.append(chunk, static_cast<std::size_t>(got));
    ::close(fd);
  }
  std::vector<std::string_view> fields;
  for (std::size_t start = 0; start < words.size();) {
    const std::size_t end = std::min(words.find('\0', start), words.size());
    fields.push_back(std::string_view(words).substr(start, end - start));
    start = end + 1;
  }
  // The version line first (wire/free_run_log.hpp), so that a reader of another version refuses.
  std::size_t bytes = 32;
  for (const auto field : fields) bytes += LineWriter::room(field);
  ThreadLines& mine = lines();
  char* line = room_for(mine, bytes);
  LineWriter writer(line);
  writer.raw(wire::free_run_log::kVersionLine).raw("\t").number(wire::free_run_log::kFormatVersion).end();
  writer.raw(wire::free_run_log::kCommandLine);
  for (const auto field : fields) writer.field(field);
  commit(mine, line, writer.end());
  flush();
}

char* FreeRunRecorder::room_for(ThreadLines& mine, std::size_t bytes) {
  const std::size_t used = mine.committed.load(std::memory_order_relaxed);
  if (used + bytes <= ThreadLines::kSize) return mine.data.data() + used;
  write_all(fd_, mine.data.data(), used);
  mine.committed.store(0, std::memory_order_release);
  if (bytes <= ThreadLines::kSize) return mine.data.data();
  mine.oversized.resize(bytes);  // a line longer than a buffer (a long detail): written alone
  return mine.oversized.data();
}

void FreeRunRecorder::commit(ThreadLines& mine, const char* line, const char* end) {
  if (line == mine.oversized.data()) {
    write_all(fd_, line, static_cast<std::size_t>(end - line));
    return;
  }
  mine.committed.store(static_cast<std::size_t>(end - mine.data.data()), std::memory_order_release);
}

std::uint64_t FreeRunRecorder::step_time(ActorCell& cell, const Envelope& envelope) {
  cell.recorded_time = std::max(cell.recorded_time, envelope.recorded_time) + 1;
  return cell.recorded_time;
}

// Nothing is written yet: the step's line goes out at its end, after its sends woke their
// receivers, off the path from one step to the next; died() writes it if the step never ends.
void FreeRunRecorder::begin_step(const ActorCell& cell, const Envelope& envelope, std::uint64_t time) {
  ThreadLines& mine = lines();
  // Field by field: a RecordedStep made on the caller's stack and copied stalled every step (its
  // 16-byte copies read what two 8-byte stores had just written).
  mine.step.actor = &cell.id;
  mine.step.message = &envelope.id;
  mine.step.type = envelope.type->name;
  mine.step.cell = &cell;
  mine.step.envelope = &envelope;
  mine.time = time;
  mine.in_step.store(true, std::memory_order_release);
}

void FreeRunRecorder::begin_step(const RecordedStep& step, std::uint64_t time) {
  ThreadLines& mine = lines();
  mine.step = step;
  mine.time = time;
  mine.in_step.store(true, std::memory_order_release);
}

void FreeRunRecorder::cancel_step() {
  ThreadLines& mine = lines();
  mine.in_step.store(false, std::memory_order_release);
  mine.choices.clear();
}

void FreeRunRecorder::note_choice(std::uint32_t range, std::uint32_t value) {
  lines().choices.emplace_back(range, value);
}

// A signal between the commit and the end of `in_step` writes the step twice: its reader counts
// it once. The other order would lose it.
void FreeRunRecorder::end_step(proto::StepOutcome outcome, std::string_view detail) {
  ThreadLines& mine = lines();
  if (outcome == proto::STEP_OK && mine.choices.empty() && detail.empty() &&
      commit_compact(mine, mine.step, mine.time)) {
    mine.in_step.store(false, std::memory_order_release);
    return;
  }
  char* line =
      room_for(mine, LineWriter::step_room(mine.step) + 24 * mine.choices.size() + LineWriter::room(detail) + 16);
  LineWriter writer(line);
  writer.step("S", mine.time, mine.step).field(outcome_word(outcome)).raw("\t");
  for (std::size_t i = 0; i < mine.choices.size(); ++i) {
    if (i > 0) writer.raw(",");
    writer.number(mine.choices[i].first).raw("/").number(mine.choices[i].second);
  }
  writer.field(detail);
  commit(mine, line, writer.end());
  mine.in_step.store(false, std::memory_order_release);
  mine.choices.clear();
}

inline void FreeRunRecorder::name_actor(ThreadLines& mine, const ActorCell& cell) {
  if (cell.index >= mine.named_actors.size() || !mine.named_actors[cell.index]) {
    name(mine, mine.named_actors, cell.index, 'A', cell.id);
  }
}

inline void FreeRunRecorder::name_type(ThreadLines& mine, const MessageType& type) {
  if (type.index >= mine.named_types.size() || !mine.named_types[type.index]) {
    name(mine, mine.named_types, type.index, 'T', *type.name);
  }
}

void FreeRunRecorder::name(ThreadLines& mine, std::vector<bool>& named, std::size_t index, char kind,
                           const std::string& text) {
  if (index >= named.size()) named.resize(std::max<std::size_t>(index + 1, 2 * named.size()));
  named[index] = true;
  char* line = room_for(mine, 32 + LineWriter::room(text));
  LineWriter writer(line);
  writer.raw(std::string_view(&kind, 1)).raw("\t").number(index).field(text);
  commit(mine, line, writer.end());
}

bool FreeRunRecorder::commit_compact(ThreadLines& mine, const RecordedStep& step, std::uint64_t time) {
  const Envelope* envelope = step.envelope;
  if (envelope == nullptr || envelope->ordinal == 0) return false;
  name_actor(mine, *step.cell);
  if (envelope->sender != nullptr) name_actor(mine, *envelope->sender);
  name_type(mine, *envelope->type);
  char* const record = room_for(mine, wire::free_run_log::kMostCompactStepBytes);
  char* at = record;
  *at++ = wire::free_run_log::kCompactStep;
  at = wire::free_run_log::put_number(at, time);
  at = wire::free_run_log::put_number(at, step.cell->index);
  at = wire::free_run_log::put_number(at, envelope->sender != nullptr ? envelope->sender->index + std::uint64_t{1} : 0);
  at = wire::free_run_log::put_number(at, envelope->ordinal);
  at = wire::free_run_log::put_number(at, envelope->type->index);
  commit(mine, record, at);
  return true;
}

void FreeRunRecorder::runtime_step(const ActorCell& cell, const Envelope& envelope, std::uint64_t time) {
  ThreadLines& mine = lines();
  const RecordedStep step{&cell.id, &envelope.id, envelope.type->name, &cell, &envelope};
  if (commit_compact(mine, step, time)) return;
  char* line = room_for(mine, LineWriter::step_room(step) + 8);
  LineWriter writer(line);
  writer.step("S", time, step).raw("\tok\t\t");
  commit(mine, line, writer.end());
}

void FreeRunRecorder::deadlock(std::string_view detail) {
  ThreadLines& mine = lines();
  char* line = room_for(mine, 4 + LineWriter::room(detail));
  LineWriter writer(line);
  writer.raw("D").field(detail);
  commit(mine, line, writer.end());
}

void FreeRunRecorder::failed_outside_step(proto::StepOutcome outcome, std::string_view detail) {
  ThreadLines& mine = lines();
  char* line = room_for(mine, 16 + LineWriter::room(detail));
  LineWriter writer(line);
  writer.raw("F").field(outcome_word(outcome)).field(detail);
  commit(mine, line, writer.end());
}

void FreeRunRecorder::unrecordable(std::string_view construct) {
  ThreadLines& mine = lines();
  char* line = room_for(mine, 4 + LineWriter::room(construct));
  LineWriter writer(line);
  writer.raw("U").field(construct);
  commit(mine, line, writer.end());
}

void FreeRunRecorder::flush() {
  ThreadLines& mine = lines();
  write_all(fd_, mine.data.data(), mine.committed.load(std::memory_order_relaxed));
  mine.committed.store(0, std::memory_order_release);
}

// The steps other threads were in began too, and what they sent may have been delivered already:
// each is a step of the schedule ("I"), the crashing thread's the one the process died in ("X").
void FreeRunRecorder::died() noexcept {
  flush_all();
  const std::size_t seen = std::min(threads_seen.load(), kMostThreads);
  for (std::size_t i = 0; i < seen; ++i) {
    const ThreadLines* lines = all_lines[i].load(std::memory_order_acquire);
    if (lines == nullptr || !lines->in_step.load(std::memory_order_acquire)) continue;
    char line[4096];
    if (LineWriter::step_room(lines->step) > sizeof line) continue;
    LineWriter writer(line);
    writer.step(lines == this_threads_lines ? "X" : "I", lines->time, lines->step);
    write_all(fd_, line, static_cast<std::size_t>(writer.end() - line));
  }
}

void FreeRunRecorder::flush_all() noexcept {
  const std::size_t seen = std::min(threads_seen.load(), kMostThreads);
  for (std::size_t i = 0; i < seen; ++i) {
    ThreadLines* lines = all_lines[i].load(std::memory_order_acquire);
    if (lines == nullptr) continue;
    const std::size_t committed = lines->committed.exchange(0);
    write_all(fd_, lines->data.data(), committed);
  }
}

}  // namespace exocheck::detail
