#include "daemon_processes.hpp"

#include <csignal>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include <boost/process.hpp>

namespace exocheck::distributed_test {

namespace bp = boost::process;

std::filesystem::path bin_dir() {
  return EXOCHECK_BIN_DIR;
}

struct DaemonProcess::Impl {
  bp::child child;
};

DaemonProcess::DaemonProcess(const std::filesystem::path& program, const std::vector<std::string>& args,
                             const std::filesystem::path& log)
    : impl_(std::make_unique<Impl>()) {
  impl_->child = bp::child(program.string(), bp::args(args), bp::std_out > log.string(), bp::std_err > log.string(),
                           bp::std_in < bp::null);
}

DaemonProcess::~DaemonProcess() {
  if (running()) stop(SIGKILL);
}

bool DaemonProcess::running() {
  return impl_->child.running();
}

int DaemonProcess::stop(int signal) {
  if (impl_->child.running()) ::kill(impl_->child.id(), signal);
  impl_->child.wait();
  const int native = impl_->child.native_exit_code();
  return WIFSIGNALED(native) ? 128 + WTERMSIG(native) : WEXITSTATUS(native);
}

LoopbackCluster::LoopbackCluster() {
  dir_ = std::filesystem::temp_directory_path() /
         ("exocheck-cluster-" + std::to_string(getpid()) + "-" +
          std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir_);
  const auto port_file = dir_ / "port";
  coordinator_ = std::make_unique<DaemonProcess>(
      bin_dir() / "exocheck-coordinator",
      std::vector<std::string>{"--listen", "127.0.0.1:0", "--port-file", port_file.string()}, dir_ / "coordinator.log");
  for (int attempt = 0; attempt < 200; ++attempt) {
    std::ifstream in(port_file);
    int port = 0;
    if (in >> port && port > 0) {
      address_ = "127.0.0.1:" + std::to_string(port);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  throw std::runtime_error("the coordinator did not start listening within 5 s: " + coordinator_log());
}

LoopbackCluster::~LoopbackCluster() {
  for (auto& agent : agents_) {
    if (agent && agent->running()) agent->stop(SIGTERM);
  }
  agents_.clear();
  if (coordinator_->running()) coordinator_->stop(SIGTERM);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::size_t LoopbackCluster::start_agent(const std::string& name, int slots) {
  const auto index = agents_.size();
  agents_.push_back(std::make_unique<DaemonProcess>(
      bin_dir() / "exocheck-agent",
      std::vector<std::string>{"--coordinator", address_, "--slots", std::to_string(slots), "--name", name},
      dir_ / ("agent-" + std::to_string(index) + ".log")));
  return index;
}

void LoopbackCluster::wait_for_agents(std::size_t count) const {
  for (int attempt = 0; attempt < 200; ++attempt) {
    const auto log = coordinator_log();
    std::size_t attached = 0;
    for (auto at = log.find(" attached with "); at != std::string::npos; at = log.find(" attached with ", at + 1)) {
      ++attached;
    }
    if (attached >= count) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  throw std::runtime_error("fewer than " + std::to_string(count) + " agents attached within 5 s: " + coordinator_log());
}

void LoopbackCluster::kill_agent(std::size_t index) {
  agents_.at(index)->stop(SIGKILL);
}

std::string LoopbackCluster::coordinator_log() const {
  std::ifstream in(dir_ / "coordinator.log");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace exocheck::distributed_test
