// fork_floor: microseconds per fork(), _exit(0) and waitpid() of a minimal static program, the
// least any fork-per-run design can cost per execution on this machine. Prints one number.
// Usage: fork_floor [forks] (default 2000).

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const long forks = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 2000;
  if (forks <= 0) {
    std::fprintf(stderr, "fork_floor: the number of forks must be positive\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < forks; ++i) {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    if (child < 0 || ::waitpid(child, nullptr, 0) != child) {
      std::perror("fork_floor");
      return 1;
    }
  }
  const std::chrono::duration<double, std::micro> taken = std::chrono::steady_clock::now() - start;
  std::printf("%.1f\n", taken.count() / static_cast<double>(forks));
  return 0;
}
