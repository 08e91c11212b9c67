// quicksort: distributed divide-and-conquer sort (TransDPOR Section 6, "quicksort 6"). A boot
// actor sends the root Sorter the array; a Sorter with more than one value keeps the first as
// pivot, spawns a child for the smaller values and one for the larger, and joins their sorted
// answers around the pivot; one or no value is sorted already. The boot actor checks the final
// array against std::sort.
//
// Porting note: children are created when the request arrives, and answers carry which side
// they sort, so the only nondeterminism is the order of the two answers at each inner sorter.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

using Values = std::vector<int>;

struct Sort {
  static constexpr const char* type_name = "Sort";
  Values values;
  bool smaller = false;  ///< the side of the parent's pivot these values are on
  void describe(exocheck::Describer& d) const { d("values", values)("smaller", smaller); }
};

struct Sorted {
  static constexpr const char* type_name = "Sorted";
  Values values;
  bool smaller = false;
  void describe(exocheck::Describer& d) const { d("values", values)("smaller", smaller); }
};

std::string text_of(const Values& values) {
  std::ostringstream out;
  for (std::size_t i = 0; i < values.size(); ++i) out << (i == 0 ? "" : " ") << values[i];
  return out.str();
}

class Sorter : public exocheck::Actor {
 public:
  Sorter() {
    on([this](const Sort& m) { sort(m); });
    on([this](const Sorted& m) { join(m); });
  }

 private:
  void sort(const Sort& m) {
    requester_ = sender();
    smaller_ = m.smaller;
    if (m.values.size() <= 1) {
      send(requester_, Sorted{m.values, smaller_});
      return;
    }
    pivot_ = m.values.front();
    Sort low{{}, true};
    Sort high{{}, false};
    for (std::size_t i = 1; i < m.values.size(); ++i) (m.values[i] < pivot_ ? low : high).values.push_back(m.values[i]);
    send(spawn<Sorter>(), std::move(low));
    send(spawn<Sorter>(), std::move(high));
  }

  void join(const Sorted& m) {
    (m.smaller ? low_ : high_) = m.values;
    if (++answers_ < 2) return;
    Values all = low_;
    all.push_back(pivot_);
    all.insert(all.end(), high_.begin(), high_.end());
    send(requester_, Sorted{std::move(all), smaller_});
  }

  exocheck::ActorRef requester_;
  bool smaller_ = false;
  int pivot_ = 0;
  int answers_ = 0;
  Values low_;
  Values high_;
};

class Boot : public exocheck::Actor {
 public:
  explicit Boot(Values values) : input_(std::move(values)) {
    on([this](const Sorted& m) { finish(m.values); });
    send(spawn<Sorter>(), Sort{input_, false});
  }

  std::string final_state() const override { return result_.empty() ? "no answer" : "sorted: " + result_; }

 private:
  void finish(const Values& values) {
    result_ = text_of(values);
    std::cout << result_ << std::endl;
    Values expected = input_;
    std::sort(expected.begin(), expected.end());
    exocheck::check(values == expected, "got " + result_ + ", expected " + text_of(expected));
  }

  Values input_;
  std::string result_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"quicksort: distributed divide-and-conquer sort (TransDPOR Section 6)"};
  int n = 6;
  app.add_option("-n,--n", n, "how many values to sort (a fixed pseudo-random array)")->check(CLI::Range(0, 200));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  // A fixed array, the same on every run: a multiplicative sequence modulo a prime.
  Values values;
  for (int i = 0, v = 7; i < n; ++i, v = v * 37 % 101) values.push_back(v);

  exocheck::System system;
  system.spawn<Boot>(values);
  return system.run();
}
