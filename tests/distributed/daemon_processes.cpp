#include "daemon_processes.hpp"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include <boost/process.hpp>

namespace exocheck::distributed_test {

namespace bp = boost::process;

std::filesystem::path bin_dir() {
  return EXOCHECK_BIN_DIR;
}

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
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

LoopbackCluster::LoopbackCluster(bool journaled, std::vector<std::string> coordinator_args)
    : journaled_(journaled), coordinator_args_(std::move(coordinator_args)) {
  dir_ = std::filesystem::temp_directory_path() /
         ("exocheck-cluster-" + std::to_string(getpid()) + "-" +
          std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir_);
  start_coordinator("127.0.0.1:0");
}

void LoopbackCluster::start_coordinator(const std::string& listen) {
  const auto port_file = dir_ / "port";
  std::filesystem::remove(port_file);
  std::vector<std::string> args{"--listen", listen, "--port-file", port_file.string()};
  if (journaled_) {
    args.push_back("--state-dir");
    args.push_back((dir_ / "state").string());
  }
  args.insert(args.end(), coordinator_args_.begin(), coordinator_args_.end());
  coordinator_ = std::make_unique<DaemonProcess>(bin_dir() / "exocheck-coordinator", args,
                                                 dir_ / ("coordinator-" + std::to_string(starts_++) + ".log"));
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

void LoopbackCluster::restart_coordinator() {
  coordinator_->stop(SIGKILL);
  // The port may linger a moment after the kill.
  for (int attempt = 0;; ++attempt) {
    try {
      start_coordinator(address_);
      return;
    } catch (const std::runtime_error&) {
      if (attempt == 20) throw;
      coordinator_->stop(SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
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

std::size_t LoopbackCluster::start_agent(const std::string& name, int slots, const std::filesystem::path& subjects_dir,
                                         const std::vector<std::string>& extra_args) {
  const auto index = agents_.size();
  std::vector<std::string> args{
      "--coordinator", address_, "--slots",        std::to_string(slots),
      "--name",        name,     "--subjects-dir", (subjects_dir.empty() ? bin_dir() : subjects_dir).string()};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  agents_.push_back(std::make_unique<DaemonProcess>(bin_dir() / "exocheck-agent", args,
                                                    dir_ / ("agent-" + std::to_string(index) + ".log")));
  return index;
}

int LoopbackCluster::agent_exit_status(std::size_t index, int seconds) {
  for (int attempt = 0; attempt < seconds * 20; ++attempt) {
    if (!agents_.at(index)->running()) return agents_[index]->stop(SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return -1;
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

int LoopbackCluster::stop_agent(std::size_t index, int signal) {
  return agents_.at(index)->stop(signal);
}

std::string LoopbackCluster::coordinator_log() const {
  std::stringstream text;
  for (int start = 0; start < starts_; ++start) {
    std::ifstream in(dir_ / ("coordinator-" + std::to_string(start) + ".log"));
    text << in.rdbuf();
  }
  return text.str();
}

std::string LoopbackCluster::agent_log(std::size_t index) const {
  std::ifstream in(dir_ / ("agent-" + std::to_string(index) + ".log"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace exocheck::distributed_test
