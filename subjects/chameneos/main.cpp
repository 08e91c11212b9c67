// chameneos: chameneos-redux (TransDPOR Section 6). Creatures go to a broker to meet; the broker
// pairs them two by two and tells each the other's colour; after a meeting a creature takes the
// complement of the two colours and goes back. After M meetings the broker sends every creature
// that comes Faded; each creature then reports how many meetings it had, and the broker checks
// that they add up to 2M.

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

enum Colour { kBlue, kRed, kYellow };

Colour complement(Colour a, Colour b) {
  if (a == b) return a;
  return static_cast<Colour>(3 - a - b);
}

struct Meet {
  static constexpr const char* type_name = "Meet";
  int colour = 0;
  void describe(exocheck::Describer& d) const { d("colour", colour); }
};

struct Partner {
  static constexpr const char* type_name = "Partner";
  int colour = 0;
  void describe(exocheck::Describer& d) const { d("colour", colour); }
};

struct Faded {
  static constexpr const char* type_name = "Faded";
};

struct Report {
  static constexpr const char* type_name = "Report";
  int meetings = 0;
  void describe(exocheck::Describer& d) const { d("meetings", meetings); }
};

class Broker : public exocheck::Actor {
 public:
  Broker(int meetings, int creatures) : meetings_(meetings), left_(meetings), creatures_(creatures) {
    on([this](const Meet& m) { meet(m); });
    on([this](const Report& m) { report(m.meetings); });
  }

  std::string final_state() const override { return std::to_string(reported_meetings_) + " meetings reported"; }

 private:
  void meet(const Meet& m) {
    if (left_ == 0) {
      send(sender(), Faded{});
      return;
    }
    if (!waiting_) {
      waiting_ = Waiting{sender(), m.colour};
      return;
    }
    send(waiting_->creature, Partner{m.colour});
    send(sender(), Partner{waiting_->colour});
    waiting_.reset();
    --left_;
  }

  void report(int meetings) {
    reported_meetings_ += meetings;
    if (++reports_ < creatures_) return;
    std::cout << reported_meetings_ << " meetings" << std::endl;
    exocheck::check(reported_meetings_ == 2 * meetings_, "creatures report " + std::to_string(reported_meetings_) +
                                                             " meetings, expected " + std::to_string(2 * meetings_));
  }

  struct Waiting {
    exocheck::ActorRef creature;
    int colour;
  };
  int meetings_;
  int left_;
  int creatures_;
  std::optional<Waiting> waiting_;
  int reports_ = 0;
  int reported_meetings_ = 0;
};

class Creature : public exocheck::Actor {
 public:
  Creature(exocheck::ActorRef broker, Colour colour) : broker_(broker), colour_(colour) {
    on([this](const Partner& m) {
      colour_ = complement(colour_, static_cast<Colour>(m.colour));
      ++meetings_;
      send(broker_, Meet{colour_});
    });
    on([this](const Faded&) { send(broker_, Report{meetings_}); });
    send(broker_, Meet{colour_});
  }

  std::string final_state() const override {
    return "colour " + std::to_string(colour_) + ", " + std::to_string(meetings_) + " meetings";
  }

 private:
  exocheck::ActorRef broker_;
  Colour colour_;
  int meetings_ = 0;
};

class Boot : public exocheck::Actor {
 public:
  Boot(int creatures, int meetings) {
    const auto broker = spawn<Broker>(meetings, creatures);
    for (int i = 0; i < creatures; ++i) spawn<Creature>(broker, static_cast<Colour>(i % 3));
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"chameneos: creatures meet at a broker and exchange colours (TransDPOR Section 6)"};
  int creatures = 2;
  int meetings = 2;
  app.add_option("--creatures", creatures, "how many creatures")->check(CLI::Range(2, 20));
  app.add_option("-n,--meetings", meetings, "how many meetings the broker arranges")->check(CLI::Range(0, 1000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.spawn<Boot>(creatures, meetings);
  return system.run();
}
