// The links of a cluster, secured: a coordinator with a token refuses clients and agents without
// it or with another; with TLS and a CA, it refuses clients whose certificate that CA did not
// sign; plaintext beyond loopback needs --insecure. Real daemons, the real CLI, certificates made
// by openssl for the test.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "daemon_processes.hpp"

namespace exocheck::distributed_test {
namespace {

class LinkSecurityTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::filesystem::create_directories(dir());
    std::ofstream(dir() / "server.ext") << "subjectAltName=IP:127.0.0.1,DNS:localhost\n";
    // A CA that signs the coordinator's and the agents' and clients' certificates, and a rogue one.
    for (const std::string ca : {"ca", "rogue-ca"}) {
      openssl("req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=" + ca +
              " -keyout " + file(ca + ".key") + " -out " + file(ca + ".pem"));
    }
    sign("server", "ca", true);
    sign("client", "ca", false);
    sign("rogue-client", "rogue-ca", false);
    std::ofstream(dir() / "token") << "s3cret-token\n";
    std::ofstream(dir() / "other-token") << "another-token\n";
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir()); }

  static std::filesystem::path dir() {
    return std::filesystem::temp_directory_path() / ("exocheck-link-" + std::to_string(::getpid()));
  }
  static std::string file(const std::string& name) { return (dir() / name).string(); }
  static void openssl(const std::string& arguments) {
    const auto result = run_command("openssl " + arguments + " 2>&1");
    ASSERT_EQ(result.exit_code, 0) << "openssl " << arguments << ": " << result.out;
  }
  static void sign(const std::string& name, const std::string& ca, bool server) {
    openssl("req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=" + name + " -keyout " +
            file(name + ".key") + " -out " + file(name + ".csr"));
    openssl("x509 -req -days 1 -in " + file(name + ".csr") + " -CA " + file(ca + ".pem") + " -CAkey " +
            file(ca + ".key") + " -CAcreateserial -out " + file(name + ".pem") +
            (server ? " -extfile " + file("server.ext") : std::string()));
  }
  static std::vector<std::string> tls(const std::string& who, bool with_ca = true) {
    std::vector<std::string> args{"--tls-cert", file(who + ".pem"), "--tls-key", file(who + ".key")};
    if (with_ca) args.insert(args.end(), {"--tls-ca", file("ca.pem")});
    return args;
  }
  static std::string words(const std::vector<std::string>& args) {
    std::string text;
    for (const auto& arg : args) text += " " + arg;
    return text;
  }

  // `exocheck explore --coordinator` of registry (6 classes) with `link_args`; output and status.
  static CommandResult explore(const LoopbackCluster& cluster, const std::vector<std::string>& link_args) {
    return run_command((bin_dir() / "exocheck").string() + " explore --coordinator " + cluster.address() +
                       words(link_args) + " --out " + file("out") + " -- " + (bin_dir() / "registry").string() +
                       " 2>&1");
  }
};

TEST_F(LinkSecurityTest, WithATokenOnlyThoseWhoPresentItAreServed) {
  LoopbackCluster cluster(false, {"--token-file", file("token")});
  cluster.start_agent("a1", 1, {}, {"--token-file", file("token")});
  cluster.wait_for_agents(1);

  const auto without = explore(cluster, {});
  EXPECT_EQ(without.exit_code, 2) << without.out;
  EXPECT_NE(without.out.find("this coordinator requires a token (--token-file)"), std::string::npos) << without.out;
  const auto wrong = explore(cluster, {"--token-file", file("other-token")});
  EXPECT_EQ(wrong.exit_code, 2) << wrong.out;
  EXPECT_NE(wrong.out.find("the token presented is not this coordinator's"), std::string::npos) << wrong.out;
  const auto right = explore(cluster, {"--token-file", file("token")});
  EXPECT_EQ(right.exit_code, 0) << right.out << cluster.coordinator_log();
  EXPECT_NE(right.out.find(" 6 classes, 0 bugs"), std::string::npos) << right.out;

  // An agent with another token is refused, says so, and stops (exit 2) instead of retrying.
  const auto intruder = cluster.start_agent("intruder", 1, {}, {"--token-file", file("other-token")});
  EXPECT_EQ(cluster.agent_exit_status(intruder, 10), 2) << cluster.agent_log(intruder);
  EXPECT_NE(cluster.agent_log(intruder).find("refused this agent: the token presented is not this coordinator's"),
            std::string::npos)
      << cluster.agent_log(intruder);
  EXPECT_NE(cluster.coordinator_log().find("refused an agent from "), std::string::npos);
}

