#pragma once
// How a gRPC link of exocheck is secured, as every binary that opens or serves one takes it from
// its command line: TLS certificates, a shared token, and the explicit --insecure that plaintext
// needs beyond loopback. No gRPC here: the CLI flags and the files they name only.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace exocheck::link {

/// The flags, as given.
struct LinkFlags {
  std::string tls_cert;  ///< PEM certificate chain: the server's, or a client's for mutual TLS
  std::string tls_key;   ///< its PEM private key
  std::string
      tls_ca;  ///< PEM CA: a client verifies the server with it; a server requires client certificates it signed
  std::string token_file;  ///< a file whose first line is the token every client and agent presents
  bool insecure = false;   ///< plaintext beyond loopback
};

/// What the flags name, read: the PEM texts and the token.
struct LinkSettings {
  std::string cert_pem;
  std::string key_pem;
  std::string ca_pem;
  std::string token;
  bool insecure = false;

  bool tls() const { return !cert_pem.empty() || !ca_pem.empty(); }
};

/// --tls-cert, --tls-key, --tls-ca, --token-file, --insecure; `role` says in the help whose
/// certificate --tls-cert is ("the coordinator", "this agent"). Returns them (for `needs`).
std::vector<CLI::Option*> add_link_flags(CLI::App& app, LinkFlags& flags, const std::string& role);

/// Reads the files the flags name. Throws std::invalid_argument naming the flag, the file and
/// what is wrong (unreadable, empty, a certificate without its key).
LinkSettings read_link_settings(const LinkFlags& flags);

/// True when `address` (host:port, [v6]:port, localhost:port, unix:path) stays on this host.
bool is_loopback(const std::string& address);

/// --metrics ADDR, for a daemon's Prometheus endpoint.
CLI::Option* add_metrics_option(CLI::App& app, std::string& address);

/// Why metrics (plain HTTP) may not be served on `address`: beyond loopback without --insecure;
/// "" when they may.
std::string metrics_refusal(const LinkSettings& settings, const std::string& address);

/// The warning a daemon logs for plaintext beyond loopback (allowed by --insecure); "" if none.
std::string plaintext_warning(const LinkSettings& settings, const std::string& address, const std::string& what);

/// Whether `settings` may be used on `address`: nothing when they may; else why not (plaintext
/// beyond loopback without --insecure), as one line for people.
std::string plaintext_refusal(const LinkSettings& settings, const std::string& address, const std::string& what);

}  // namespace exocheck::link
