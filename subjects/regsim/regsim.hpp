#pragma once
// The actors of the server registration simulation, shared by regsim and regsim-2-level. A client
// registers with the server through a registrar, which passes the registration up (to the server,
// or to another registrar); the server welcomes the client directly with its registration number;
// the client then sends the server one request under that number, and the server answers it.
// The server checks that no client registers twice and that every request comes from the client
// registered under its number; once it has served every client, that it registered each once.

#include <iostream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace regsim {

struct Register {
  static constexpr const char* type_name = "Register";
  exocheck::ActorRef client;
  void describe(exocheck::Describer& d) const { d("client", client); }
};

struct Welcome {
  static constexpr const char* type_name = "Welcome";
  int number = 0;  ///< the client's registration number
  void describe(exocheck::Describer& d) const { d("number", number); }
};

struct Request {
  static constexpr const char* type_name = "Request";
  int number = 0;
  void describe(exocheck::Describer& d) const { d("number", number); }
};

struct Response {
  static constexpr const char* type_name = "Response";
};

class Server : public exocheck::Actor {
 public:
  explicit Server(int clients) : clients_(clients) {
    on([this](const Register& m) { enrol(m.client); });
    on([this](const Request& m) { serve(m.number); });
  }

  std::string final_state() const override {
    return std::to_string(registered_.size()) + " registered, " + std::to_string(served_) + " served";
  }

 private:
  void enrol(const exocheck::ActorRef& client) {
    for (const auto& known : registered_) {
      exocheck::check(known != client, "client " + client.id() + " registers a second time");
    }
    registered_.push_back(client);
    send(client, Welcome{static_cast<int>(registered_.size())});
  }

  void serve(int number) {
    const bool known = number >= 1 && number <= static_cast<int>(registered_.size());
    exocheck::check(known && registered_[static_cast<std::size_t>(number - 1)] == sender(),
                    "client " + sender().id() + " sends a request under number " + std::to_string(number) +
                        ", which is not its own");
    send(sender(), Response{});
    if (++served_ < clients_) return;
    exocheck::check(static_cast<int>(registered_.size()) == clients_,
                    "served every client, but " + final_state() + " of " + std::to_string(clients_));
    std::cout << "server: " + final_state() + "\n" << std::flush;
  }

  int clients_;
  std::vector<exocheck::ActorRef> registered_;  // in registration order: number i is at i - 1
  int served_ = 0;
};

/// Passes every registration up, to the server or to a registrar closer to it.
class Registrar : public exocheck::Actor {
 public:
  explicit Registrar(exocheck::ActorRef up) : up_(up) {
    on([this](const Register& m) {
      send(up_, m);
      ++passed_;
    });
  }

  std::string final_state() const override { return std::to_string(passed_) + " registrations passed up"; }

 private:
  exocheck::ActorRef up_;
  int passed_ = 0;
};

/// Registers at construction (in the step that creates it), then sends one request.
class Client : public exocheck::Actor {
 public:
  explicit Client(exocheck::ActorRef registrar) {
    send(registrar, Register{self()});
    on([this](const Welcome& m) {
      ++welcomes_;
      exocheck::check(welcomes_ == 1, "client " + self().id() + " is welcomed a second time");
      send(sender(), Request{m.number});
    });
    on([this](const Response&) { ++responses_; });
  }

  std::string final_state() const override {
    return welcomes_ == 1 && responses_ == 1
               ? "registered, served"
               : std::to_string(welcomes_) + " welcomes, " + std::to_string(responses_) + " responses";
  }

 private:
  int welcomes_ = 0;
  int responses_ = 0;
};

}  // namespace regsim
