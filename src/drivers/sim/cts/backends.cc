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

hal::DriverOptions SimOptions(bool synchronous) {
  hal::DriverOptions o;
  o.device_count = 1;
  o.memory_bytes = 64ull << 20;  // small: the suite runs on 2-core CI machines
  o.aicore_count = 2;
  o.synchronous = synchronous;
  return o;
}

constexpr Capabilities kSimCaps{/*deferred_execution=*/true};
constexpr Capabilities kSimSyncCaps{/*deferred_execution=*/false};

[[maybe_unused]] const bool kRegistered =
    RegisterBackend({"sim", "sim", SimOptions(false), kSimCaps, {}}) &&
    RegisterBackend({"sim_sync",
                     "sim",
                     SimOptions(true),
                     kSimSyncCaps,
                     {{"QueueSuite.DiscardedTasksCompleteWithoutRunningAndAreCleanedUp", kNeedsQueuedWork},
                      {"QueueSuite.HostWaitOnAParkedQueueHonoursItsDeadline", kNeedsQueuedWork}}});

}  // namespace
}  // namespace hal_cts
