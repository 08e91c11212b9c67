#include "trace_file_input.hpp"

#include "exit_status.hpp"
#include "exocheck/wire/trace_file.hpp"

namespace exocheck::cli {

proto::TraceFile load_trace_file(const std::string& path) {
  try {
    return wire::read_trace_file(path);
  } catch (const wire::TraceFileError& error) {
    throw InputError(error.what());
  }
}

}  // namespace exocheck::cli
