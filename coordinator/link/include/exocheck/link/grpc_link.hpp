#pragma once
// LinkSettings made into gRPC credentials, and the shared token checked on every call the
// coordinator serves. Only sources that already include gRPC include this header.

#include <memory>
#include <optional>
#include <string>

#include <grpcpp/grpcpp.h>

#include "exocheck/link/link_settings.hpp"

namespace exocheck::link {

/// The metadata key a client's token travels in.
inline constexpr const char* kTokenKey = "x-exocheck-token";

/// TLS (mutual when the settings name a CA) or plaintext. The caller has checked plaintext_refusal.
std::shared_ptr<grpc::ServerCredentials> server_credentials(const LinkSettings& settings);
std::shared_ptr<grpc::ChannelCredentials> channel_credentials(const LinkSettings& settings);

/// Puts the token, if any, on a call.
void present_token(grpc::ClientContext& context, const LinkSettings& settings);

/// UNAUTHENTICATED when the coordinator has a token and the call does not carry it; nothing
/// when it may go on. Compared in constant time.
std::optional<grpc::Status> token_refusal(const grpc::ServerContextBase& context, const std::string& token);

}  // namespace exocheck::link
