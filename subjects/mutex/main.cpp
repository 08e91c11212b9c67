// mutex: SimGrid's centralized mutual exclusion example (examples/msg/mc/centralized_mutex.c in
// SimGrid 3.x: "there is no bug on it, it is just provided to test the state space reduction of
// DPOR"). A coordinator grants a critical section to one client at a time and queues the other
// requests; each of --clients clients asks for --sections critical sections, one after another:
// it sends a request, waits for the grant, and sends a release.
//
// SimGrid's MSG_task_send is a rendezvous: the sender waits until the receiver takes the task. The
// sends here are calls that the receiver answers as it takes them: a client waits until the
// coordinator has its request or release, and the coordinator until a client has its grant. As in
// the example, nothing is checked: it measures the reductions. SimGrid's model checker counts its
// transitions (each send and receive posted, each wait), and more interleavings than the classes
// of deliveries here. Started by hand every client gets its sections and it prints `mutex: done`.

#include <CLI/CLI.hpp>
#include <deque>
#include <iostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

struct Start {
  static constexpr const char* type_name = "Start";
  exocheck::ActorRef coordinator;
  void describe(exocheck::Describer& d) const { d("coordinator", coordinator); }
};
struct Request {
  static constexpr const char* type_name = "Request";
  exocheck::ActorRef client;
  void describe(exocheck::Describer& d) const { d("client", client); }
};
struct Release {
  static constexpr const char* type_name = "Release";
  void describe(exocheck::Describer&) const {}
};
struct Grant {
  static constexpr const char* type_name = "Grant";
  void describe(exocheck::Describer&) const {}
};

class Coordinator : public exocheck::Actor {
 public:
  explicit Coordinator(int releases) : todo_(releases) {
    on([this](const Request& r) {
      reply();  // the client's send completes
      if (used_) {
        requests_.push_back(r.client);
      } else {
        used_ = true;
        grant(r.client);
      }
    });
    on([this](const Release&) {
      reply();
      --todo_;
      if (requests_.empty()) {
        used_ = false;
      } else {
        const auto next = requests_.front();
        requests_.pop_front();
        grant(next);
      }
    });
  }

  std::string final_state() const override { return "releases left " + std::to_string(todo_); }

 private:
  void grant(exocheck::ActorRef client) {
    call<exocheck::Done>(client, Grant{}, [](const exocheck::Done&) {});
  }

  int todo_;
  bool used_ = false;
  std::deque<exocheck::ActorRef> requests_;
};

class Client : public exocheck::Actor {
 public:
  explicit Client(int sections) : left_(sections) {
    on([this](const Start& s) {
      coordinator_ = s.coordinator;
      ask();
    });
    on([this](const Grant&) {
      reply();  // the coordinator's send completes
      call<exocheck::Done>(coordinator_, Release{}, [this](const exocheck::Done&) {
        if (--left_ > 0) ask();
      });
    });
  }

  std::string final_state() const override { return "sections left " + std::to_string(left_); }

 private:
  void ask() {
    call<exocheck::Done>(coordinator_, Request{self()}, [](const exocheck::Done&) {});
  }

  exocheck::ActorRef coordinator_;
  int left_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mutex: SimGrid's centralized mutual exclusion (a coordinator grants one critical section at a time)"};
  int clients = 3;
  int sections = 2;
  app.add_option("--clients", clients, "clients")->check(CLI::Range(1, 6))->capture_default_str();
  app.add_option("--sections", sections, "critical sections each client asks for")
      ->check(CLI::Range(1, 6))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  const auto coordinator = system.spawn<Coordinator>(clients * sections);
  for (int i = 0; i < clients; ++i) system.send(system.spawn<Client>(sections), Start{coordinator});
  const int code = system.run();
  if (!system.controlled()) std::cout << "mutex: done" << std::endl;
  return code;
}
