#include "exocheck/link/grpc_link.hpp"

namespace exocheck::link {
namespace {

// Constant time in the content: how much of a guess is right never shows in the time it takes.
bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  return difference == 0;
}

}  // namespace

std::shared_ptr<grpc::ServerCredentials> server_credentials(const LinkSettings& settings) {
  if (settings.cert_pem.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options(settings.ca_pem.empty()
                                                ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                                : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  options.pem_root_certs = settings.ca_pem;
  options.pem_key_cert_pairs.push_back({settings.key_pem, settings.cert_pem});
  return grpc::SslServerCredentials(options);
}

std::shared_ptr<grpc::ChannelCredentials> channel_credentials(const LinkSettings& settings) {
  if (!settings.tls()) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = settings.ca_pem;  // empty: the system's roots
  options.pem_private_key = settings.key_pem;
  options.pem_cert_chain = settings.cert_pem;
  return grpc::SslCredentials(options);
}

void present_token(grpc::ClientContext& context, const LinkSettings& settings) {
  if (!settings.token.empty()) context.AddMetadata(kTokenKey, settings.token);
}

std::optional<grpc::Status> token_refusal(const grpc::ServerContextBase& context, const std::string& token) {
  if (token.empty()) return std::nullopt;
  const auto& metadata = context.client_metadata();
  const auto presented = metadata.find(kTokenKey);
  if (presented == metadata.end()) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "this coordinator requires a token (--token-file)");
  }
  if (!same_secret(std::string(presented->second.data(), presented->second.size()), token))
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "the token presented is not this coordinator's");
  return std::nullopt;
}

}  // namespace exocheck::link
