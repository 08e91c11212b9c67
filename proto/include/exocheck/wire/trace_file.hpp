#pragma once
// The one module that writes and reads trace files. A trace file is the 8 bytes "EXOTRACE"
// followed by one serialized proto::TraceFile whose format_version is kTraceFormatVersion.

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "proto/trace.pb.h"

namespace exocheck::wire {

/// The bytes every trace file starts with.
inline constexpr std::string_view kTraceMagic = "EXOTRACE";

/// The TraceFile.format_version this build writes and the only one it reads.
inline constexpr std::uint32_t kTraceFormatVersion = 1;

/// A trace file could not be written or read; what() is one line naming the file and the cause.
class TraceFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A new trace that describes itself: this build's format, tool and protocol versions, the subject
/// and its arguments, and the options its run followed (heuristic by name, step limit, ranking,
/// delivery order, timer semantics).
/// Its fields are UTF-8: a path or argument that is not is made valid (replay then cannot find it).
/// The caller adds the prefix, the events and the result.
proto::TraceFile new_trace_file(const std::string& subject, const std::vector<std::string>& args,
                                std::string_view heuristic, std::uint64_t step_limit,
                                const std::vector<std::string>& ranking, proto::DeliveryOrder delivery,
                                proto::TimerSemantics timers);

/// Writes `trace` to `path` with format_version set to kTraceFormatVersion. Crash-safe: the bytes
/// go to "<path>.tmp-<pid>", are fsynced, and the file is renamed over `path` only when complete.
/// Throws TraceFileError.
void write_trace_file(const std::filesystem::path& path, const proto::TraceFile& trace);

/// Reads the trace file at `path`. Throws TraceFileError when the file is missing or unreadable,
/// is not an exocheck trace, has another format version, or is truncated or corrupt.
proto::TraceFile read_trace_file(const std::filesystem::path& path);

/// Parses the bytes of a trace file; `origin` names them in error messages. Throws TraceFileError.
proto::TraceFile parse_trace_file(std::string_view bytes, const std::string& origin);

}  // namespace exocheck::wire
