#include "exocheck/wire/trace_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string>

#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/utf8.hpp"

namespace exocheck::wire {
namespace {

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

std::string errno_text(int error) {
  return std::strerror(error);
}

/// Closes a file descriptor when it goes out of scope, so that every error path releases it.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  /// Closes now and reports close's own failure (a late write error on some file systems).
  int close_now() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

void write_all(int fd, std::string_view bytes, const std::filesystem::path& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw TraceFileError("cannot write " + quoted(path) + ": " + errno_text(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

std::string serialize(const proto::TraceFile& trace) {
  std::string bytes(kTraceMagic);
  if (trace.format_version() == kTraceFormatVersion) {
    trace.AppendToString(&bytes);
  } else {
    proto::TraceFile stamped = trace;
    stamped.set_format_version(kTraceFormatVersion);
    stamped.AppendToString(&bytes);
  }
  return bytes;
}

void write_durably(const std::filesystem::path& path, std::string_view bytes) {
  FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (file.get() < 0) throw TraceFileError("cannot create " + quoted(path) + ": " + errno_text(errno));
  write_all(file.get(), bytes, path);
  if (::fsync(file.get()) != 0 || file.close_now() != 0) {
    throw TraceFileError("cannot write " + quoted(path) + ": " + errno_text(errno));
  }
}

// After the rename, the directory entry itself must reach the disk for the file to survive a crash.
void sync_directory_of(const std::filesystem::path& path) {
  const auto directory = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  FileDescriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() >= 0) ::fsync(dir.get());
}

std::string read_all(const std::filesystem::path& path) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) throw TraceFileError("cannot read trace file " + quoted(path) + ": " + errno_text(errno));
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got == 0) return bytes;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw TraceFileError("cannot read trace file " + quoted(path) + ": " + errno_text(errno));
    }
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
}

void check_magic(std::string_view bytes, const std::string& origin) {
  if (bytes.size() < kTraceMagic.size() && kTraceMagic.starts_with(bytes)) {
    throw TraceFileError("trace file " + origin + " is truncated: " + std::to_string(bytes.size()) +
                         " bytes, shorter than its header");
  }
  if (!bytes.starts_with(kTraceMagic)) {
    throw TraceFileError(origin + " is not an exocheck trace file (it does not start with \"" +
                         std::string(kTraceMagic) + "\")");
  }
}

}  // namespace

proto::TraceFile new_trace_file(const std::string& subject, const std::vector<std::string>& args,
                                std::string_view heuristic, std::uint64_t step_limit,
                                const std::vector<std::string>& ranking, proto::DeliveryOrder delivery,
                                proto::TimerSemantics timers) {
  proto::TraceFile trace;
  trace.set_format_version(kTraceFormatVersion);
  trace.set_tool_version(EXOCHECK_VERSION);
  trace.set_protocol_version(kProtocolVersion);
  trace.set_subject(valid_utf8(subject));
  for (const auto& arg : args) trace.add_args(valid_utf8(arg));
  trace.set_heuristic(std::string(heuristic));
  trace.set_step_limit(step_limit);
  for (const auto& actor : ranking) trace.add_ranking(actor);
  trace.set_delivery(delivery);
  trace.set_timers(timers);
  return trace;
}

void write_trace_file(const std::filesystem::path& path, const proto::TraceFile& trace) {
  auto temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid());
  try {
    write_durably(temporary, serialize(trace));
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
      throw TraceFileError("cannot rename " + quoted(temporary) + " to it: " + errno_text(errno));
    }
  } catch (const TraceFileError& error) {
    ::unlink(temporary.c_str());
    throw TraceFileError("cannot write trace file " + quoted(path) + ": " + error.what());
  }
  sync_directory_of(path);
}

proto::TraceFile read_trace_file(const std::filesystem::path& path) {
  return parse_trace_file(read_all(path), quoted(path));
}

proto::TraceFile parse_trace_file(std::string_view bytes, const std::string& origin) {
  check_magic(bytes, origin);
  bytes.remove_prefix(kTraceMagic.size());
  // protobuf parses at most 2 GiB from one array; a trace that big is not one this tool wrote.
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw TraceFileError("trace file " + origin + " is too large to be a trace (" + std::to_string(bytes.size()) +
                         " bytes)");
  }
  proto::TraceFile trace;
  if (!trace.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw TraceFileError("trace file " + origin + " is truncated or corrupt: its content does not parse");
  }
  // format_version is field 1, written first: a file without it was cut right after its header.
  if (trace.format_version() == 0) {
    throw TraceFileError("trace file " + origin + " is truncated or corrupt: it has no format version");
  }
  if (trace.format_version() != kTraceFormatVersion) {
    throw TraceFileError("trace file " + origin + " has format version " + std::to_string(trace.format_version()) +
                         "; this exocheck reads format version " + std::to_string(kTraceFormatVersion));
  }
  // Fields are serialized in field-number order and the result comes after every event, so a file
  // cut at a field boundary parses but lacks its result: that is how truncation shows.
  if (!trace.has_result() || trace.result().status() == proto::RUN_UNKNOWN) {
    throw TraceFileError("trace file " + origin + " is truncated or incomplete: it has no run result");
  }
  // Every reader indexes events by step: event i must be step i.
  for (int i = 0; i < trace.events_size(); ++i) {
    if (trace.events(i).step() != static_cast<std::uint32_t>(i)) {
      throw TraceFileError("trace file " + origin + " is corrupt: its event " + std::to_string(i) + " is step " +
                           std::to_string(trace.events(i).step()) + " (a trace's events are steps 0, 1, 2, ...)");
    }
  }
  return trace;
}

}  // namespace exocheck::wire
