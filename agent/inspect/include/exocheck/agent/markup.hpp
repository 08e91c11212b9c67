#pragma once
// Text inside HTML or XML markup (an attribute or an element): the five special characters as
// entities, newlines and tabs as character references, other control characters (which XML 1.0
// does not allow) left out.

#include <string>

namespace exocheck::agent {

std::string markup_escaped(const std::string& text);

}  // namespace exocheck::agent
