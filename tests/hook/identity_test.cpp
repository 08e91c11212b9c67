#include <gtest/gtest.h>

#include <ostream>
#include <sstream>
#include <string>
#include <vector>

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

struct Point {
  int x = 1, y = 2;
  friend std::ostream& operator<<(std::ostream& out, const Point& p) { return out << '(' << p.x << ' ' << p.y << ')'; }
};

// One field of each kind the describer prints itself, and one it leaves to operator<<.
struct Mixed {
  double share = 0.1;
  float ratio = 2.5F;
  std::vector<double> sums{1.0 / 3, 1e21, 1e-7, 123456789.0};
  std::string name = "left";
  const char* tag = "t";
  Point at;
  void describe(exocheck::Describer& d) const {
    d("share", share)("ratio", ratio)("sums", sums)("name", name)("tag", tag)("at", at);
  }
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

// As operator<< would print them: numbers as %g with 6 significant digits.
TEST(Identity, SummariesPrintNumbersAndStringsAsAStreamWould) {
  EXPECT_EQ(summary_of(Mixed{}),
            "Mixed{share=0.1, ratio=2.5, sums=[0.333333,1e+21,1e-07,1.23457e+08], name=left, tag=t, at=(1 2)}");
  std::ostringstream stream;
  for (const double value : Mixed{}.sums) stream << value << ',';
  EXPECT_EQ(stream.str(), "0.333333,1e+21,1e-07,1.23457e+08,");
}

}  // namespace
}  // namespace exocheck::detail
