#pragma once
// An ELF note that says "this program carries exocheck's hook", so that an agent checks a binary
// before it runs anything of it (agent/runner/src/hook_attachment.cpp), never after. A note, not a
// symbol: notes survive `strip`. Name "exocheck", type 1, the control protocol's version as its
// descriptor. The hook puts it into an object file every hooked program links
// (runtime_hook/src/controlled_mode.cpp); so do programs that play the hook's part in tests.

#include <cstdint>

#include "exocheck/wire/frame.hpp"

namespace exocheck::wire {
inline constexpr const char* kHookNoteName = "exocheck";
inline constexpr std::uint32_t kHookNoteType = 1;
}  // namespace exocheck::wire

#define EXOCHECK_NOTE_STRINGIFY2(x) #x
#define EXOCHECK_NOTE_STRINGIFY(x) EXOCHECK_NOTE_STRINGIFY2(x)

// Spelled as numbers because asm() takes no constant expressions; the static_asserts keep them true.
#define EXOCHECK_HOOK_NOTE_PROTOCOL 2
static_assert(EXOCHECK_HOOK_NOTE_PROTOCOL == exocheck::wire::kProtocolVersion);
static_assert(exocheck::wire::kHookNoteType == 1);

/// Defines the note; once per program, at namespace scope.
#define EXOCHECK_HOOK_NOTE() \
  asm(".pushsection .note.exocheck,\"a\",@note\n"                         \
      ".balign 4\n"                                                       \
      ".long 9\n" /* name size: "exocheck" and its NUL */                 \
      ".long 4\n" /* descriptor size */                                   \
      ".long 1\n" /* type: kHookNoteType */                               \
      ".asciz \"exocheck\"\n"                                             \
      ".balign 4\n"                                                       \
      ".long " EXOCHECK_NOTE_STRINGIFY(EXOCHECK_HOOK_NOTE_PROTOCOL) "\n" \
      ".popsection\n")
