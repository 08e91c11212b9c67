// futures-dataproc: futures write to a shared array under a lock (actors-and-futures paper,
// Section 6, "dataproc": no bug). The data is split into one chunk per future. Each future sums
// the squares of its chunk, then, holding the lock, writes the sum into its own slot of the
// shared array and adds it to the array's last slot, the running total (a read-modify-write:
// without the lock two futures could both read the old total and one addition would be lost).
// The main actor gets every future's value, then reads the array and checks it against the same
// computation done sequentially.
//
// The shared array is an actor (Store) and every access to it is a synchronous call, as a
// memory access is synchronous in the paper's Scala program: with asynchronous writes, the next
// holder's read could overtake the previous holder's write even under the lock.

#include <CLI/CLI.hpp>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Read {
  static constexpr const char* type_name = "Read";
  int index = 0;
  void describe(exocheck::Describer& d) const { d("index", index); }
};
struct Write {
  static constexpr const char* type_name = "Write";
  int index = 0;
  int value = 0;
  void describe(exocheck::Describer& d) const { d("index", index)("value", value); }
};
/// Asks for the whole array.
struct Snapshot {
  static constexpr const char* type_name = "Snapshot";
};

std::string show(const std::vector<int>& values) {
  std::string text;
  for (int v : values) text += (text.empty() ? "" : " ") + std::to_string(v);
  return text;
}

/// The shared array: one slot per future, then the total.
class Store : public exocheck::Actor {
 public:
  explicit Store(int size) : slots_(static_cast<std::size_t>(size), 0) {
    on([this](const Read& m) { reply(slots_.at(static_cast<std::size_t>(m.index))); });
    on([this](const Write& m) {
      slots_.at(static_cast<std::size_t>(m.index)) = m.value;
      reply();
    });
    on([this](const Snapshot&) { reply(slots_); });
  }

  std::string final_state() const override { return "[" + show(slots_) + "]"; }

 private:
  std::vector<int> slots_;
};

/// Sums the squares of its chunk and records the sum in the store, holding the lock.
class ChunkSum : public exocheck::Future<int> {
 public:
  ChunkSum(int index, std::vector<int> chunk, exocheck::ActorRef lock, exocheck::ActorRef store, int total_slot)
      : index_(index), chunk_(std::move(chunk)), lock_(lock), store_(store), total_slot_(total_slot) {}

 private:
  void compute() override {
    const int sum = std::accumulate(chunk_.begin(), chunk_.end(), 0, [](int s, int v) { return s + v * v; });
    call<exocheck::Done>(lock_, exocheck::Acquire{}, [this, sum](exocheck::Done) {
      call<exocheck::Done>(store_, Write{index_, sum}, [this, sum](exocheck::Done) {
        call<int>(store_, Read{total_slot_}, [this, sum](int total) {
          call<exocheck::Done>(store_, Write{total_slot_, total + sum}, [this, sum](exocheck::Done) {
            send(lock_, exocheck::Release{});
            resolve(sum);
          });
        });
      });
    });
  }

  int index_;
  std::vector<int> chunk_;
  exocheck::ActorRef lock_;
  exocheck::ActorRef store_;
  int total_slot_;
};

/// Starts the futures, gets their values in order, then checks the array.
class Main : public exocheck::Actor {
 public:
  Main(int futures, int chunk) {
    const auto lock = spawn<exocheck::Lock>();
    store_ = spawn<Store>(futures + 1);
    for (int i = 0; i < futures; ++i) {
      std::vector<int> data;
      for (int k = 0; k < chunk; ++k) data.push_back(i * chunk + k + 1);  // 1, 2, 3, ...
      const int sum = std::accumulate(data.begin(), data.end(), 0, [](int s, int v) { return s + v * v; });
      expected_.push_back(sum);
      futures_.push_back(spawn<ChunkSum>(i, data, lock, store_, futures));
    }
    expected_.push_back(std::accumulate(expected_.begin(), expected_.end(), 0));
    get(0);
  }

  std::string final_state() const override { return values_.empty() ? "no values" : "values " + show(values_); }

 private:
  void get(std::size_t i) {
    if (i == futures_.size()) {
      call<std::vector<int>>(store_, Snapshot{}, [this](const std::vector<int>& array) { finish(array); });
      return;
    }
    call<int>(futures_[i], exocheck::Get{}, [this, i](int value) {
      values_.push_back(value);
      get(i + 1);
    });
  }

  void finish(const std::vector<int>& array) {
    std::cout << "array: " + show(array) + "\n" << std::flush;
    exocheck::check(array == expected_, "the array is [" + show(array) + "], expected [" + show(expected_) + "]");
    exocheck::check(values_ == std::vector<int>(expected_.begin(), expected_.end() - 1),
                    "the futures' values are " + show(values_));
  }

  exocheck::ActorRef store_;
  std::vector<exocheck::ActorRef> futures_;
  std::vector<int> expected_;
  std::vector<int> values_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"futures-dataproc: futures write to a shared array under a lock (actors-and-futures paper)"};
  int futures = 3;
  int chunk = 2;
  app.add_option("-n,--futures", futures, "futures, each with its own slot of the array")->check(CLI::Range(1, 8));
  app.add_option("--chunk", chunk, "values each future processes")->check(CLI::Range(1, 100));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Main>(futures, chunk);
  return system.run();
}
