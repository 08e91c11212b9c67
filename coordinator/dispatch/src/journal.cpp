#include "journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace exocheck::coordinator {
namespace {

std::runtime_error failure(const std::string& what, const std::filesystem::path& path) {
  return std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

FileJournal::FileJournal(const std::filesystem::path& dir) : path_(dir / "journal") {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw std::runtime_error("cannot create the state dir " + dir.string() + ": " + error.message());
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd_ < 0) throw failure("cannot open the journal", path_);
  const auto end = ::lseek(fd_, 0, SEEK_END);
  if (end < 0) throw failure("cannot seek in the journal", path_);
  bytes_ = static_cast<std::uint64_t>(end);
}

FileJournal::~FileJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void frame(const proto::JournalEntry& entry, std::string& bytes) {
  const auto length = static_cast<std::uint32_t>(entry.ByteSizeLong());
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
  entry.AppendToString(&bytes);
}

std::vector<proto::JournalEntry> unframe(const std::string& bytes, std::size_t& whole) {
  std::vector<proto::JournalEntry> entries;
  std::size_t at = 0;
  while (bytes.size() - at >= 4) {
    std::uint32_t length = 0;
    for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(bytes[at + i]);
    if (bytes.size() - at - 4 < length) break;
    proto::JournalEntry entry;
    if (!entry.ParseFromArray(bytes.data() + at + 4, static_cast<int>(length))) break;
    entries.push_back(std::move(entry));
    at += 4 + length;
  }
  whole = at;
  return entries;
}

std::vector<proto::JournalEntry> FileJournal::read() {
  std::ifstream in(path_, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t at = 0;
  auto entries = unframe(bytes, at);
  if (at != bytes.size()) {
    spdlog::warn("journal {}: the last {} bytes are an entry cut short (the coordinator was killed mid-write): dropped",
                 path_.string(), bytes.size() - at);
    if (::ftruncate(fd_, static_cast<off_t>(at)) != 0) throw failure("cannot cut the torn entry off", path_);
    bytes_ = at;
  }
  return entries;
}

std::string FileJournal::instance() {
  const auto path = path_.parent_path() / "instance";
  std::string name;
  if (std::ifstream in(path); in >> name && !name.empty()) return name;
  std::random_device device;
  name = fmt::format("{:08x}{:08x}", device(), device());
  std::ofstream out(path);
  out << name << '\n';
  if (!out) throw failure("cannot write", path);
  return name;
}

namespace {

/// False (errno set) when `bytes` could not all be written.
bool write_all(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void FileJournal::append(const proto::JournalEntry& entry) {
  std::string bytes;
  frame(entry, bytes);
  if (!write_all(fd_, bytes)) throw failure("cannot append to the journal", path_);
  bytes_ += bytes.size();
}

void FileJournal::rewrite(const std::string& bytes) {
  auto fresh = path_;
  fresh += ".new";
  const int fd = ::open(fresh.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) throw failure("cannot create", fresh);
  if (!write_all(fd, bytes) || ::rename(fresh.c_str(), path_.c_str()) != 0) {
    const auto error = failure("cannot write the compacted journal", fresh);
    ::close(fd);
    ::unlink(fresh.c_str());
    throw error;
  }
  ::close(fd_);
  fd_ = fd;
  bytes_ = bytes.size();
}

}  // namespace exocheck::coordinator
