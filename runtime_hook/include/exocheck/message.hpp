#pragma once
// Message types: how a message names itself and prints its fields in traces.
//
// Any copyable struct can be a message. Its type name is, in order of preference, a
// `static constexpr const char* type_name` member, or the C++ type name without namespaces.
// Its printable summary is the type name plus the fields it lists in an optional
//   void describe(exocheck::Describer& d) const { d("who", who)("n", n); }

#include <charconv>
#include <concepts>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

namespace exocheck {

class ActorRef;

/// Builds "Type{field=value, ...}" from the fields a message lists in describe().
class Describer {
 public:
  explicit Describer(std::string_view type) : text_(type) {}

  /// Adds one field: bool as true/false, integers (char types too) as numbers, ranges as [a,b];
  /// floating-point numbers, strings and ActorRef (its id) as operator<< prints them, and any
  /// other type with its operator<<.
  template <typename T>
  Describer& operator()(std::string_view name, const T& value) {
    text_ += fields_ == 0 ? "{" : ", ";
    text_ += name;
    text_ += '=';
    append(value);
    ++fields_;
    return *this;
  }

  /// The summary so far.
  std::string str() const { return fields_ == 0 ? text_ : text_ + "}"; }

 private:
  // Every message sent in a run is described, so the common field types are printed without an
  // ostringstream (most of a message's description cost); floating-point numbers and strings
  // exactly as operator<< prints them.
  template <typename T>
  void append(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      text_ += value ? "true" : "false";
    } else if constexpr (std::is_arithmetic_v<T> && !std::is_floating_point_v<T>) {
      text_ += std::to_string(value);
    } else if constexpr (std::is_floating_point_v<T>) {
      // operator<<'s default: %g, 6 significant digits (to_chars does not depend on the locale).
      char digits[64];
      const auto printed = std::to_chars(digits, digits + sizeof digits, value, std::chars_format::general, 6);
      text_.append(digits, printed.ptr);
    } else if constexpr (std::is_convertible_v<T, std::string_view>) {
      text_ += std::string_view(value);
    } else if constexpr (std::is_same_v<T, ActorRef>) {
      text_ += value.id();
    } else if constexpr (requires(const T& v) {
                           v.begin();
                           v.end();
                         } &&
                         !std::is_convertible_v<T, std::string_view>) {
      text_ += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) text_ += ',';
        first = false;
        append(item);
      }
      text_ += ']';
    } else {
      std::ostringstream out;
      out << value;
      text_ += out.str();
    }
  }

  std::string text_;
  int fields_ = 0;
};

namespace detail {

/// "ns::inner::Type<ns::X>" -> "Type<X>": drops namespace and class qualifiers at every level.
std::string strip_qualifiers(std::string_view demangled);
std::string demangle(const char* mangled);

template <typename M>
concept NamedMessage = requires {
  { M::type_name } -> std::convertible_to<const char*>;
};

template <typename M>
concept DescribedMessage = requires(const M& m, Describer& d) {
  m.describe(d);
};

/// A message type that says whether the network may lose or duplicate it (`static constexpr bool
/// lossy`), over what --lossy-types says.
template <typename M>
concept LossyMarkedMessage = requires {
  { M::lossy } -> std::convertible_to<bool>;
};

}  // namespace detail

/// The name a message type has in traces.
template <typename M>
const std::string& type_name() {
  static const std::string name = [] {
    if constexpr (detail::NamedMessage<M>) {
      return std::string(M::type_name);
    } else {
      return detail::strip_qualifiers(detail::demangle(typeid(M).name()));
    }
  }();
  return name;
}

/// The printable summary of one message: its type name plus the fields it describes.
template <typename M>
std::string summary_of(const M& message) {
  Describer describer(type_name<M>());
  if constexpr (detail::DescribedMessage<M>) {
    message.describe(describer);
  }
  return describer.str();
}

/// The reply to a synchronous call, as it travels: a message like any other.
template <typename T>
struct Reply {
  static constexpr const char* type_name = "Reply";
  T value;
  void describe(Describer& d) const { d("value", value); }
};

/// A reply that carries no value (reply() with no argument).
struct Done {
  static constexpr const char* type_name = "Done";
  friend std::ostream& operator<<(std::ostream& out, const Done&) { return out << "done"; }
};

}  // namespace exocheck
