#include <gtest/gtest.h>

#include "exocheck/message.hpp"
#include "identity.hpp"

namespace outer::inner {
struct Plain {};
template <typename T>
struct Box {};
}  // namespace outer::inner

struct Named {
  static constexpr const char* type_name = "Custom";
};

struct WithFields {
  int n = 3;
  bool ok = true;
  std::vector<int> items{1, 2};
  void describe(exocheck::Describer& d) const { d("n", n)("ok", ok)("items", items); }
};

namespace exocheck::detail {
namespace {

TEST(Identity, ActorIdsFollowTheSpawnTree) {
  EXPECT_EQ(actor_id("", 0), "0");
  EXPECT_EQ(actor_id("", 3), "3");
  EXPECT_EQ(actor_id("0", 1), "0.1");
  EXPECT_EQ(actor_id("0.1", 12), "0.1.12");
}

TEST(Identity, MessageIdsAreSenderAndCounter) {
  EXPECT_EQ(message_id("0.2", 1), "0.2#1");
  EXPECT_EQ(message_id(kEnvironment, 4), "env#4");
}

TEST(Identity, TypeNamesDropQualifiersAtEveryLevel) {
  EXPECT_EQ(strip_qualifiers("outer::inner::Box<outer::inner::Plain>"), "Box<Plain>");
  EXPECT_EQ(strip_qualifiers("std::pair<int, ns::X>"), "pair<int, X>");
  EXPECT_EQ(strip_qualifiers("(anonymous namespace)::Go"), "Go");
  EXPECT_EQ(strip_qualifiers("a::(anonymous namespace)::B<(anonymous namespace)::C>"), "B<C>");
  EXPECT_EQ(type_name<outer::inner::Plain>(), "Plain");
  EXPECT_EQ(type_name<outer::inner::Box<int>>(), "Box<int>");
  EXPECT_EQ(type_name<Named>(), "Custom");
}

TEST(Identity, SummariesListDescribedFields) {
  EXPECT_EQ(summary_of(WithFields{}), "WithFields{n=3, ok=true, items=[1,2]}");
  EXPECT_EQ(summary_of(Named{}), "Custom");
  EXPECT_EQ(summary_of(Reply<int>{42}), "Reply{value=42}");
}

}  // namespace
}  // namespace exocheck::detail
