#include "subject_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
// Boost 1.74 compiles its vfork launcher only under an old _XOPEN_SOURCE; glibc declares vfork()
// in every mode that matters here (_DEFAULT_SOURCE).
#ifndef BOOST_POSIX_HAS_VFORK
#define BOOST_POSIX_HAS_VFORK 1
#endif
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>
#include <boost/process/search_path.hpp>

#include "exocheck/wire/event_buffer_layout.hpp"
#include "exocheck/wire/frame.hpp"
#include "hook_attachment.hpp"

namespace exocheck::agent {
namespace {

namespace bp = boost::process;

constexpr int kControlFdInChild = 3;
constexpr int kEventBufferFdInChild = 4;

std::string error_text(int error) {
  return std::error_code(error, std::system_category()).message();
}

/// The descriptors a child gets, opened close-on-exec so that no other child inherits them.
struct ChildDescriptors {
  UniqueFd control_parent;
  UniqueFd control_child;
  UniqueFd stderr_read;
  UniqueFd stderr_write;
  UniqueFd null_device;
};

// Moves a descriptor to a number above those the child's set-up assigns (0 to 4), so that
// placing one never overwrites another.
UniqueFd above_stdio(int fd) {
  UniqueFd owned(fd);
  if (fd < 0 || fd > kEventBufferFdInChild) return owned;
  return UniqueFd(::fcntl(fd, F_DUPFD_CLOEXEC, kEventBufferFdInChild + 1));
}

std::variant<ChildDescriptors, LaunchFailure> open_descriptors() {
  ChildDescriptors d;
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    return LaunchFailure{"cannot create the control socket: " + error_text(errno)};
  }
  d.control_parent = above_stdio(sockets[0]);
  d.control_child = above_stdio(sockets[1]);
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC) != 0) return LaunchFailure{"cannot create the stderr pipe: " + error_text(errno)};
  d.stderr_read = above_stdio(pipe[0]);
  d.stderr_write = above_stdio(pipe[1]);
  d.null_device = above_stdio(::open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!d.control_parent || !d.control_child || !d.stderr_read || !d.stderr_write || !d.null_device) {
    return LaunchFailure{"cannot open the subject's descriptors: " + error_text(errno)};
  }
  // Only the runner's ends are non-blocking: the hook reads and writes its end blocking.
  if (::fcntl(d.control_parent.get(), F_SETFL, O_NONBLOCK) != 0 ||
      ::fcntl(d.stderr_read.get(), F_SETFL, O_NONBLOCK) != 0) {
    return LaunchFailure{"cannot make the control socket non-blocking: " + error_text(errno)};
  }
  return d;
}

