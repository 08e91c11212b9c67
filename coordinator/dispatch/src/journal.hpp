#pragma once
// The coordinator's journal (proto/journal.proto): what `--state-dir DIR` keeps so that a restart
// resumes every job. Entries are appended to DIR/journal, each as a 4-byte little-endian length
// and a JournalEntry, in one write: a coordinator killed mid-write leaves at most one entry cut
// short, which the next start drops. Written as the page cache sees it (no fsync): what it guards
// against is a dead process, not a dead machine. Compacted by writing the records that rebuild the
// present state to DIR/journal.new and renaming it over DIR/journal: a coordinator killed at any
// time leaves one whole journal or the other.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "proto/journal.pb.h"

namespace exocheck::coordinator {

class Journal {
 public:
  virtual ~Journal() = default;
  virtual void append(const proto::JournalEntry& entry) = 0;
  /// The journal's size in bytes.
  virtual std::uint64_t bytes() const = 0;
  /// The journal becomes `bytes` alone: entries as frame() writes them.
  virtual void rewrite(const std::string& bytes) = 0;
};

/// Appends `entry` to `bytes` as the journal holds it: its length (4 bytes, little-endian), then it.
void frame(const proto::JournalEntry& entry, std::string& bytes);
/// The whole entries at the start of `bytes`; `whole` is set to the bytes they take.
std::vector<proto::JournalEntry> unframe(const std::string& bytes, std::size_t& whole);

class FileJournal final : public Journal {
 public:
  /// Opens (creating) DIR/journal. Throws std::runtime_error naming the path when it cannot.
  explicit FileJournal(const std::filesystem::path& dir);
  ~FileJournal() override;
  FileJournal(const FileJournal&) = delete;
  FileJournal& operator=(const FileJournal&) = delete;
  /// Every whole entry written so far; a torn last entry is cut off the file.
  std::vector<proto::JournalEntry> read();
  /// The coordinator's instance name kept in DIR/instance (made up and written the first time).
  std::string instance();
  /// Throws std::runtime_error (with the path and the reason) when the entry cannot be written.
  void append(const proto::JournalEntry& entry) override;
  std::uint64_t bytes() const override { return bytes_; }
  /// Throws std::runtime_error (with the path and the reason) when it cannot; the journal is then
  /// as it was.
  void rewrite(const std::string& bytes) override;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t bytes_ = 0;
};

}  // namespace exocheck::coordinator
