// The sim driver's backends in the HAL CTS (tests/hal_cts): the asynchronous sim (executor threads, the
// runtime's default) and the synchronous one (every task runs inline on the submitting thread).
#include "cts.h"

namespace hal_cts {
namespace {

// Why the synchronous sim cannot run a test: the test submits a wait that nothing has satisfied yet from the
// thread that would satisfy it later; run inline at submission, the wait blocks that thread for good.
constexpr const char* kNeedsQueuedWork =
    "keeps tasks queued behind an unsatisfied wait submitted from the test's own thread; the synchronous sim "
    "runs every task at submission, so that wait would block the thread that is to release it";

// The sim's configuration section (drivers/sim/sim_options.h), as NPURT_SIM_* would set it.
hal::DriverConfig SimConfig(const char* mode) {
  hal::DriverConfig c;
  c.SetText("device_count", "1");
  c.SetText("memory_mb", "64");  // small: the suite runs on 2-core CI machines
  c.SetText("aicore_count", "2");
  c.SetText("mode", mode);
  return c;
}

constexpr Capabilities kSimCaps{/*deferred_execution=*/true};
constexpr Capabilities kSimSyncCaps{/*deferred_execution=*/false};

[[maybe_unused]] const bool kRegistered =
    RegisterBackend({"sim", "sim", SimConfig("async"), kSimCaps, {}}) &&
    RegisterBackend({"sim_sync",
                     "sim",
                     SimConfig("sync"),
                     kSimSyncCaps,
                     {{"QueueSuite.DiscardedTasksCompleteWithoutRunningAndAreCleanedUp", kNeedsQueuedWork},
                      {"QueueSuite.HostWaitOnAParkedQueueHonoursItsDeadline", kNeedsQueuedWork}}});

}  // namespace
}  // namespace hal_cts
