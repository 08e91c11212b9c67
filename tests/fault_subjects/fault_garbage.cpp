// fault_garbage: while handling the third hop (after steps 0, 1 and 2), writes bytes that are no
// valid frame straight to the control socket, then carries on as if nothing happened (hops 4 to
// 6). Default: a frame of 64 random bytes that cannot parse. --oversized: a header announcing a
// frame of 1 GiB. Started by hand there is no control socket: no fault, six hops, exit 0.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include "exocheck/wire/frame.hpp"
#include "relay.hpp"

namespace {

constexpr std::uint32_t kOneGiB = 1u << 30;
constexpr std::uint32_t kGarbageBytes = 64;

// Fixed seed: the same bytes every run, so that tests can state the exact outcome.
std::string unparseable_frame() {
  std::string frame;
  exocheck::wire::append_frame_header(frame, kGarbageBytes);
  std::mt19937 random(20240611);
  for (std::uint32_t i = 0; i < kGarbageBytes; ++i) frame.push_back(static_cast<char>(random() & 0xff));
  // A leading 0 byte is a field tag with number 0, which no protobuf parser accepts.
  frame[exocheck::wire::kFrameHeaderBytes] = 0;
  return frame;
}

std::string oversized_frame() {
  std::string frame;
  exocheck::wire::append_frame_header(frame, kOneGiB);
  frame.append("not really a gigabyte");
  return frame;
}

// Read before the System exists: the hook removes the variable from the environment.
int control_fd_from_environment() {
  const char* fd = std::getenv(exocheck::wire::kControlFdVariable);
  return fd == nullptr ? -1 : std::atoi(fd);
}

void write_to(int fd, const std::string& bytes) {
  // The write's outcome does not matter: the point is what the runner makes of the bytes.
  const ssize_t written = ::write(fd, bytes.data(), bytes.size());
  static_cast<void>(written);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fault_garbage: writes garbage to the control channel in the middle of a controlled run"};
  bool oversized = false;
  app.add_flag("--oversized", oversized, "write a header announcing a 1 GiB frame instead of random bytes");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  const int control_fd = control_fd_from_environment();
  exocheck::System system;
  exocheck::fault_subjects::FaultPlan plan;
  plan.last_hop = 6;
  const std::string garbage = oversized ? oversized_frame() : unparseable_frame();
  if (system.controlled()) plan.fault = [control_fd, &garbage] { write_to(control_fd, garbage); };
  return exocheck::fault_subjects::run_relay(system, plan);
}
