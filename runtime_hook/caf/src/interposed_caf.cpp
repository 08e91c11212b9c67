// The CAF functions the adapter takes over, defined here under CAF's own names. Preloaded (or
// linked before libcaf_core), these definitions come first in the dynamic linker's search order,
// so that the program's calls and CAF's own virtual calls reach them. Each passes straight to
// CAF's definition when no agent controls the process: started by hand, the program runs as it
// always did.
//
// Checked against libcaf_core 0.17.6 (Debian 12): built without -Bsymbolic, so that its vtables
// and its calls to these functions go through the search order too.

#include <dlfcn.h>

#include <string_view>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/blocking_actor.hpp>
#include <caf/detail/thread_safe_actor_clock.hpp>
#include <caf/scheduled_actor.hpp>

#include "caf_bridge.hpp"
#include "caf_recording.hpp"
#include "real_caf.hpp"
#include "real_function.hpp"

namespace adapter = exocheck::caf_adapter;

namespace {

using ActorSystemConstructor = void (*)(caf::actor_system*, caf::actor_system_config&);

void construct_actor_system(const char* real_symbol, caf::actor_system* system, caf::actor_system_config& config) {
  adapter::CafBridge::system_constructing(config);
  if (adapter::CafBridge::instance() == nullptr) adapter::CafRecording::system_constructing(config);
  static const auto real = adapter::real_function<ActorSystemConstructor>(real_symbol);
  real(system, config);
  if (auto* bridge = adapter::CafBridge::instance()) bridge->system_constructed(*system);
  if (auto* recording = adapter::CafRecording::instance()) recording->system_constructed(*system);
}

/// Whether `return_address` is in caf::actor_system's destructor, which waits for the actors
/// itself when caf_main has not (the symbol nearest below it names the function).
bool called_by_system_destructor(void* return_address) {
  Dl_info info;
  return dladdr(return_address, &info) != 0 && info.dli_sname != nullptr &&
         std::string_view(info.dli_sname).rfind("_ZN3caf12actor_systemD", 0) == 0;
}

}  // namespace

// caf::actor_system::actor_system(actor_system_config&), complete and base object constructors:
// C++ cannot name a constructor that calls another definition of itself, so these are plain
// functions under the constructors' symbols.
extern "C" void exocheck_caf_actor_system_c1(caf::actor_system* system, caf::actor_system_config& config) __asm__(
    "_ZN3caf12actor_systemC1ERNS_19actor_system_configE");
extern "C" void exocheck_caf_actor_system_c2(caf::actor_system* system, caf::actor_system_config& config) __asm__(
    "_ZN3caf12actor_systemC2ERNS_19actor_system_configE");

extern "C" void exocheck_caf_actor_system_c1(caf::actor_system* system, caf::actor_system_config& config) {
  construct_actor_system("_ZN3caf12actor_systemC1ERNS_19actor_system_configE", system, config);
}

extern "C" void exocheck_caf_actor_system_c2(caf::actor_system* system, caf::actor_system_config& config) {
  construct_actor_system("_ZN3caf12actor_systemC2ERNS_19actor_system_configE", system, config);
}

void caf::actor_system::await_all_actors_done() const {
  if (auto* bridge = adapter::CafBridge::instance()) {
    // Returns when caf_main called it and every actor of the run is done (CAF's own wait would
    // not end); at the system's end, the run ends the process.
    bridge->run(called_by_system_destructor(__builtin_return_address(0)));
    return;
  }
  auto* recording = adapter::CafRecording::instance();
  if (recording != nullptr && called_by_system_destructor(__builtin_return_address(0))) recording = nullptr;
  if (recording != nullptr) recording->main_awaits();
  using Real = void (*)(const caf::actor_system*);
  static const auto real = adapter::real_function<Real>("_ZNK3caf12actor_system21await_all_actors_doneEv");
  real(this);
  if (recording != nullptr) recording->main_awaited();
}

void caf::scheduled_actor::launch(caf::execution_unit* unit, bool lazy, bool hide) {
  auto* bridge = adapter::CafBridge::instance();
  if (bridge != nullptr && !hide) bridge->launching(*this);
  // Recording a free run, a detached actor's steps are its resume()'s on its private thread.
  if (auto* recording = adapter::CafRecording::instance(); recording != nullptr && !hide) recording->launching(*this);
  using Real = void (*)(caf::scheduled_actor*, caf::execution_unit*, bool, bool);
  static const auto real = adapter::real_function<Real>("_ZN3caf15scheduled_actor6launchEPNS_14execution_unitEbb");
  real(this, unit, lazy, hide);
}

void caf::scheduled_actor::enqueue(caf::mailbox_element_ptr element, caf::execution_unit* unit) {
  auto* bridge = adapter::CafBridge::instance();
  if (bridge != nullptr && bridge->sending(*this, element)) return;
  if (auto* recording = adapter::CafRecording::instance()) recording->sending(*this, *element);
  adapter::real_enqueue(*this, std::move(element), unit);
}

