// scripted_hook: plays the hook's side of the control channel exactly as its arguments say, so
// that the runner's tests can produce any conversation, well-formed or not, without depending on
// the real hook's buffering. Each argument is one action, run in order:
//   hello[:V]        a Hello (protocol version V, default the current one)
//   read-request     read the RunRequest frame (blocking)
//   echo-request     an event whose summary describes the request read
//   events:N         N events for the next steps, one write each
//   batch:N          N events for the next steps in one write
//   trickle:N        N events for the next steps, each frame split over three writes 2 ms apart
//   skip-step        the next event gets a step number one too high
//   odd-event        an event for the next step followed by an unknown field in the same frame
//   self             an event whose summary describes this process (descriptors, group, env)
//   result           a RunResult COMPLETED with detail "scripted"
//   garbage | oversized | empty-frame   an unparseable, 1 GiB or empty frame
//   stderr:TEXT      TEXT on stderr;   stderr-bytes:N   N times 'x' then "END" on stderr
//   term-flush:N     on SIGTERM, write N more events and exit 0 (as the hook flushes its buffer)
//   ignore-term      ignore SIGTERM
//   linger           fork a child that keeps every descriptor open for 5 s
//   close-channel    close the control socket
//   sleep:MS | hang | exit:N | abort

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/hook_note.hpp"
#include "proto/control.pb.h"

namespace {

namespace proto = exocheck::proto;
namespace wire = exocheck::wire;

constexpr int kControlFd = 3;

std::uint32_t next_step = 0;
proto::RunRequest request;
std::string flush_on_term;  // prepared before the signal, written by the handler

void write_all(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(kControlFd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) std::exit(90);
    done += static_cast<std::size_t>(n);
  }
}

std::string frame_of(const proto::HookMessage& message) {
  std::string out;
  wire::append_frame(out, message);
  return out;
}

// Step 0 is main's; steps after it deliver "0#<step>" at actor "0".
proto::HookMessage next_event(const std::string& summary = {}) {
  proto::HookMessage message;
  auto& event = *message.mutable_event();
  event.set_step(next_step);
  event.set_actor(next_step == 0 ? "env" : "0");
  if (next_step > 0) event.set_message("0#" + std::to_string(next_step));
  event.set_summary(summary);
  ++next_step;
  return message;
}

std::string event_frame(const std::string& summary = {}) {
  return frame_of(next_event(summary));
}

// A valid event frame that is more than the event: an unknown field (15, varint 1) follows it,
// as a newer hook might send. The runner must take it through its general path.
std::string event_frame_with_unknown_field() {
  const std::string payload = next_event().SerializeAsString() + "\x78\x01";
  std::string bytes;
  wire::append_frame_header(bytes, static_cast<std::uint32_t>(payload.size()));
  return bytes + payload;
}

std::string joined(const google::protobuf::RepeatedPtrField<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::string describe_request() {
  return "version=" + std::to_string(request.protocol_version()) + " prefix=" + std::to_string(request.prefix_size()) +
         ":" + (request.prefix_size() > 0 ? request.prefix(0) + ".." + request.prefix(request.prefix_size() - 1) : "") +
         " heuristic=" + proto::Heuristic_Name(request.heuristic()) +
         " step_limit=" + std::to_string(request.step_limit()) + " ranking=" + joined(request.ranking());
}

std::string describe_descriptors() {
  std::string out;
  DIR* dir = ::opendir("/proc/self/fd");
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.' || std::atoi(entry->d_name) == ::dirfd(dir)) continue;
    char target[256] = {};
    const std::string link = std::string("/proc/self/fd/") + entry->d_name;
    const ssize_t length = ::readlink(link.c_str(), target, sizeof target - 1);
    std::string kind(target, length > 0 ? static_cast<std::size_t>(length) : 0);
    if (kind.starts_with("pipe:")) kind = "pipe";
    if (kind.starts_with("socket:")) kind = "socket";
    out += (out.empty() ? "" : ",") + std::string(entry->d_name) + ":" + kind;
  }
  ::closedir(dir);
  return out;
}

std::string describe_self() {
  const char* control = std::getenv(wire::kControlFdVariable);
  const char* mark = std::getenv("EXOCHECK_RUNNER_TEST_MARK");
  return "fds=" + describe_descriptors() + " group=" + (::getpgid(0) == ::getpid() ? "own" : "inherited") +
         " control=" + (control ? control : "unset") + " mark=" + (mark ? mark : "unset");
}

void read_request() {
  std::string header(wire::kFrameHeaderBytes, '\0');
  if (::read(kControlFd, header.data(), header.size()) != static_cast<ssize_t>(header.size())) std::exit(91);
  std::string payload(wire::read_frame_header(header), '\0');
  std::size_t done = 0;
  while (done < payload.size()) {
    const ssize_t n = ::read(kControlFd, payload.data() + done, payload.size() - done);
    if (n <= 0) std::exit(92);
    done += static_cast<std::size_t>(n);
  }
  if (!request.ParseFromString(payload)) std::exit(93);
}

