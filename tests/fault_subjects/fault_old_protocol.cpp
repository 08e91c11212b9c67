// fault_old_protocol: a program whose hook note says it speaks protocol version 1, as one built
// against an older exocheck's hook would (its run requests lack what later versions carry: it
// would ignore them and be explored as if it honoured them). The runner must refuse it before it
// runs anything: given a path, it creates that file (a canary) when it runs.

#include <fstream>
#include <iostream>

// The note an older hook put into every hooked program (exocheck/wire/hook_note.hpp), its
// descriptor the protocol version: 1.
asm(".pushsection .note.exocheck,\"a\",@note\n"
    ".balign 4\n"
    ".long 9\n"
    ".long 4\n"
    ".long 1\n"
    ".asciz \"exocheck\"\n"
    ".balign 4\n"
    ".long 1\n"
    ".popsection\n");

int main(int argc, char** argv) {
  if (argc > 1) std::ofstream(argv[1]) << "fault_old_protocol ran\n";
  std::cout << "fault_old_protocol: a program whose hook speaks protocol version 1" << std::endl;
  return 0;
}
