#pragma once
// The delivery-order axis: in which order a receiver takes the messages it accepts.

#include <array>
#include <optional>
#include <string_view>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/option_table.hpp"
#include "proto/trace.pb.h"

namespace exocheck::options {

struct DeliveryRow {
  std::string_view name;
  std::string_view help;
  engine::Delivery engine;
  proto::DeliveryOrder wire;
};

inline constexpr std::string_view kDeliveryFlag = "--delivery";
inline constexpr std::string_view kDeliveryHelp =
    "In which order an actor takes the messages it accepts (a message its guard refuses holds nothing back)";

/// What --delivery is when it is not given: the program's front end's own guarantee.
inline constexpr std::string_view kDeliveryDefaultHelp =
    "; default: causal for a CAF program (in one process CAF puts a message into its receiver's mailbox as it "
    "is sent, so a message sent causally first is taken first), unordered for a program on exocheck's API (the "
    "papers' model)";

inline constexpr std::array<DeliveryRow, 3> kDeliveries{{
    {"unordered", "any pending message, as ActorFoundry and Scala actors", engine::Delivery::kUnordered,
     proto::DELIVERY_UNORDERED},
    {"fifo", "per sender: of two messages from one actor to another, the one sent first goes first (Erlang, Akka, CAF)",
     engine::Delivery::kFifo, proto::DELIVERY_FIFO},
    {"causal", "a message sent causally before another to the same actor goes first (Erlang's instant delivery)",
     engine::Delivery::kCausal, proto::DELIVERY_CAUSAL},
}};

inline std::string_view name_of(engine::Delivery delivery) {
  return row_of(kDeliveries, delivery).name;
}

inline std::optional<engine::Delivery> parse_delivery(std::string_view name) {
  return parse(kDeliveries, name);
}

}  // namespace exocheck::options
