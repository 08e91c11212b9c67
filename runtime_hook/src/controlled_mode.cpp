#include "controlled_mode.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "control_channel.hpp"
#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "exocheck/wire/event_buffer_layout.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/hook_note.hpp"
#include "exocheck/wire/utf8.hpp"
#include "fork_server.hpp"

EXOCHECK_HOOK_NOTE();

namespace exocheck::detail {
namespace {

/// The descriptor named by the environment variable `name`, or -1 when it is unset. The
/// variable is removed.
int fd_from_environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return -1;
  char* end = nullptr;
  errno = 0;
  const long fd = std::strtol(value, &end, 10);
  if (errno != 0 || *end != '\0' || fd < 0 || fd > 65535) {
    std::fprintf(stderr, "exocheck: %s=%s is not a file descriptor number\n", name, value);
    std::exit(2);
  }
  ::unsetenv(name);
  return static_cast<int>(fd);
}

}  // namespace

std::unique_ptr<ControlledMode> ControlledMode::from_environment() {
  const int fd = fd_from_environment(wire::kControlFdVariable);
  const int event_buffer_fd = fd_from_environment(wire::kEventBufferFdVariable);
  if (fd < 0) return nullptr;
  return std::unique_ptr<ControlledMode>(new ControlledMode(fd, event_buffer_fd));
}

ControlledMode::ControlledMode(int fd, int event_buffer_fd) {
  // A fork server's runs write into the event buffer: its socket needs little room, and every
  // page less is a page less to snapshot.
  channel_ = std::make_unique<ControlChannel>(
      fd, event_buffer_fd >= 0 ? ControlChannel::kServerBufferBytes : ControlChannel::kSocketBufferBytes);
  if (event_buffer_fd >= 0) {
    try {
      fork_server_ = std::make_unique<ForkServer>(*channel_, event_buffer_fd);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "exocheck: %s\n", error.what());
      std::exit(2);
    }
  }
  runtime_ = std::make_unique<ControlledRuntime>(*channel_, fork_server_.get());
  proto::HookMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_pid(static_cast<int>(::getpid()));
  hello.mutable_hello()->set_program(wire::valid_utf8(program_invocation_name));  // a path: any bytes
  hello.mutable_hello()->set_fork_server(fork_server_ != nullptr);
  channel_->write(hello);
  try {
    channel_->flush();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "exocheck: %s=%d is not a usable control channel: %s\n", wire::kControlFdVariable, fd,
                 error.what());
    std::exit(2);
  }
}

ControlledMode::~ControlledMode() = default;

int ControlledMode::run() {
  return runtime_->run();
}

}  // namespace exocheck::detail
