// answered: a liveness specification, "every request is eventually answered", as a hot/cold
// monitor (Coyote's liveness monitors). A client sends a request to a server, which main tells
// when it is ready; the client notifies the monitor when it asks (hot: an answer is owed) and
// when the answer comes (cold). The bug: a request that reaches the server before it is ready is
// dropped, and the run ends with the monitor hot. With --fixed the server keeps such a request and
// answers it once ready.
//
// --forever adds two actors that bounce a ball between them for ever: the program never ends,
// so a dropped request shows only as a monitor hot for ever; explore it with --liveness-bound N
// (a monitor hot throughout more than N fair rounds is a potential liveness bug). In the fixed
// variant a schedule may still starve the server for as long as it likes: no round ends while an
// actor with a message enabled has not had its step, so that is not counted.
//
// --server-down: main never tells the server it is ready, so the request goes unanswered in every
// schedule: a run by hand ends with the monitor hot and exits 1, as an explored one would.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Asked {
  int request = 0;
  void describe(exocheck::Describer& d) const { d("request", request); }
};
struct Answered {
  int request = 0;
  void describe(exocheck::Describer& d) const { d("request", request); }
};

/// Hot while some request is unanswered.
class EveryRequestAnswered : public exocheck::Monitor {
 public:
  EveryRequestAnswered() : Monitor("EveryRequestAnswered") {
    on([this](const Asked& a) {
      ++owed_;
      hot("waiting for an answer to request " + std::to_string(a.request));
    });
    on([this](const Answered&) {
      if (--owed_ == 0) cold();
    });
  }

 private:
  int owed_ = 0;
};

struct Request {
  int id = 0;
  void describe(exocheck::Describer& d) const { d("id", id); }
};
struct Answer {
  int id = 0;
  void describe(exocheck::Describer& d) const { d("id", id); }
};
struct Ready {};
struct Start {};
struct Ball {
  exocheck::ActorRef to;
};

class Server : public exocheck::Actor {
 public:
  explicit Server(bool fixed) {
    on([this, fixed](const Request& r) {
      if (ready_) {
        send(sender(), Answer{r.id});
      } else if (fixed) {
        kept_.push_back({sender(), r.id});
      }
    });
    on([this](const Ready&) {
      ready_ = true;
      for (const auto& [client, id] : kept_) send(client, Answer{id});
      kept_.clear();
    });
  }

 private:
  bool ready_ = false;
  std::vector<std::pair<exocheck::ActorRef, int>> kept_;
};

class Client : public exocheck::Actor {
 public:
  explicit Client(exocheck::ActorRef server) {
    on([this, server](const Start&) {
      exocheck::notify<EveryRequestAnswered>(Asked{1});
      send(server, Request{1});
    });
    on([](const Answer& a) { exocheck::notify<EveryRequestAnswered>(Answered{a.id}); });
  }
};

/// Sends the ball back to whoever sent it, for ever.
class Player : public exocheck::Actor {
 public:
  Player() {
    on([this](const Ball& ball) { send(ball.to.valid() ? ball.to : sender(), Ball{}); });
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("answered: every request must be answered (a liveness monitor)");
  bool fixed = false;
  bool forever = false;
  bool server_down = false;
  app.add_flag("--fixed", fixed, "The server keeps a request that comes before it is ready");
  app.add_flag("--forever", forever, "Two more actors bounce a ball for ever: the program never ends");
  app.add_flag("--server-down", server_down, "Main never tells the server it is ready: no request is answered");
  CLI11_PARSE(app, argc, argv);

  exocheck::System system;
  system.add_monitor<EveryRequestAnswered>();
  auto server = system.spawn<Server>(fixed);
  auto client = system.spawn<Client>(server);
  if (forever) {
    auto one = system.spawn<Player>();
    auto other = system.spawn<Player>();
    system.send(one, Ball{other});
  }
  system.send(client, Start{});
  if (!server_down) system.send(server, Ready{});
  return system.run();
}
