// registry: the TransDPOR paper's running example (Fig. 1). A master registers itself with a
// registry, creates K workers and sends each the registry's address; every worker then registers
// itself. The only nondeterminism is the order in which the registry receives the K+1
// registrations.
//
// The master's constructor is the whole of the master's code in Fig. 1, so it forms the initial
// transition; with K = 2 a run is that step plus exactly five macro-steps (w1, w2, r0, r1, r2).

#include <CLI/CLI.hpp>
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

/// "Register me": r0 from the master, r1..rK from the workers.
struct Register {
  static constexpr const char* type_name = "Register";
  exocheck::ActorRef who;
  void describe(exocheck::Describer& d) const { d("who", who); }
};

/// The registry's address, sent by the master to each worker (w1..wK).
struct RegistryAddress {
  static constexpr const char* type_name = "RegistryAddress";
  exocheck::ActorRef registry;
  void describe(exocheck::Describer& d) const { d("registry", registry); }
};

/// Records registrations in arrival order. Like the paper's registry, it performs a fixed number
/// of receives (one per actor of the program besides itself) and reports after the last one.
class Registry : public exocheck::Actor {
 public:
  explicit Registry(std::size_t expected) : expected_(expected) {
    on([this](const Register& m) {
      members_.push_back(m.who.id());
      if (members_.size() == expected_) std::cout << "registry: " << members_.size() << " registrations" << std::endl;
    });
  }

  /// The count and the registered ids in arrival order, e.g. "3 registrations: 0.2,0,0.3".
  std::string final_state() const override {
    std::string ids;
    for (const auto& id : members_) ids += (ids.empty() ? "" : ",") + id;
    return std::to_string(members_.size()) + " registrations: " + ids;
  }

 private:
  std::size_t expected_;
  std::vector<std::string> members_;
};

/// Registers itself once it learns the registry's address (Fig. 1, worker: receive; send r).
class Worker : public exocheck::Actor {
 public:
  Worker() {
    on([this](const RegistryAddress& m) { send(m.registry, Register{self()}); });
  }
};

/// Fig. 1's master: all of its code runs at construction, i.e. in the initial transition.
class Master : public exocheck::Actor {
 public:
  explicit Master(std::size_t workers) {
    auto registry = spawn<Registry>(workers + 1);
    send(registry, Register{self()});  // r0
    std::vector<exocheck::ActorRef> created;
    for (std::size_t i = 0; i < workers; ++i) created.push_back(spawn<Worker>());
    for (const auto& worker : created) send(worker, RegistryAddress{registry});  // w1..wK
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"registry: the TransDPOR paper's registry example (Fig. 1)"};
  std::size_t workers = 2;
  app.add_option("--workers", workers, "number of workers that register")->check(CLI::Range(1, 1000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }

  exocheck::System system;
  system.spawn<Master>(workers);
  return system.run();
}
