// fault_not_linked: a plain program that does not use the exocheck hook at all. The runner must
// refuse it before it runs anything: given a path, it creates that file (a canary) when it runs.
// By hand: prints, creates the canary if named, exits 0.

#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
  if (argc > 1) std::ofstream(argv[1]) << "fault_not_linked ran\n";
  std::cout << "fault_not_linked: a program without the exocheck hook" << std::endl;
  return 0;
}