TEST_F(LinkSecurityTest, WithMutualTlsOnlyCertificatesTheCaSignedAreServed) {
  LoopbackCluster cluster(false, tls("server"));
  cluster.start_agent("a1", 1, {}, tls("client"));
  cluster.wait_for_agents(1);

  const auto trusted = explore(cluster, tls("client"));
  EXPECT_EQ(trusted.exit_code, 0) << trusted.out << cluster.coordinator_log();
  EXPECT_NE(trusted.out.find(" 6 classes, 0 bugs"), std::string::npos) << trusted.out;

  const std::vector<std::vector<std::string>> refused = {
      {"--tls-ca", file("ca.pem")},  // no certificate
      {"--tls-cert", file("rogue-client.pem"), "--tls-key", file("rogue-client.key"), "--tls-ca",
       file("ca.pem")},  // another CA's
      {},                // plaintext
  };
  for (const auto& args : refused) {
    const auto result = explore(cluster, args);
    EXPECT_EQ(result.exit_code, 2) << words(args) << ": " << result.out;
    EXPECT_NE(result.out.find("does not answer"), std::string::npos) << words(args) << ": " << result.out;
    EXPECT_EQ(result.out.find("classes"), std::string::npos) << words(args) << ": " << result.out;
  }
  // A client that does not trust the coordinator's CA does not talk to it either.
  const auto distrustful = explore(
      cluster, {"--tls-cert", file("client.pem"), "--tls-key", file("client.key"), "--tls-ca", file("rogue-ca.pem")});
  EXPECT_EQ(distrustful.exit_code, 2) << distrustful.out;
}

TEST_F(LinkSecurityTest, PlaintextBeyondLoopbackNeedsInsecure) {
  const auto coordinator = run_command((bin_dir() / "exocheck-coordinator").string() + " --listen 0.0.0.0:0 2>&1");
  EXPECT_EQ(coordinator.exit_code, 2);
  EXPECT_NE(coordinator.out.find("listening on 0.0.0.0:0 in plaintext is allowed on loopback only"), std::string::npos)
      << coordinator.out;
  const auto agent = run_command((bin_dir() / "exocheck-agent").string() +
                                 " --coordinator 192.0.2.1:7700 --subjects-dir " + bin_dir().string() + " 2>&1");
  EXPECT_EQ(agent.exit_code, 2);
  EXPECT_NE(agent.out.find("connecting to 192.0.2.1:7700 in plaintext is allowed on loopback only"), std::string::npos)
      << agent.out;
  const auto client = run_command((bin_dir() / "exocheck").string() + " explore --coordinator 192.0.2.1:7700 -- " +
                                  (bin_dir() / "registry").string() + " 2>&1");
  EXPECT_EQ(client.exit_code, 2);
  EXPECT_NE(client.out.find("connecting to 192.0.2.1:7700 in plaintext is allowed on loopback only"), std::string::npos)
      << client.out;
  const auto half = run_command((bin_dir() / "exocheck-coordinator").string() + " --listen 127.0.0.1:0 --tls-cert " +
                                file("server.pem") + " 2>&1");
  EXPECT_EQ(half.exit_code, 2);
  EXPECT_NE(half.out.find("--tls-cert and --tls-key go together"), std::string::npos) << half.out;
}

}  // namespace
}  // namespace exocheck::distributed_test
