// The trace file module: round trip, crash-safe writing, and one clear error per kind of bad file.

#include "exocheck/wire/trace_file.hpp"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "exocheck_process.hpp"
#include "sample_traces.hpp"

namespace exocheck::cli_test {
namespace {

using google::protobuf::util::MessageDifferencer;
using wire::TraceFileError;

std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void put_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

/// The one-line message read_trace_file throws for `path`, or "" if it did not throw.
std::string read_error(const std::filesystem::path& path) {
  try {
    wire::read_trace_file(path);
  } catch (const TraceFileError& error) {
    return error.what();
  }
  return "";
}

TEST(TraceFile, RoundTripKeepsEveryField) {
  ScratchDir dir;
  const auto trace = sample_trace();
  wire::write_trace_file(dir / "t.trace", trace);
  const auto read = wire::read_trace_file(dir / "t.trace");
  EXPECT_TRUE(MessageDifferencer::Equals(trace, read));
}

TEST(TraceFile, StartsWithMagicAndStampsTheFormatVersion) {
  ScratchDir dir;
  auto trace = sample_trace();
  trace.clear_format_version();
  wire::write_trace_file(dir / "t.trace", trace);
  const auto bytes = bytes_of(dir / "t.trace");
  EXPECT_EQ(bytes.substr(0, 8), "EXOTRACE");
  EXPECT_EQ(wire::read_trace_file(dir / "t.trace").format_version(), 1u);
}

TEST(TraceFile, WritingLeavesNoTemporaryFileAndReplacesTheOldFile) {
  ScratchDir dir;
  put_bytes(dir / "t.trace", "old content");
  wire::write_trace_file(dir / "t.trace", sample_trace());
  EXPECT_EQ(wire::read_trace_file(dir / "t.trace").events_size(), 4);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) names.push_back(entry.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"t.trace"});
}

TEST(TraceFile, WritingIntoAMissingFolderNamesTheFile) {
  ScratchDir dir;
  const auto path = dir / "no-such-folder/t.trace";
  try {
    wire::write_trace_file(path, sample_trace());
    FAIL() << "expected TraceFileError";
  } catch (const TraceFileError& error) {
    EXPECT_EQ(std::string(error.what()), "cannot write trace file '" + path.string() + "': cannot create '" +
                                             path.string() + ".tmp-" + std::to_string(::getpid()) +
                                             "': No such file or directory");
  }
}

TEST(TraceFile, MissingFileIsReportedWithItsPath) {
  ScratchDir dir;
  EXPECT_EQ(read_error(dir / "absent.trace"),
            "cannot read trace file '" + (dir / "absent.trace").string() + "': No such file or directory");
}

TEST(TraceFile, FolderIsUnreadable) {
  ScratchDir dir;
  EXPECT_EQ(read_error(dir.path()), "cannot read trace file '" + dir.path().string() + "': Is a directory");
}

TEST(TraceFile, WrongMagicIsNotATrace) {
  ScratchDir dir;
  put_bytes(dir / "notes.txt", "hello, this is not a trace\n");
  EXPECT_EQ(read_error(dir / "notes.txt"), "'" + (dir / "notes.txt").string() +
                                               "' is not an exocheck trace file (it does not start with \"EXOTRACE\")");
}

TEST(TraceFile, OtherFormatVersionNamesBothVersions) {
  ScratchDir dir;
  auto trace = sample_trace();
  trace.set_format_version(7);
  put_bytes(dir / "future.trace", "EXOTRACE" + trace.SerializeAsString());
  EXPECT_EQ(read_error(dir / "future.trace"), "trace file '" + (dir / "future.trace").string() +
                                                  "' has format version 7; this exocheck reads format version 1");
}

// Found by fuzzing (tests/fuzz/fuzz_trace_file): the tools index events by step, and read out of
// bounds for a trace whose event i is not step i.
TEST(TraceFile, EventsOutOfStepOrderAreRefused) {
  ScratchDir dir;
  auto trace = sample_trace();
  ASSERT_GE(trace.events_size(), 2);
  trace.mutable_events(1)->set_step(9);
  put_bytes(dir / "odd.trace", "EXOTRACE" + trace.SerializeAsString());
  EXPECT_EQ(read_error(dir / "odd.trace"), "trace file '" + (dir / "odd.trace").string() +
                                               "' is corrupt: its event 1 is step 9 (a trace's events are steps 0, "
                                               "1, 2, ...)");
}

TEST(TraceFile, EveryTruncationIsDetected) {
  ScratchDir dir;
  wire::write_trace_file(dir / "full.trace", sample_trace());
  const auto bytes = bytes_of(dir / "full.trace");
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    put_bytes(dir / "cut.trace", bytes.substr(0, length));
    const auto error = read_error(dir / "cut.trace");
    EXPECT_NE(error.find("truncated"), std::string::npos)
        << "cut at " << length << " of " << bytes.size() << ": " << error;
  }
}

TEST(TraceFile, TruncationKindsHaveTheirOwnWords) {
  ScratchDir dir;
  const auto path = (dir / "cut.trace").string();
  put_bytes(path, "EXOTR");
  EXPECT_EQ(read_error(path), "trace file '" + path + "' is truncated: 5 bytes, shorter than its header");
  put_bytes(path, "EXOTRACE");
  EXPECT_EQ(read_error(path), "trace file '" + path + "' is truncated or corrupt: it has no format version");
  auto no_result = sample_trace();
  no_result.clear_result();
  put_bytes(path, "EXOTRACE" + no_result.SerializeAsString());
  EXPECT_EQ(read_error(path), "trace file '" + path + "' is truncated or incomplete: it has no run result");
}

TEST(TraceFile, CorruptContentDoesNotParse) {
  ScratchDir dir;
  const auto path = (dir / "bad.trace").string();
  put_bytes(path, std::string("EXOTRACE") + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff");
  EXPECT_EQ(read_error(path), "trace file '" + path + "' is truncated or corrupt: its content does not parse");
}

}  // namespace
}  // namespace exocheck::cli_test
