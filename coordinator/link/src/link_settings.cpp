#include "exocheck/link/link_settings.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace exocheck::link {
namespace {

std::string read_file(const std::string& flag, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(flag + " " + path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw std::invalid_argument(flag + " " + path + ": empty");
  return text.str();
}

std::string read_pem(const std::string& flag, const std::string& path) {
  if (path.empty()) return "";
  auto text = read_file(flag, path);
  if (text.find("-----BEGIN ") == std::string::npos) throw std::invalid_argument(flag + " " + path + ": not PEM");
  return text;
}

}  // namespace

std::vector<CLI::Option*> add_link_flags(CLI::App& app, LinkFlags& flags, const std::string& role) {
  std::vector<CLI::Option*> added;
  added.push_back(
      app.add_option("--tls-cert", flags.tls_cert, "PEM certificate (chain) of " + role + "; with --tls-key")
          ->group("Link security"));
  added.push_back(app.add_option("--tls-key", flags.tls_key, "PEM private key of --tls-cert")->group("Link security"));
  added.push_back(
      app.add_option("--tls-ca", flags.tls_ca,
                     "PEM CA certificate: clients verify the coordinator with it; the coordinator accepts only clients "
                     "and agents whose certificate it signed")
          ->group("Link security"));
  added.push_back(
      app.add_option("--token-file", flags.token_file,
                     "file whose first line is the token the coordinator requires of every client and agent")
          ->group("Link security"));
  added.push_back(
      app.add_flag("--insecure", flags.insecure,
                   "allow plaintext (no TLS) on an address beyond loopback: anyone on the network can read and "
                   "forge the traffic")
          ->group("Link security"));
  return added;
}

LinkSettings read_link_settings(const LinkFlags& flags) {
  if (flags.tls_cert.empty() != flags.tls_key.empty()) {
    throw std::invalid_argument("--tls-cert and --tls-key go together: a certificate needs its key");
  }
  LinkSettings settings;
  settings.cert_pem = read_pem("--tls-cert", flags.tls_cert);
  settings.key_pem = read_pem("--tls-key", flags.tls_key);
  settings.ca_pem = read_pem("--tls-ca", flags.tls_ca);
  if (!flags.token_file.empty()) {
    std::istringstream text(read_file("--token-file", flags.token_file));
    std::getline(text, settings.token);
    if (!settings.token.empty() && settings.token.back() == '\r') settings.token.pop_back();
    if (settings.token.empty())
      throw std::invalid_argument("--token-file " + flags.token_file + ": its first line is empty");
  }
  settings.insecure = flags.insecure;
  return settings;
}

bool is_loopback(const std::string& address) {
  if (address.starts_with("unix:") || address.starts_with("unix-abstract:")) return true;
  std::string host = address;
  if (host.starts_with("dns:///")) host = host.substr(7);
  if (host.starts_with("ipv4:") || host.starts_with("ipv6:")) host = host.substr(5);
  if (host.starts_with("[")) {
    host = host.substr(1, host.find(']') - 1);
  } else if (const auto colon = host.rfind(':'); colon != std::string::npos) {
    host = host.substr(0, colon);
  }
  return host == "localhost" || host == "::1" || host.starts_with("127.");
}

CLI::Option* add_metrics_option(CLI::App& app, std::string& address) {
  return app.add_option("--metrics", address,
                        "serve Prometheus metrics at http://ADDR/metrics (host:port; plain HTTP, so beyond loopback "
                        "only with --insecure)");
}

std::string metrics_refusal(const LinkSettings& settings, const std::string& address) {
  if (address.empty() || settings.insecure || is_loopback(address)) return "";
  return "metrics are plain HTTP: serving them on " + address + " beyond loopback needs --insecure";
}

std::string plaintext_warning(const LinkSettings& settings, const std::string& address, const std::string& what) {
  if (settings.tls() || is_loopback(address)) return "";
  return "--insecure: " + what + " " + address + " in plaintext; anyone on the network can read and forge the traffic";
}

std::string plaintext_refusal(const LinkSettings& settings, const std::string& address, const std::string& what) {
  if (settings.tls() || settings.insecure || is_loopback(address)) return "";
  return what + " " + address +
         " in plaintext is allowed on loopback only: give --tls-cert/--tls-key/--tls-ca, "
         "or --insecure to accept that anyone on the network can read and forge the traffic";
}

}  // namespace exocheck::link
