#include "exocheck/agent/markup.hpp"

namespace exocheck::agent {

std::string markup_escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        if (c < 0x20 && c != '\r') continue;
        out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace exocheck::agent
