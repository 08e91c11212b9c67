#include "exocheck/system.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "control_channel.hpp"
#include "controlled_runtime.hpp"
#include "exocheck/wire/event_buffer_layout.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/utf8.hpp"
#include "fork_server.hpp"
#include "identity.hpp"
#include "thread_pool_runtime.hpp"

namespace exocheck {

namespace {

/// The descriptor named by the environment variable `name`, or -1 when it is unset. The
/// variable is removed: it must not leak into processes the subject starts itself.
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

/// Owns whichever runtime the environment selected, and main's message counter.
class System::Mode {
 public:
  Mode() {
    const int fd = fd_from_environment(wire::kControlFdVariable);
    const int event_buffer_fd = fd_from_environment(wire::kEventBufferFdVariable);
    if (fd < 0) {
      pool_ = std::make_unique<detail::ThreadPoolRuntime>();
      return;
    }
    // A fork server's runs write into the event buffer: its socket needs little room, and every
    // page less is a page less to snapshot.
    channel_ =
        std::make_unique<detail::ControlChannel>(fd, event_buffer_fd >= 0 ? detail::ControlChannel::kServerBufferBytes
                                                                          : detail::ControlChannel::kSocketBufferBytes);
    if (event_buffer_fd >= 0) {
      try {
        fork_server_ = std::make_unique<detail::ForkServer>(*channel_, event_buffer_fd);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "exocheck: %s\n", error.what());
        std::exit(2);
      }
    }
    controlled_ = std::make_unique<detail::ControlledRuntime>(*channel_, fork_server_.get());
    detail::proto::HookMessage hello;
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

  detail::Runtime& runtime() {
    return controlled_ ? static_cast<detail::Runtime&>(*controlled_) : static_cast<detail::Runtime&>(*pool_);
  }
  bool controlled() const { return controlled_ != nullptr; }
  int run() { return controlled_ ? controlled_->run() : pool_->run(); }
  std::string next_message_id() { return detail::message_id(detail::kEnvironment, ++sent_); }

 private:
  std::unique_ptr<detail::ControlChannel> channel_;
  std::unique_ptr<detail::ForkServer> fork_server_;
  std::unique_ptr<detail::ControlledRuntime> controlled_;
  std::unique_ptr<detail::ThreadPoolRuntime> pool_;
  std::uint64_t sent_ = 0;
};

System::System() : mode_(std::make_unique<Mode>()), runtime_(&mode_->runtime()) {}

System::~System() = default;

int System::run() {
  return mode_->run();
}

bool System::controlled() const {
  return mode_->controlled();
}

void System::post(const ActorRef& to, const detail::MessageType& type, detail::Payload payload) {
  if (!to.valid()) throw std::logic_error("main sent " + *type.name + " to a null ActorRef");
  auto envelope = std::make_unique<detail::Envelope>();
  envelope->id = mode_->next_message_id();
  envelope->receiver = to.cell();
  envelope->type = &type;
  envelope->payload = std::move(payload);
  runtime_->send(std::move(envelope));
}

}  // namespace exocheck
