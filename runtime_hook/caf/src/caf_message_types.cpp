#include "caf_message_types.hpp"

#include <caf/actor_system.hpp>
#include <caf/atom.hpp>
#include <caf/downstream_msg.hpp>
#include <caf/message.hpp>
#include <caf/system_messages.hpp>
#include <caf/uniform_type_info_map.hpp>
#include <caf/upstream_msg.hpp>

namespace exocheck::caf_adapter {
namespace {

std::string summarize(const void* payload) {
  const auto& delivery = *static_cast<const CafDelivery*>(payload);
  if (!delivery.element) return "(delivered)";
  return caf::to_string(delivery.element->content());
}

std::string summarize_timer(const void* payload) {
  return static_cast<const CafTimer*>(payload)->summary;
}

std::string summarize_nothing(const void*) {
  return "";
}

}  // namespace

std::string CafMessageTypes::name_of(const caf::mailbox_element& element, caf::actor_system& system) {
  const caf::type_erased_tuple& content = element.content();
  std::string name;
  if (content.size() > 0 && content.match_element<caf::atom_value>(0)) {
    name = caf::to_string(content.get_as<caf::atom_value>(0));
  } else {
    for (std::size_t i = 0; i < content.size(); ++i) {
      if (i > 0) name += ",";
      name += system.types().portable_name(content.type(i));
    }
  }
  if (element.mid.is_response()) return name.empty() ? "reply" : "reply:" + name;
  return name.empty() ? "()" : name;
}

const detail::MessageType& CafMessageTypes::type_of(const caf::mailbox_element& element, caf::actor_system& system) {
  std::string name = name_of(element, system);
  auto found = types_.find(name);
  if (found != types_.end()) return found->second;
  // CAF's own messages are not lost (--lose): a down or exit message is how an end is learnt, as
  // the native Down, and a stream's protocol has no retransmission.
  const caf::type_erased_tuple& content = element.content();
  const bool system_message =
      content.size() == 1 &&
      (content.match_element<caf::down_msg>(0) || content.match_element<caf::exit_msg>(0) ||
       content.match_element<caf::open_stream_msg>(0) || content.match_element<caf::upstream_msg>(0) ||
       content.match_element<caf::downstream_msg>(0));
  return made(types_, std::move(name), typeid(CafDelivery), summarize, system_message ? 0 : -1);
}

const detail::MessageType& CafMessageTypes::timer_type(const std::string& name) {
  auto found = timer_types_.find(name);
  if (found != timer_types_.end()) return found->second;
  return made(timer_types_, name, typeid(CafTimer), summarize_timer, 0);
}

const detail::MessageType& CafMessageTypes::adapter_type(const std::string& name, const std::type_info& payload) {
  auto found = adapter_types_.find(name);
  if (found != adapter_types_.end()) return found->second;
  return made(adapter_types_, name, payload, summarize_nothing, 0);
}

const detail::MessageType& CafMessageTypes::made(std::unordered_map<std::string, detail::MessageType>& types,
                                                 std::string name, const std::type_info& payload,
                                                 std::string (*summarize)(const void*), signed char lossy) {
  names_.push_back(name);
  detail::MessageType type{&payload, &names_.back(), summarize};
  type.lossy = lossy;
  return types.emplace(std::move(name), type).first->second;
}

}  // namespace exocheck::caf_adapter
