// pipesort: a sorting pipeline (TransDPOR Section 6, after the dCUTE study). N stages in a line
// sort N values. The first stage gets every value; each stage keeps the smallest value it has seen
// and passes every larger one on to the next stage, so stage i sees N - i values. When the first
// stage has all of its values it starts the result down the pipeline: each stage, once it has all
// of its own values, appends the value it kept and passes the list on. The last stage checks that
// the list, the values held in stage order, is the input sorted.
//
// Values between two stages may arrive in any order (messages are not FIFO per pair here): the
// result is the same whatever the order, and exploring checks that it is.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Value {
  static constexpr const char* type_name = "Value";
  int value = 0;
  void describe(exocheck::Describer& d) const { d("value", value); }
};

/// The values kept by the stages before the receiver, in stage order.
struct Sorted {
  static constexpr const char* type_name = "Sorted";
  std::vector<int> values;
  void describe(exocheck::Describer& d) const { d("values", values); }
};

std::string joined(const std::vector<int>& values) {
  std::string text;
  for (int v : values) text += (text.empty() ? "" : " ") + std::to_string(v);
  return text;
}

/// The stages as each sees them: filled in by Boot in the initial step, read-only afterwards.
struct Pipeline {
  std::vector<exocheck::ActorRef> stages;
  std::vector<int> sorted;  ///< the values, sorted sequentially: what the last stage must see
};

class Stage : public exocheck::Actor {
 public:
  Stage(int index, int stages, std::shared_ptr<const Pipeline> pipeline)
      : index_(index), stages_(stages), pipeline_(std::move(pipeline)) {
    on([this](const Value& m) { receive(m.value); });
    on([this](const Sorted& m) { append(m.values); });
    // The result may overtake this stage's own values: it waits until they are all in.
    guard<Sorted>([this](const Sorted&) { return done(); });
  }

  std::string final_state() const override {
    return "stage " + std::to_string(index_) + " kept " + (received_ == 0 ? "nothing" : std::to_string(kept_));
  }

 private:
  bool done() const { return received_ == stages_ - index_; }
  bool last() const { return index_ + 1 == stages_; }

  void receive(int value) {
    if (received_++ == 0) {
      kept_ = value;
    } else {
      send(next(), Value{std::max(kept_, value)});
      kept_ = std::min(kept_, value);
    }
    if (done() && index_ == 0) append({});
  }

  void append(std::vector<int> values) {
    values.push_back(kept_);
    if (!last()) {
      send(next(), Sorted{std::move(values)});
      return;
    }
    std::cout << "sorted: " + joined(values) + "\n" << std::flush;
    exocheck::check(values == pipeline_->sorted,
                    "the stages hold " + joined(values) + ", sorted the values are " + joined(pipeline_->sorted));
  }

  const exocheck::ActorRef& next() const { return pipeline_->stages[static_cast<std::size_t>(index_ + 1)]; }

  int index_;
  int stages_;
  std::shared_ptr<const Pipeline> pipeline_;
  int received_ = 0;
  int kept_ = 0;
};

/// Builds the pipeline, first stage first, and feeds every value to the first stage, all in its
/// constructor (step 0).
class Boot : public exocheck::Actor {
 public:
  explicit Boot(const std::vector<int>& values) {
    auto pipeline = std::make_shared<Pipeline>();
    pipeline->sorted = values;
    std::sort(pipeline->sorted.begin(), pipeline->sorted.end());
    const int n = static_cast<int>(values.size());
    for (int i = 0; i < n; ++i) pipeline->stages.push_back(spawn<Stage>(i, n, pipeline));
    for (int value : values) send(pipeline->stages.front(), Value{value});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pipesort: a pipeline of N stages sorts N values (TransDPOR Section 6)"};
  int n = 4;
  app.add_option("-n,--n", n, "how many stages and values")->check(CLI::Range(1, 50));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  // 10, 10N, 20, 10(N-1), ...: unsorted, and both small and large values have to travel.
  std::vector<int> values;
  for (int low = 1, high = n; low <= high; ++low, --high) {
    values.push_back(low * 10);
    if (low != high) values.push_back(high * 10);
  }
  exocheck::System system;
  system.spawn<Boot>(values);
  return system.run();
}
