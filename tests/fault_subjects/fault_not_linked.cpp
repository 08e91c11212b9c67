// fault_not_linked: a plain program that does not use the exocheck hook at all. The runner must
// tell that it is not linked with the hook (it exits without a hello). By hand: prints, exits 0.

#include <iostream>

int main() {
  std::cout << "fault_not_linked: a program without the exocheck hook" << std::endl;
  return 0;
}
