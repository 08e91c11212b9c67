#include "delivery_choice.hpp"

#include "exocheck/options/delivery.hpp"
#include "hook_attachment.hpp"
#include "program_file.hpp"

namespace exocheck::cli {

DeliveryChoice choose_delivery(const std::string& asked, const std::string& program) {
  if (!asked.empty()) return {options::parse_delivery(asked).value(), ""};  // the option's check
  if (agent::uses_caf(program_file(program))) return {engine::Delivery::kCausal, "CAF's order, the default for CAF"};
  return {engine::Delivery::kUnordered, "the default"};
}

}  // namespace exocheck::cli
