// wire::valid_utf8: what the hook puts in protobuf's string fields from the subject's own text.
#include "exocheck/wire/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace exocheck::wire {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

TEST(ValidUtf8, KeepsValidTextAsItIs) {
  EXPECT_EQ(valid_utf8(""), "");
  EXPECT_EQ(valid_utf8("Register{who=0.2}"), "Register{who=0.2}");
  EXPECT_EQ(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(valid_utf8("\xF4\x8F\xBF\xBF"), "\xF4\x8F\xBF\xBF");  // U+10FFFF, the last code point
}

TEST(ValidUtf8, ReplacesEachByteOutsideAValidSequence) {
  EXPECT_EQ(valid_utf8("caf\xE9"), "caf" + kReplacement);                             // Latin-1
  EXPECT_EQ(valid_utf8("\xFF\xFE"), kReplacement + kReplacement);                     // never in UTF-8
  EXPECT_EQ(valid_utf8("a\x80z"), "a" + kReplacement + "z");                          // a lone continuation
  EXPECT_EQ(valid_utf8("\xE2\x82"), kReplacement + kReplacement);                     // cut short
  EXPECT_EQ(valid_utf8("\xC0\xAF"), kReplacement + kReplacement);                     // overlong '/'
  EXPECT_EQ(valid_utf8("\xE0\x80\xAF"), kReplacement + kReplacement + kReplacement);  // overlong, 3 bytes
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), kReplacement + kReplacement + kReplacement + kReplacement);  // > U+10FFFF
  EXPECT_EQ(valid_utf8("ok \xC3\xA9 \xE9 ok"), "ok \xC3\xA9 " + kReplacement + " ok");  // valid parts kept
}

// ASCII is scanned eight bytes at a time: a byte outside it is found at every place of a word.
TEST(ValidUtf8, FindsAByteOutsideAsciiAtAnyPlaceOfALongText) {
  for (std::size_t before = 0; before < 20; ++before) {
    const std::string ascii(before, 'a');
    EXPECT_TRUE(is_utf8(ascii + "bcdefghij")) << before;
    EXPECT_EQ(valid_utf8_length(ascii + "\xE9"
                                        "bcdefghij"),
              before);
    EXPECT_FALSE(is_utf8(ascii + "\xE9"
                                 "bcdefghij"))
        << before;
    EXPECT_EQ(valid_utf8(ascii + "\xE9"
                                 "bcdefghij"),
              ascii + kReplacement + "bcdefghij");
    EXPECT_TRUE(is_utf8(ascii + "\xC3\xA9"
                                "bcdefghij"))
        << before;
  }
}

}  // namespace
}  // namespace exocheck::wire
