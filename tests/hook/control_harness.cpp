#include "control_harness.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <thread>

#include "exocheck/wire/frame.hpp"

namespace exocheck::testing {

namespace {

bool read_exactly(int fd, char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void read_frames(int fd, ControlledRun& run) {
  for (;;) {
    char header[wire::kFrameHeaderBytes];
    if (!read_exactly(fd, header, sizeof header)) return;
    std::string payload(wire::read_frame_header(std::string_view(header, sizeof header)), '\0');
    if (!read_exactly(fd, payload.data(), payload.size())) return;
    proto::HookMessage message;
    if (!message.ParseFromString(payload)) throw std::runtime_error("unparseable frame from the hook");
    if (message.has_hello()) run.hello = true;
    if (message.has_event()) run.events.push_back(message.event());
    if (message.has_result()) {
      run.result = message.result();
      return;
    }
  }
}

}  // namespace

proto::RunRequest request(proto::Heuristic heuristic, std::vector<std::string> prefix, std::uint64_t step_limit) {
  proto::RunRequest r;
  r.set_protocol_version(wire::kProtocolVersion);
  r.set_heuristic(heuristic);
  r.set_step_limit(step_limit);
  for (auto& id : prefix) r.add_prefix(std::move(id));
  return r;
}

ControlledRun run_controlled(const proto::RunRequest& run_request, const std::function<void(System&)>& program) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) throw std::runtime_error("socketpair failed");
  std::string frame;
  wire::append_frame(frame, run_request);
  if (::write(fds[1], frame.data(), frame.size()) != static_cast<ssize_t>(frame.size())) {
    throw std::runtime_error("could not write the run request");
  }
  ControlledRun run;
  std::thread reader([&] { read_frames(fds[1], run); });
  ::setenv("EXOCHECK_CONTROL_FD", std::to_string(fds[0]).c_str(), 1);
  std::exception_ptr failure;  // the program's, rethrown once the reader is done
  {
    System system;  // takes over fds[0]
    try {
      program(system);
      system.run();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  reader.join();
  ::close(fds[1]);
  if (failure) std::rethrow_exception(failure);
  return run;
}

std::vector<std::string> schedule_of(const ControlledRun& run) {
  std::vector<std::string> schedule;
  for (const auto& event : run.events) {
    if (event.step() > 0) schedule.push_back(event.message());
  }
  return schedule;
}

}  // namespace exocheck::testing
