// The coordinator's journal file (--state-dir): entries appended and read back, a torn last entry
// cut off, and a compaction that replaces the file whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "journal.hpp"

namespace exocheck::coordinator {
namespace {

proto::JournalEntry submitted(std::uint64_t job, const std::string& subject) {
  proto::JournalEntry entry;
  auto& record = *entry.add_records();
  record.set_job_id(job);
  record.mutable_submitted()->set_subject(subject);
  return entry;
}

class FileJournalTest : public testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() / ("exocheck-journal-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::filesystem::path dir;
};

TEST_F(FileJournalTest, ACompactedJournalHoldsItsEntriesAloneAndGrowsFromThem) {
  {
    FileJournal journal(dir);
    for (std::uint64_t job = 1; job <= 100; ++job) journal.append(submitted(job, "a long subject name"));
    const auto grown = journal.bytes();
    EXPECT_EQ(grown, std::filesystem::file_size(dir / "journal"));
    std::string compacted;
    frame(submitted(100, "s"), compacted);
    journal.rewrite(compacted);
    EXPECT_LT(journal.bytes(), grown / 50);
    journal.append(submitted(101, "t"));
    EXPECT_EQ(journal.bytes(), std::filesystem::file_size(dir / "journal"));
    EXPECT_FALSE(std::filesystem::exists(dir / "journal.new"));
  }
  FileJournal reopened(dir);
  const auto entries = reopened.read();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].records(0).job_id(), 100u);
  EXPECT_EQ(entries[1].records(0).submitted().subject(), "t");
  EXPECT_EQ(reopened.bytes(), std::filesystem::file_size(dir / "journal"));
}

TEST_F(FileJournalTest, AnEntryCutShortIsDroppedAndTheJournalGoesOnAfterTheLastWholeOne) {
  {
    FileJournal journal(dir);
    journal.append(submitted(1, "s"));
    journal.append(submitted(2, "t"));
  }
  const auto whole = std::filesystem::file_size(dir / "journal");
  std::filesystem::resize_file(dir / "journal", whole - 3);
  FileJournal reopened(dir);
  EXPECT_EQ(reopened.read().size(), 1u);
  reopened.append(submitted(3, "u"));
  const auto entries = reopened.read();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].records(0).job_id(), 3u);
}

}  // namespace
}  // namespace exocheck::coordinator
