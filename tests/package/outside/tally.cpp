// A user's actor program built outside exocheck's tree, against the installed package: main sends
// a tally three additions; the order in which it receives them is all there is to explore (3! = 6
// classes), and the sum is the same in every order.

#include <exocheck/exocheck.hpp>

namespace {

struct Add {
  static constexpr const char* type_name = "Add";
  int amount;
  void describe(exocheck::Describer& d) const { d("amount", amount); }
};

class Tally : public exocheck::Actor {
 public:
  Tally() {
    on([this](const Add& m) {
      sum_ += m.amount;
      if (++received_ == 3) exocheck::check(sum_ == 6, "the tally adds up to 6");
    });
  }

 private:
  int sum_ = 0;
  int received_ = 0;
};

}  // namespace

int main() {
  exocheck::System system;
  auto tally = system.spawn<Tally>();
  for (int amount : {1, 2, 3}) system.send(tally, Add{amount});
  return system.run();
}