namespace {

/// `real` resumes `actor` (through `self`, its base or itself): recording a free run, what the
/// actor's code sends and spawns in it is its own.
template <class Real, class Self>
caf::resumable::resume_result resume_recorded(Real real, Self* self, caf::scheduled_actor& actor,
                                              caf::execution_unit* unit, std::size_t most) {
  auto* recording = adapter::CafRecording::instance();
  if (recording == nullptr) return real(self, unit, most);
  auto outer = recording->resuming(actor);
  const auto result = real(self, unit, most);
  recording->resumed(std::move(outer));
  return result;
}

}  // namespace

// CAF's scheduler resumes an actor through its resumable base, whose thunk jumps straight into
// scheduled_actor::resume (no call through the search order): the thunk is what is taken over.
// Recording a free run, what the actor's code sends and spawns in it is its own.
extern "C" caf::resumable::resume_result exocheck_caf_resume_thunk(
    caf::resumable* self, caf::execution_unit* unit,
    std::size_t most) __asm__("_ZThn160_N3caf15scheduled_actor6resumeEPNS_14execution_unitEm");

extern "C" caf::resumable::resume_result exocheck_caf_resume_thunk(caf::resumable* self, caf::execution_unit* unit,
                                                                   std::size_t most) {
  using Real = caf::resumable::resume_result (*)(caf::resumable*, caf::execution_unit*, std::size_t);
  static const auto real =
      adapter::real_function<Real>("_ZThn160_N3caf15scheduled_actor6resumeEPNS_14execution_unitEm");
  return resume_recorded(real, self, *static_cast<caf::scheduled_actor*>(self), unit, most);
}

// A caf::detached actor's private thread resumes it through scheduled_actor's own vtable slot,
// which libcaf_core binds by symbol: this definition (named so that no thunk comes with it).
extern "C" caf::resumable::resume_result exocheck_caf_resume(
    caf::scheduled_actor* self, caf::execution_unit* unit,
    std::size_t most) __asm__("_ZN3caf15scheduled_actor6resumeEPNS_14execution_unitEm");

extern "C" caf::resumable::resume_result exocheck_caf_resume(caf::scheduled_actor* self, caf::execution_unit* unit,
                                                             std::size_t most) {
  using Real = caf::resumable::resume_result (*)(caf::scheduled_actor*, caf::execution_unit*, std::size_t);
  static const auto real = adapter::real_function<Real>("_ZN3caf15scheduled_actor6resumeEPNS_14execution_unitEm");
  return resume_recorded(real, self, *self, unit, most);
}

// A message an event-based actor takes: recording a free run, a step (not when it skips it).
caf::invoke_message_result caf::scheduled_actor::consume(caf::mailbox_element& element) {
  using Real = caf::invoke_message_result (*)(caf::scheduled_actor*, caf::mailbox_element&);
  static const auto real = adapter::real_function<Real>("_ZN3caf15scheduled_actor7consumeERNS_15mailbox_elementE");
  auto* recording = adapter::CafRecording::instance();
  if (recording == nullptr || !recording->consuming(*this, element)) return real(this, element);
  try {
    const auto result = real(this, element);
    // Its behavior now has an after(...): CAF arms its receive timeout anew (scheduled_actor.cpp).
    const bool timed =
        has_behavior() && bhvr_stack().back().timeout().valid() && !bhvr_stack().back().timeout().is_zero();
    recording->consumed(result == caf::invoke_message_result::skipped, timed);
    return result;
  } catch (const std::exception& error) {
    recording->threw(error.what());
    throw;
  } catch (...) {
    recording->threw("an exception that is not a std::exception");
    throw;
  }
}

caf::error caf::scheduled_actor::default_exception_handler(caf::scheduled_actor* actor, std::exception_ptr& error) {
  if (auto* bridge = adapter::CafBridge::instance()) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      bridge->exception_escaped(e.what());
    } catch (...) {
      bridge->exception_escaped("an exception that is not a std::exception");
    }
    return caf::make_error(caf::sec::runtime_error);
  }
  using Real = caf::error (*)(caf::scheduled_actor*, std::exception_ptr&);
  static const auto real = adapter::real_function<Real>(
      "_ZN3caf15scheduled_actor25default_exception_handlerEPS0_RNSt15__exception_ptr13exception_ptrE");
  return real(actor, error);
}

// caf::blocking_actor::blocking_actor(actor_config&): a scoped_actor (caf_main's, a function
// view's) becomes an actor of the run as it is made.
extern "C" void exocheck_caf_blocking_actor_c1(caf::blocking_actor* actor, caf::actor_config& config) __asm__(
    "_ZN3caf14blocking_actorC1ERNS_12actor_configE");
