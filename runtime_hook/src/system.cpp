#include "exocheck/system.hpp"

#include <cstdio>
#include <string>

#include "controlled_mode.hpp"
#include "controlled_runtime.hpp"
#include "identity.hpp"
#include "monitors.hpp"
#include "thread_pool_runtime.hpp"

namespace exocheck {

/// Owns whichever runtime the environment selected, and main's message counter.
class System::Mode {
 public:
  Mode() : controlled_(detail::ControlledMode::from_environment()) {
    if (!controlled_) pool_ = std::make_unique<detail::ThreadPoolRuntime>();
  }

  detail::Runtime& runtime() {
    return controlled_ ? static_cast<detail::Runtime&>(controlled_->runtime()) : static_cast<detail::Runtime&>(*pool_);
  }
  bool controlled() const { return controlled_ != nullptr; }
  int run() { return controlled_ ? controlled_->run() : pool_->run(); }
  void name_next_message(detail::Envelope& envelope) {
    envelope.ordinal = ++sent_;
    envelope.id = detail::message_id(detail::kEnvironment, sent_);
  }

 private:
  std::unique_ptr<detail::ControlledMode> controlled_;
  std::unique_ptr<detail::ThreadPoolRuntime> pool_;
  std::uint64_t sent_ = 0;
};

System::System() : mode_(std::make_unique<Mode>()), runtime_(&mode_->runtime()) {
  detail::active_runtime() = runtime_;
}

System::~System() {
  if (detail::active_runtime() == runtime_) detail::active_runtime() = nullptr;
}

int System::run() {
  detail::close_monitor_registration();
  const int code = mode_->run();
  if (mode_->controlled()) return code;
  // A free run: a monitor hot at the end is a liveness bug, as in a controlled run.
  if (const Monitor* hot = detail::first_hot_monitor()) {
    std::fprintf(stderr, "exocheck: monitor %s is hot in state %s where the run ended: a liveness bug\n",
                 hot->name().c_str(), hot->hot_state().c_str());
    return code == 0 ? 1 : code;
  }
  return code;
}

bool System::controlled() const {
  return mode_->controlled();
}

void System::post(const ActorRef& to, const detail::MessageType& type, detail::Payload payload) {
  if (!to.valid()) throw std::logic_error("main sent " + *type.name + " to a null ActorRef");
  auto envelope = std::make_unique<detail::Envelope>();
  mode_->name_next_message(*envelope);
  envelope->receiver = to.cell();
  envelope->type = &type;
  envelope->payload = std::move(payload);
  runtime_->send(std::move(envelope));
}

}  // namespace exocheck
