// The agent's check of a job's subject, all from the file before anything of it runs: a binary
// the agent's policy does not allow (outside its subjects folder, also through a symbolic link,
// and not on its allow-list), a script, or a program without the hook is refused; a build that
// differs from the submitted one is refused, also when the agent has checked the file before and
// a rebuild rewrote it in place, same size.

#include "subject_check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>

#include "sha256.hpp"

namespace exocheck::agent {
namespace {

std::filesystem::path built(const std::string& name) {
  return std::filesystem::path(EXOCHECK_BIN_DIR) / name;
}

std::string contents_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class SubjectCheckTest : public ::testing::Test {
 protected:
  SubjectCheckTest() {
    std::filesystem::create_directories(dir_);
    std::filesystem::create_directories(outside_);
  }
  ~SubjectCheckTest() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove_all(outside_);
  }

  // `dir` is canonical already (the fixture's folders are made after the check is).
  static SubjectPolicy policy_of(const std::filesystem::path& dir) {
    SubjectPolicy policy;
    policy.subjects_dir = dir;
    return policy;
  }

  // Writes `content` over `path`, in place, as an executable.
  static void write(const std::filesystem::path& path, const std::string& content) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    ::chmod(path.c_str(), 0755);
  }
  // The registry subject as a build of its own: its last byte (in the section headers, which no
  // loader reads) set to `variant`.
  static void write_build(const std::filesystem::path& path, char variant) {
    auto content = contents_of(built("registry"));
    content.back() = variant;
    write(path, content);
  }

  static proto::JobOffer offer_of(const std::filesystem::path& subject, const std::string& sha256) {
    proto::JobOffer offer;
    offer.set_subject(subject.string());
    offer.set_sha256(sha256);
    return offer;
  }
  proto::JobOffer offer_of(const std::filesystem::path& subject) const {
    return offer_of(subject, sha256_of_file(subject.string()));
  }

  const std::filesystem::path dir_ = std::filesystem::canonical(std::filesystem::temp_directory_path()) /
                                     ("exocheck-subject-check-" + std::to_string(::getpid()));
  const std::filesystem::path outside_ = std::filesystem::canonical(std::filesystem::temp_directory_path()) /
                                         ("exocheck-subject-outside-" + std::to_string(::getpid()));
  const std::filesystem::path subject_ = dir_ / "subject";
  SubjectCheck check_{policy_of(dir_)};
};

TEST_F(SubjectCheckTest, AcceptsTheSubmittedBuildAgainAndRefusesARebuildOfTheSameSize) {
  write_build(subject_, 1);
  const auto one = sha256_of_file(subject_.string());
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_, one)), std::nullopt);
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_, one)), std::nullopt);  // the digest kept (not observable here)

  // A rebuild comes later than a timestamp tick (file times may advance by a few ms at a time).
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write_build(subject_, 2);  // same size, same inode: only the times tell
  const auto two = sha256_of_file(subject_.string());
  ASSERT_NE(one, two);
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_, one)),
            "subject " + subject_.string() + " is a different build here: sha256 " + two + ", the job's is " + one);
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_, two)), std::nullopt);
}

TEST_F(SubjectCheckTest, NamesAMissingOrNotExecutableSubject) {
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_, "")),
            "subject " + subject_.string() + " does not exist on this agent");
  write(subject_, "x");
  ::chmod(subject_.c_str(), 0644);
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_, "")),
            "subject " + subject_.string() + " is not executable on this agent");
}

TEST_F(SubjectCheckTest, RefusesABinaryOutsideTheSubjectsFolderAlsoThroughALink) {
  const auto elsewhere = outside_ / "registry";
  write_build(elsewhere, 1);
  const auto digest = sha256_of_file(elsewhere.string());
  const std::string refusal = "subject " + elsewhere.string() + " is not one this agent runs: subjects under " +
                              dir_.string() + " (sha256 " + digest + "); nothing was run";
  EXPECT_EQ(check_.refusal_reason(offer_of(elsewhere)), refusal);
  std::filesystem::create_symlink(elsewhere, dir_ / "link");
  EXPECT_EQ(check_.refusal_reason(offer_of(dir_ / "link")), refusal);
  // A folder whose name begins with the subjects folder's is not under it.
  const auto sibling = dir_.string() + "-sibling";
  std::filesystem::create_directories(sibling);
  write_build(sibling + "/registry", 1);
  EXPECT_NE(check_.refusal_reason(offer_of(sibling + "/registry")), std::nullopt);
  std::filesystem::remove_all(sibling);
}

TEST_F(SubjectCheckTest, RunsABinaryOnTheAllowListWherever) {
  const auto elsewhere = outside_ / "registry";
  write_build(elsewhere, 1);
  const auto list = outside_ / "allowed";
  std::ofstream(list) << "# the registry build\n" << sha256_of_file(elsewhere.string()) << "  registry\n";
  SubjectCheck check(SubjectPolicy::from_flags("", {list.string()}));
  EXPECT_EQ(check.refusal_reason(offer_of(elsewhere)), std::nullopt);
  write_build(subject_, 2);
  EXPECT_EQ(check.refusal_reason(offer_of(subject_)),
            "subject " + subject_.string() + " is not one this agent runs: 1 allowed SHA-256 digest (sha256 " +
                sha256_of_file(subject_.string()) + "); nothing was run");
}

TEST_F(SubjectCheckTest, RefusesAScriptAndAProgramWithoutTheHook) {
  write(subject_, "#!/bin/sh\ntouch canary\n");
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_)),
            subject_.string() +
                " is not an ELF executable (a script?): exocheck runs programs linked with its hook or written with "
                "CAF; nothing was run");
  write(subject_, contents_of(built("fault_not_linked")));
  EXPECT_EQ(check_.refusal_reason(offer_of(subject_)),
            subject_.string() +
                " is not linked with the exocheck hook and uses no actor framework exocheck attaches to (CAF's "
                "libcaf_core): link it with exocheck::hook, or build it with CAF; nothing was run");
}

TEST(SubjectPolicy, ReadsFlagsAndSaysWhatIsWrongWithThem) {
  EXPECT_THROW(SubjectPolicy::from_flags("/nonexistent/subjects", {}), std::invalid_argument);
  EXPECT_THROW(SubjectPolicy::from_flags("", {"/nonexistent/allowed"}), std::invalid_argument);
  const auto list = std::filesystem::temp_directory_path() / ("exocheck-allowed-" + std::to_string(::getpid()));
  std::ofstream(list) << "not-a-digest\n";
  try {
    SubjectPolicy::from_flags("", {list.string()});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "--allow-sha256 " + list.string() + " line 1: not a SHA-256 digest (64 hex digits): not-a-digest");
  }
  std::ofstream(list) << std::string(64, 'A') << "\n\n  # comment\n";
  const auto policy = SubjectPolicy::from_flags("/tmp", {list.string()});
  EXPECT_EQ(policy.allowed_sha256, std::set<std::string>{std::string(64, 'a')});
  EXPECT_EQ(policy.description(), "subjects under /tmp, or 1 allowed SHA-256 digest");
  std::filesystem::remove(list);
}

}  // namespace
}  // namespace exocheck::agent
