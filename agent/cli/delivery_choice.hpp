#pragma once
// The delivery order a command runs a program under: the one asked (--delivery), else the
// program's front end's own guarantee. A CAF program in one process: CAF puts a message into its
// receiver's mailbox as it is sent (its manual, "Message Passing": `send` "simply enqueues a
// message to the mailbox of the receiver"), so of two messages to one actor the one sent causally
// first is taken first; exploring it unordered reported crashes of orders CAF never shows. A
// program on exocheck's API: the papers' model, any pending message.

#include <string>

#include "exocheck/engine/options.hpp"

namespace exocheck::cli {

struct DeliveryChoice {
  engine::Delivery delivery = engine::Delivery::kUnordered;
  std::string why;  ///< "" when asked; else why the order is the default, for the Options line
};

/// `asked`: --delivery's value ("" when not given); `program`: the subject as typed.
DeliveryChoice choose_delivery(const std::string& asked, const std::string& program);

}  // namespace exocheck::cli