void on_term(int) {
  const ssize_t written = ::write(kControlFd, flush_on_term.data(), flush_on_term.size());
  ::_exit(written < 0 ? 94 : 0);
}

void sleep_ms(long ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

void write_events(const std::string& how, long count) {
  if (how == "batch") {
    std::string all;
    for (long i = 0; i < count; ++i) all += event_frame();
    write_all(all);
    return;
  }
  for (long i = 0; i < count; ++i) {
    const std::string frame = event_frame();
    if (how == "events") {
      write_all(frame);
      continue;
    }
    const std::size_t third = frame.size() / 3;
    write_all(frame.substr(0, third));
    sleep_ms(2);
    write_all(frame.substr(third, third));
    sleep_ms(2);
    write_all(frame.substr(2 * third));
  }
}

void hello(long version) {
  proto::HookMessage message;
  message.mutable_hello()->set_protocol_version(static_cast<std::uint32_t>(version));
  message.mutable_hello()->set_pid(::getpid());
  write_all(frame_of(message));
}

void result() {
  proto::HookMessage message;
  message.mutable_result()->set_status(proto::RUN_COMPLETED);
  message.mutable_result()->set_detail("scripted");
  message.mutable_result()->set_steps(next_step == 0 ? 0 : next_step - 1);
  write_all(frame_of(message));
}

void raw_frame(std::uint32_t length, const std::string& payload) {
  std::string bytes;
  wire::append_frame_header(bytes, length);
  write_all(bytes + payload);
}

void prepare_term_flush(long count) {
  for (long i = 0; i < count; ++i) flush_on_term += event_frame();
  ::signal(SIGTERM, on_term);
}

void linger() {
  if (::fork() != 0) return;
  sleep_ms(5000);
  ::_exit(0);
}

using Action = std::function<void(const std::string& argument, long number)>;

const std::map<std::string, Action>& actions() {
  static const std::map<std::string, Action> table = {
      {"hello", [](const std::string& a, long n) { hello(a.empty() ? wire::kProtocolVersion : n); }},
      {"read-request", [](const std::string&, long) { read_request(); }},
      {"echo-request", [](const std::string&, long) { write_all(event_frame(describe_request())); }},
      {"events", [](const std::string&, long n) { write_events("events", n); }},
      {"batch", [](const std::string&, long n) { write_events("batch", n); }},
      {"trickle", [](const std::string&, long n) { write_events("trickle", n); }},
      {"skip-step", [](const std::string&, long) { ++next_step; }},
      {"odd-event", [](const std::string&, long) { write_all(event_frame_with_unknown_field()); }},
      {"self", [](const std::string&, long) { write_all(event_frame(describe_self())); }},
      {"result", [](const std::string&, long) { result(); }},
      {"garbage", [](const std::string&, long) { raw_frame(8, std::string("\0\xff\xff\xff\xff\xff\xff\xff", 8)); }},
      {"oversized", [](const std::string&, long) { raw_frame(1u << 30, "partial"); }},
      {"empty-frame", [](const std::string&, long) { raw_frame(0, ""); }},
      {"stderr", [](const std::string& a, long) { std::cerr << a << std::flush; }},
      {"stderr-bytes",
       [](const std::string&, long n) {
         std::cerr << std::string(static_cast<std::size_t>(n), 'x') << "END" << std::flush;
       }},
      {"term-flush", [](const std::string&, long n) { prepare_term_flush(n); }},
      {"ignore-term", [](const std::string&, long) { ::signal(SIGTERM, SIG_IGN); }},
      {"linger", [](const std::string&, long) { linger(); }},
      {"close-channel", [](const std::string&, long) { ::close(kControlFd); }},
      {"sleep", [](const std::string&, long n) { sleep_ms(n); }},
      {"hang",
       [](const std::string&, long) {
         while (true) sleep_ms(1000);
       }},
      {"exit", [](const std::string&, long n) { std::exit(static_cast<int>(n)); }},
      {"abort", [](const std::string&, long) { std::abort(); }},
  };
  return table;
}

}  // namespace

// It plays the hook, so it carries the hook's note: the runner runs only binaries that do.
EXOCHECK_HOOK_NOTE();

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string action = argv[i];
    const auto colon = action.find(':');
    const auto found = actions().find(action.substr(0, colon));
    if (found == actions().end()) {
      std::cerr << "scripted_hook: unknown action " << action << std::endl;
      return 2;
    }
    const std::string argument = colon == std::string::npos ? "" : action.substr(colon + 1);
    found->second(argument, argument.empty() ? 0 : std::atol(argument.c_str()));
  }
  return 0;
}
