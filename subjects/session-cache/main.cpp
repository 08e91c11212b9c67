// session-cache: a cache actor opens a session when told Open and answers Query from it; a reader
// asks before the opener has opened it, and the cache dereferences its null session pointer. The
// opener's Open and the reader's Query come from two actors, unordered: run freely on a thread
// pool the Query sometimes arrives first and the process dies with SIGSEGV (the free-run crash
// `exocheck record` keeps a trace of: DESIGN.md, "Recorded runs"). With --fixed the cache answers
// a Query before Open with -1.

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "exocheck/exocheck.hpp"

namespace {

struct Start {
  static constexpr const char* type_name = "Start";
};
struct Open {
  static constexpr const char* type_name = "Open";
};
struct Query {
  static constexpr const char* type_name = "Query";
  int key = 0;
  void describe(exocheck::Describer& d) const { d("key", key); }
};

struct Session {
  std::map<int, int> entries{{1, 10}, {2, 20}};
  int lookup(int key) const { return entries.count(key) != 0 ? entries.at(key) : 0; }
};

/// Holds the session once opened; answers Query with the entry's value.
class Cache : public exocheck::Actor {
 public:
  explicit Cache(bool fixed) {
    on([this](const Open&) { session_ = std::make_unique<Session>(); });
    on([this, fixed](const Query& query) {
      if (fixed && !session_) return reply(-1);
      reply(session_->lookup(query.key));  // the bug: no session yet
    });
  }

 private:
  std::unique_ptr<Session> session_;
};

/// Opens the cache's session when started, after up to `jitter_us` microseconds in a free run.
class Opener : public exocheck::Actor {
 public:
  Opener(exocheck::ActorRef cache, int jitter_us) {
    on([this, cache, jitter_us](const Start&) {
      if (jitter_us > 0) {
        thread_local std::mt19937 random(std::random_device{}());
        std::this_thread::sleep_for(
            std::chrono::microseconds(std::uniform_int_distribution<int>(0, jitter_us)(random)));
      }
      send(cache, Open{});
    });
  }
};

/// Asks the cache for key 1 when started, and prints the answer.
class Reader : public exocheck::Actor {
 public:
  explicit Reader(exocheck::ActorRef cache) {
    on([this, cache](const Start&) {
      call<int>(cache, Query{1}, [](int value) { std::cout << "session-cache: key 1 is " << value << std::endl; });
    });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"session-cache: a Query that can reach the cache before its session is open"};
  bool fixed = false;
  int jitter_us = 0;
  app.add_flag("--fixed", fixed, "answer a Query before Open with -1 instead of using the missing session");
  app.add_option("--jitter", jitter_us, "the opener waits up to this many microseconds before Open in a free run");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  auto cache = system.spawn<Cache>(fixed);
  system.send(system.spawn<Opener>(cache, jitter_us), Start{});
  system.send(system.spawn<Reader>(cache), Start{});
  return system.run();
}