extern "C" void exocheck_caf_blocking_actor_c2(caf::blocking_actor* actor, caf::actor_config& config) __asm__(
    "_ZN3caf14blocking_actorC2ERNS_12actor_configE");

namespace {

using BlockingActorConstructor = void (*)(caf::blocking_actor*, caf::actor_config&);

void construct_blocking_actor(const char* real_symbol, caf::blocking_actor* actor, caf::actor_config& config) {
  static const auto real = adapter::real_function<BlockingActorConstructor>(real_symbol);
  real(actor, config);
  if (auto* bridge = adapter::CafBridge::instance()) bridge->blocking_created(*actor);
  // CAF's own hidden ones (the real scheduler's printer, its stop's scoped_actor) are not the
  // program's: under control, with CAF's test scheduler, they are not made before the end.
  if (auto* recording = adapter::CafRecording::instance();
      recording != nullptr && (config.flags & caf::abstract_actor::is_hidden_flag) == 0) {
    recording->launching(*actor);
  }
}

}  // namespace

extern "C" void exocheck_caf_blocking_actor_c1(caf::blocking_actor* actor, caf::actor_config& config) {
  construct_blocking_actor("_ZN3caf14blocking_actorC1ERNS_12actor_configE", actor, config);
}

extern "C" void exocheck_caf_blocking_actor_c2(caf::blocking_actor* actor, caf::actor_config& config) {
  construct_blocking_actor("_ZN3caf14blocking_actorC2ERNS_12actor_configE", actor, config);
}

void caf::blocking_actor::enqueue(caf::mailbox_element_ptr element, caf::execution_unit* unit) {
  auto* bridge = adapter::CafBridge::instance();
  if (bridge != nullptr && bridge->sending(*this, element)) return;
  if (auto* recording = adapter::CafRecording::instance()) recording->sending(*this, *element);
  adapter::real_enqueue(*this, std::move(element), unit);
}

// An actor spawned with blocking_api starts on a thread of its own: under an agent, in a step of
// its own (caf_threads.cpp).
void caf::blocking_actor::launch(caf::execution_unit* unit, bool lazy, bool hide) {
  if (auto* bridge = adapter::CafBridge::instance(); bridge != nullptr && !hide) {
    bridge->blocking_launch(*this, unit, lazy);
    return;
  }
  if (auto* recording = adapter::CafRecording::instance(); recording != nullptr && !hide) {
    recording->blocking_launching(*this);
  }
  adapter::real_launch(*this, unit, lazy, hide);
}

// The first thing an actor spawned with blocking_api does on its thread (blocking_actor::launch):
// recording a free run, its start step begins.
void caf::local_actor::initialize() {
  if (auto* recording = adapter::CafRecording::instance()) {
    if (auto* blocking = dynamic_cast<caf::blocking_actor*>(this)) recording->blocking_started(*blocking);
  }
  using Real = void (*)(caf::local_actor*);
  static const auto real = adapter::real_function<Real>("_ZN3caf11local_actor10initializeEv");
  real(this);
}

// A blocking actor's thread ends with this call (blocking_actor::launch): its last step is over.
void caf::actor_system::dec_detached_threads() {
  using Real = void (*)(caf::actor_system*);
  static const auto real = adapter::real_function<Real>("_ZN3caf12actor_system20dec_detached_threadsEv");
  real(this);
  if (auto* bridge = adapter::CafBridge::instance()) bridge->thread_ending();
  if (auto* recording = adapter::CafRecording::instance()) recording->blocking_thread_ending();
}

// A blocking actor (a scoped_actor in main, say) about to wait for a message: the run goes on
// until a message for it is delivered (caf_bridge.hpp, "Blocking actors").
void caf::blocking_actor::await_data() {
  if (auto* bridge = adapter::CafBridge::instance(); bridge != nullptr && mailbox().empty()) {
    bridge->blocking_wait(*this, std::nullopt);
    return;
  }
  using Real = void (*)(caf::blocking_actor*);
  static const auto real = adapter::real_function<Real>("_ZN3caf14blocking_actor10await_dataEv");
  real(this);
}

bool caf::blocking_actor::await_data(timeout_type timeout) {
  if (auto* bridge = adapter::CafBridge::instance(); bridge != nullptr && mailbox().empty()) {
    return bridge->blocking_wait(*this, timeout);
  }
  auto* recording = adapter::CafRecording::instance();
  using Real = bool (*)(caf::blocking_actor*, timeout_type);
  static const auto real = adapter::real_function<Real>(
      "_ZN3caf14blocking_actor10await_dataENSt6chrono10time_pointINS1_3_V212system_clockENS1_"
      "8durationIlSt5ratioILl1ELl1000000000EEEEEE");
  const bool woken = real(this, timeout);
  if (recording != nullptr && !woken) recording->blocking_timed_out(*this);
  return woken;
}

