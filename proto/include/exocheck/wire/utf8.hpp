#pragma once
// Text from the subject as protobuf's string fields need it. A string field must hold UTF-8: a
// parser rejects the whole message otherwise, so one message summary with a Latin-1 byte turned
// its run into a protocol error. What the subject itself writes (message summaries, check texts,
// exception messages, final states, its stderr) may be any bytes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace exocheck::wire {

/// The length of the valid UTF-8 sequence at the start of `text` (1 to 4), or 0 when its first
/// byte does not start one (overlong forms, surrogates and code points past U+10FFFF included).
inline std::size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

/// The length of the longest valid UTF-8 start of `text`: text.size() when all of it is valid.
inline std::size_t valid_utf8_length(std::string_view text) {
  std::size_t at = 0;
  // The common case, ASCII, eight bytes at a time.
  for (std::uint64_t word = 0; text.size() - at >= sizeof word; at += sizeof word) {
    std::memcpy(&word, text.data() + at, sizeof word);
    if ((word & 0x8080808080808080ULL) != 0) break;
  }
  while (at < text.size() && static_cast<unsigned char>(text[at]) < 0x80) ++at;
  for (std::size_t length; at < text.size(); at += length) {
    length = utf8_sequence_length(text.substr(at));
    if (length == 0) break;
  }
  return at;
}

/// True when a string field may hold `text` (a parser accepts it).
inline bool is_utf8(std::string_view text) {
  return valid_utf8_length(text) == text.size();
}

/// `text`, each byte that is not part of a valid UTF-8 sequence replaced by U+FFFD; unchanged
/// (and not copied) when it is valid already, as ASCII always is.
inline std::string valid_utf8(std::string text) {
  std::size_t at = valid_utf8_length(text);
  if (at == text.size()) return text;
  std::string_view rest(text);
  std::string valid(text, 0, at);
  while (at < text.size()) {
    const std::size_t length = utf8_sequence_length(rest.substr(at));
    if (length == 0) {
      valid += "\xEF\xBF\xBD";
      ++at;
    } else {
      valid.append(text, at, length);
      at += length;
    }
  }
  return valid;
}

}  // namespace exocheck::wire
