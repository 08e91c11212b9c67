// A user's actor program built outside exocheck's tree, against the installed package: main sends
// a tally three additions; the order in which it receives them is all there is to explore (3! = 6
// classes), and the sum is the same in every order.

#include <cstdlib>
#include <string_view>

#include <exocheck/exocheck.hpp>

namespace {

struct Add {
  static constexpr const char* type_name = "Add";
  int amount;
  void describe(exocheck::Describer& d) const { d("amount", amount); }
};

class Tally : public exocheck::Actor {
 public:
  explicit Tally(int expected) {
    on([this, expected](const Add& m) {
      sum_ += m.amount;
      if (++received_ == 3) exocheck::check(sum_ == expected, "the tally adds up to what was expected");
    });
  }

 private:
  int sum_ = 0;
  int received_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  // --expect N: a sum the test expects (6 is right; anything else, a test that fails).
  const int expected = argc == 3 && std::string_view(argv[1]) == "--expect" ? std::atoi(argv[2]) : 6;
  exocheck::System system;
  auto tally = system.spawn<Tally>(expected);
  for (int amount : {1, 2, 3}) system.send(tally, Add{amount});
  return system.run();
}