// A blocking actor's receive visits a message: recording a free run, a scoped_actor's step begins.
caf::intrusive::task_result caf::blocking_actor::mailbox_visitor::operator()(caf::mailbox_element& element) {
  using Real = caf::intrusive::task_result (*)(caf::blocking_actor::mailbox_visitor*, caf::mailbox_element&);
  static const auto real =
      adapter::real_function<Real>("_ZN3caf14blocking_actor15mailbox_visitorclERNS_15mailbox_elementE");
  // Passed over for its id, a message is not taken: it stays for a later receive.
  if (mid.is_response() ? element.mid != mid : element.mid.is_response()) return real(this, element);
  if (auto* bridge = adapter::CafBridge::instance()) {
    bridge->blocking_taking(*self, true);  // before the handler, whose own receives it counts in
    const auto result = real(this, element);
    if (result == caf::intrusive::task_result::skip) bridge->blocking_taking(*self, false);
    return result;
  }
  auto* recording = adapter::CafRecording::instance();
  if (recording == nullptr || !recording->blocking_taking(*self, element)) return real(this, element);
  const auto result = real(this, element);
  if (result == caf::intrusive::task_result::skip) recording->blocking_skipped();
  return result;
}

// CAF's real clock (free runs only: under control CAF's test clock is mirrored, caf_timers.cpp).
// Recording a free run, a delayed message and a request's timeout are named as they are armed, so
// that the message the clock's thread sends when one fires is named as under control.
void caf::detail::thread_safe_actor_clock::set_request_timeout(time_point due, caf::abstract_actor* self,
                                                               caf::message_id id) {
  if (auto* recording = adapter::CafRecording::instance(); recording != nullptr && self != nullptr) {
    recording->timer_armed(*self, id);
  }
  using Real = void (*)(thread_safe_actor_clock*, time_point, caf::abstract_actor*, caf::message_id);
  static const auto real = adapter::real_function<Real>(
      "_ZN3caf6detail23thread_safe_actor_clock19set_request_timeoutENSt6chrono10time_pointINS2_3_V212steady_"
      "clockENS2_8durationIlSt5ratioILl1ELl1000000000EEEEEEPNS_14abstract_actorENS_10message_idE");
  real(this, due, self, id);
}

void caf::detail::thread_safe_actor_clock::set_ordinary_timeout(time_point due, caf::abstract_actor* self,
                                                                caf::atom_value type, std::uint64_t id) {
  if (auto* recording = adapter::CafRecording::instance();
      recording != nullptr && self != nullptr && type == caf::atom("receive")) {
    recording->receive_timeout_armed(*self, id);
  }
  using Real = void (*)(thread_safe_actor_clock*, time_point, caf::abstract_actor*, caf::atom_value, std::uint64_t);
  static const auto real = adapter::real_function<Real>(
      "_ZN3caf6detail23thread_safe_actor_clock20set_ordinary_timeoutENSt6chrono10time_pointINS2_3_V212steady_"
      "clockENS2_8durationIlSt5ratioILl1ELl1000000000EEEEEEPNS_14abstract_actorENS_10atom_valueEm");
  real(this, due, self, type, id);
}

// Called by CAF's local_actor::cleanup() for every actor that ends: recording a free run, its
// record goes (CafRecording::ended).
void caf::detail::thread_safe_actor_clock::cancel_timeouts(caf::abstract_actor* self) {
  if (auto* recording = adapter::CafRecording::instance(); recording != nullptr && self != nullptr) {
    recording->ended(*self);
  }
  using Real = void (*)(thread_safe_actor_clock*, caf::abstract_actor*);
  static const auto real =
      adapter::real_function<Real>("_ZN3caf6detail23thread_safe_actor_clock15cancel_timeoutsEPNS_14abstract_actorE");
  real(this, self);
}

void caf::detail::thread_safe_actor_clock::schedule_message(time_point due, caf::strong_actor_ptr receiver,
                                                            caf::mailbox_element_ptr content) {
  if (auto* recording = adapter::CafRecording::instance(); recording != nullptr && content != nullptr) {
    recording->timer_armed(*content);
  }
  using Real = void (*)(thread_safe_actor_clock*, time_point, caf::strong_actor_ptr, caf::mailbox_element_ptr);
  static const auto real = adapter::real_function<Real>(
      "_ZN3caf6detail23thread_safe_actor_clock16schedule_messageENSt6chrono10time_pointINS2_3_V212steady_"
      "clockENS2_8durationIlSt5ratioILl1ELl1000000000EEEEEENS_13intrusive_ptrINS_19actor_control_blockEEESt10uniqu"
      "e_ptrINS_15mailbox_elementENS0_8disposerEE");
  real(this, due, std::move(receiver), std::move(content));
}
