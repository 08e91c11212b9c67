// libFuzzer target: a free run's log from anywhere (a harness's EXOCHECK_RECORD, a crash's torn
// end, a damaged disk), as `exocheck record --from LOG` reads it: its version, its constructs a
// replay cannot follow and its trace, as a process's end known or not. A log it makes no sense of
// is fine; a crash, a hang or a sanitizer report is not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exocheck/wire/free_run_log.hpp"
#include "free_run_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace exocheck;
  const std::string_view log(reinterpret_cast<const char*>(data), size);
  (void)wire::free_run_log::format_version_of(log);
  (void)cli::unreplayable_constructs(log);
  for (const bool known : {true, false}) {
    const auto trace =
        cli::trace_of_free_run(log, cli::ProcessEnd{.exit_code = 1, .signal = 0, .known = known}, {}, {});
    (void)cli::failed(trace);
    (void)trace.SerializeAsString();
  }
  return 0;
}
