// The agent's check of a job's subject: a build that differs from the submitted one is refused,
// also when the agent has checked the file before and a rebuild rewrote it in place, same size.

#include "subject_check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "sha256.hpp"

namespace exocheck::agent {
namespace {

class SubjectCheckTest : public ::testing::Test {
 protected:
  SubjectCheckTest() { std::filesystem::create_directories(dir_); }
  ~SubjectCheckTest() override { std::filesystem::remove_all(dir_); }

  // Writes `content` over the subject, in place, as an executable.
  void write(const std::string& content) const {
    std::ofstream(subject_, std::ios::binary | std::ios::trunc) << content;
    ::chmod(subject_.c_str(), 0755);
  }

  proto::JobOffer offer_of(const std::string& sha256) const {
    proto::JobOffer offer;
    offer.set_subject(subject_);
    offer.set_sha256(sha256);
    return offer;
  }

  const std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() / ("exocheck-subject-check-" + std::to_string(::getpid()));
  const std::string subject_ = (dir_ / "subject").string();
  SubjectCheck check_;
};

TEST_F(SubjectCheckTest, AcceptsTheSubmittedBuildAgainAndRefusesARebuildOfTheSameSize) {
  write("build one");
  const auto one = sha256_of_file(subject_);
  EXPECT_EQ(check_.refusal_reason(offer_of(one)), std::nullopt);
  EXPECT_EQ(check_.refusal_reason(offer_of(one)), std::nullopt);  // the digest kept (not observable here)

  // A rebuild comes later than a timestamp tick (file times may advance by a few ms at a time).
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write("build two");  // same size, same inode: only the times tell
  const auto two = sha256_of_file(subject_);
  ASSERT_NE(one, two);
  EXPECT_EQ(check_.refusal_reason(offer_of(one)),
            "subject " + subject_ + " is a different build here: sha256 " + two + ", the job's is " + one);
  EXPECT_EQ(check_.refusal_reason(offer_of(two)), std::nullopt);
}

TEST_F(SubjectCheckTest, NamesAMissingOrNotExecutableSubject) {
  EXPECT_EQ(check_.refusal_reason(offer_of("")), "subject " + subject_ + " does not exist on this agent");
  write("x");
  ::chmod(subject_.c_str(), 0644);
  EXPECT_EQ(check_.refusal_reason(offer_of("")), "subject " + subject_ + " is not executable on this agent");
}

}  // namespace
}  // namespace exocheck::agent