std::variant<std::string, LaunchFailure> resolve_binary(const std::string& binary) {
  if (binary.find('/') == std::string::npos) {
    const auto found = bp::search_path(binary);
    if (found.empty()) return LaunchFailure{fmt::format("subject binary not found: {} (searched PATH)", binary)};
    return found.string();
  }
  struct ::stat info {};
  if (::stat(binary.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return LaunchFailure{"subject binary not found: " + binary};
    return LaunchFailure{fmt::format("cannot access subject binary {}: {}", binary, error_text(errno))};
  }
  if (!S_ISREG(info.st_mode) || ::access(binary.c_str(), X_OK) != 0) {
    return LaunchFailure{"subject binary is not executable: " + binary};
  }
  return binary;
}

// Marks every descriptor from `first` on close-on-exec; runs in the child, so only
// async-signal-safe calls.
void close_on_exec_from(int first) noexcept {
  if (::close_range(first, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  // Kernels before 5.11: walk the table, bounded so that a huge limit does not cost seconds.
  struct ::rlimit limit {};
  const long last = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 ? std::min<rlim_t>(limit.rlim_cur, 1 << 16) : 1024;
  for (int fd = first; fd < last; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

// Puts `fd` at `target` in the child, inherited across exec.
bool place(int fd, int target) noexcept {
  return fd == target ? ::fcntl(fd, F_SETFD, 0) == 0 : ::dup2(fd, target) >= 0;
}

// The child's side between fork and exec: own process group, default signal state, stdio,
// the control socket on fd 3, the event buffer (if any) on fd 4, and nothing else inherited.
// Only async-signal-safe calls.
void prepare_child(int control, int stderr_write, int null_device, int event_buffer) noexcept {
  ::setpgid(0, 0);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct ::sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &default_action, nullptr);
  // Every source descriptor is above 4 (above_stdio): no placement overwrites another.
  const bool placed = ::dup2(null_device, STDIN_FILENO) >= 0 && ::dup2(null_device, STDOUT_FILENO) >= 0 &&
                      ::dup2(stderr_write, STDERR_FILENO) >= 0 &&
                      (event_buffer < 0 || place(event_buffer, kEventBufferFdInChild)) &&
                      place(control, kControlFdInChild);
  if (!placed) ::_exit(127);
  close_on_exec_from(event_buffer < 0 ? kControlFdInChild + 1 : kEventBufferFdInChild + 1);
}

// A descriptor that becomes readable when `pid` exits, or -1 before Linux 5.3. Through syscall():
// glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
int open_exit_descriptor(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

}  // namespace

std::variant<SubjectProcess, LaunchFailure> SubjectProcess::launch(const std::string& binary,
                                                                   const std::vector<std::string>& args,
                                                                   int event_buffer_fd, bool in_place) {
  auto path = resolve_binary(binary);
  if (auto* failure = std::get_if<LaunchFailure>(&path)) return std::move(*failure);
  auto attachment = hook_attachment(std::get<std::string>(path));
  if (auto* failure = std::get_if<LaunchFailure>(&attachment)) return std::move(*failure);
  const std::string& preload = std::get<HookAttachment>(attachment).preload;
  auto opened = open_descriptors();
  if (auto* failure = std::get_if<LaunchFailure>(&opened)) return std::move(*failure);
  auto& d = std::get<ChildDescriptors>(opened);
  // Only a fork server outlives its first run, and so may outlive its build. Taken before the
  // exec: a binary replaced in between then differs from its stamp, never the reverse.
  const auto stamp = event_buffer_fd >= 0 ? stamp_of(std::get<std::string>(path)) : std::nullopt;
  UniqueFd event_buffer;
  if (event_buffer_fd >= 0) {
    event_buffer = UniqueFd(::fcntl(event_buffer_fd, F_DUPFD_CLOEXEC, kEventBufferFdInChild + 1));
    if (!event_buffer) return LaunchFailure{"cannot hand the event buffer to the subject: " + error_text(errno)};
  }

  const int control = d.control_child.get(), stderr_write = d.stderr_write.get(), null_device = d.null_device.get(),
            buffer = event_buffer.get();
  std::error_code error;
  bp::environment environment = boost::this_process::environment();
  environment[wire::kControlFdVariable] = std::to_string(kControlFdInChild);
  if (buffer >= 0) {
    environment[wire::kEventBufferFdVariable] = std::to_string(kEventBufferFdInChild);
    environment[wire::kInPlaceVariable] = in_place ? "1" : "0";
    // A dynamically linked subject (a CAF program) would resolve its lazily bound symbols again in
    // every run: a run in place puts back the table the dynamic linker wrote, a fork's copy is
    // thrown away. Bound at start, they are resolved once, in the server.
    if (environment.find("LD_BIND_NOW") == environment.end()) environment["LD_BIND_NOW"] = "1";
  }
  if (!preload.empty()) {
    const auto inherited = environment.find("LD_PRELOAD");
    const std::string others = inherited != environment.end() ? inherited->to_string() : "";
    environment["LD_PRELOAD"] = others.empty() ? preload : preload + ":" + others;
  }
  try {
    // vfork, not fork: fork copies the page tables of the whole runner, and in `exocheck explore`
    // that process also holds the exploration tree, so each launch would cost more as it grows.
    // The child only runs prepare_child (async-signal-safe system calls) before execve.
    bp::child child(
        bp::posix::use_vfork, bp::exe = std::get<std::string>(path), bp::args = args, bp::env = environment,
        bp::extend::on_exec_setup([=](auto&) { prepare_child(control, stderr_write, null_device, buffer); }),
        // Boost leaves a child whose exec failed unreaped: reap it here.
        bp::extend::on_error([](auto& exec, const std::error_code&) {
          if (exec.pid > 0) ::waitpid(exec.pid, nullptr, 0);
        }),
        error);
    if (error) return LaunchFailure{fmt::format("cannot start subject {}: {}", binary, error.message())};
    const pid_t pid = child.id();
    child.detach();  // this class waits for and kills the process itself
    return SubjectProcess(pid, std::move(d.control_parent), std::move(d.stderr_read),
                          std::move(std::get<std::string>(path)), stamp);
  } catch (const std::exception& e) {
    return LaunchFailure{fmt::format("cannot start subject {}: {}", binary, e.what())};
  }
}

SubjectProcess::SubjectProcess(pid_t pid, UniqueFd control, UniqueFd stderr_read, std::string binary_path,
                               std::optional<BinaryStamp> binary_stamp)
    : pid_(pid),
      control_(std::move(control)),
      stderr_(std::move(stderr_read)),
      exit_(open_exit_descriptor(pid)),
      binary_path_(std::move(binary_path)),
      binary_stamp_(binary_stamp) {}

SubjectProcess::SubjectProcess(SubjectProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      control_(std::move(other.control_)),
      stderr_(std::move(other.stderr_)),
      exit_(std::move(other.exit_)),
      status_(std::exchange(other.status_, std::nullopt)),
      binary_path_(std::move(other.binary_path_)),
      binary_stamp_(other.binary_stamp_) {}

SubjectProcess::~SubjectProcess() {
  if (pid_ <= 0) return;
  // Also after a clean exit: whatever the subject left running in its group goes with it.
  signal_group(SIGKILL);
  if (!exited()) reap();
}

bool SubjectProcess::poll_exit() {
  if (exited()) return true;
  int status = 0;
  const pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == pid_) record_exit(status);
  // ECHILD: someone else reaped it (SIGCHLD ignored by the embedding program); report a clean exit.
  if (done < 0 && errno == ECHILD) record_exit(0);
  return exited();
}

void SubjectProcess::reap() {
  if (exited()) return;  // waiting again would find no child and lose the status
  int status = 0;
  pid_t done;
  do {
    done = ::waitpid(pid_, &status, 0);
  } while (done < 0 && errno == EINTR);
  record_exit(done == pid_ ? status : 0);
}

void SubjectProcess::record_exit(int status) {
  status_ = status;
  exit_.reset();
}

void SubjectProcess::signal_group(int signal) const {
  if (::kill(-pid_, signal) != 0 && errno != ESRCH) {
    spdlog::warn("cannot send signal {} to process group {}: {}", signal, pid_, error_text(errno));
  }
}

}  // namespace exocheck::agent
