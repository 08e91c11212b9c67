// fault_memory: changes its process while handling the third hop of the relay, in the ways a fork
// server performing its runs in place must undo, or notice that it cannot:
//   --change scribble      overwrites a large block, a large global array, every other page of
//                          another and a counter that main set up before System::run(), then
//                          frees the block (malloc unmaps it): each run first checks that all
//                          four are as main left them
//   --change leak-fd       opens /dev/null and leaves it open: each run first checks that it gets
//                          the descriptor a fresh process would
//   --change leak-mapping  maps memory and leaves it mapped
//   --change close-fd      closes standard input
//   --change fork-exit     forks a child that calls exit(), and waits for it
//   --change leak-thread   starts a thread that sleeps for ever, detached
//   --change fd-table      checks that its descriptor table has no more than the 64 slots its
//                          descriptors need (a process's table is as large as its parent's was)
// Started by hand, it injects nothing: the relay runs its five hops and the program exits 0.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "relay.hpp"

namespace {

constexpr std::size_t kBlockBytes = 1 << 20;  // above malloc's threshold: a mapping of its own
constexpr unsigned char kPattern = 0x5a;

unsigned char* block = nullptr;
unsigned char array[512 * 1024];  // more pages than a restore leaves unprotected
// Every other page of it is written: more separate written ranges (256) than one scan of the
// written pages returns, so a restore must ask again.
unsigned char scattered[2 * 1024 * 1024];
constexpr std::size_t kPage = 4096;
int runs_seen = 0;  // a global that every run changes
int free_fd = -1;   // the lowest descriptor free once main has made the system

bool intact(const unsigned char* bytes, std::size_t size) {
  for (std::size_t i = 0; i < size; i += 512) {
    if (bytes[i] != kPattern) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fault_memory: changes its memory, descriptors or mappings in the middle of a controlled run"};
  std::string change = "scribble";
  app.add_option("--change", change, "what the third hop changes")
      ->check(
          CLI::IsMember({"scribble", "leak-fd", "leak-mapping", "close-fd", "fork-exit", "fd-table", "leak-thread"}))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  block = static_cast<unsigned char*>(std::malloc(kBlockBytes));
  std::memset(block, kPattern, kBlockBytes);
  std::memset(array, kPattern, sizeof array);
  std::memset(scattered, kPattern, sizeof scattered);

  exocheck::System system;
  free_fd = ::dup(0);
  ::close(free_fd);
  exocheck::fault_subjects::FaultPlan plan;
  if (system.controlled()) {
    plan.fault = [change] {
      if (change == "scribble") {
        exocheck::check(runs_seen == 0 && block != nullptr && intact(block, kBlockBytes) &&
                            intact(array, sizeof array) && intact(scattered, sizeof scattered),
                        "the run found memory an earlier run changed");
        ++runs_seen;
        std::memset(block, ~kPattern, kBlockBytes);
        std::memset(array, ~kPattern, sizeof array);
        for (std::size_t page = 0; page < sizeof scattered; page += 2 * kPage) scattered[page] = ~kPattern;
        std::free(block);
        block = nullptr;
      } else if (change == "leak-fd") {
        const int fd = ::open("/dev/null", O_RDONLY);
        exocheck::check(fd == free_fd, "the run got descriptor " + std::to_string(fd) + ", a fresh process " +
                                           std::to_string(free_fd));
      } else if (change == "leak-mapping") {
        void* left = ::mmap(nullptr, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        exocheck::check(left != MAP_FAILED, "mmap failed");
      } else if (change == "fd-table") {
        std::ifstream status("/proc/self/status");
        std::string line;
        while (std::getline(status, line) && !line.starts_with("FDSize:")) {
        }
        exocheck::check(line == "FDSize:\t64", "the run's descriptor table: " + line);
      } else if (change == "fork-exit") {
        const pid_t child = ::fork();
        if (child == 0) std::exit(0);
        int status = -1;
        exocheck::check(child > 0 && ::waitpid(child, &status, 0) == child && status == 0,
                        "the forked child did not exit with 0");
      } else if (change == "leak-thread") {
        std::thread([] {
          for (;;) ::pause();
        }).detach();
      } else {
        ::close(0);
      }
    };
  }
  return exocheck::fault_subjects::run_relay(system, plan);
}
