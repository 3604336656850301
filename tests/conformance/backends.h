// The backend (driver configuration) the conformance suite runs against, its capabilities, and the
// tests it cannot run. The table of unsupported tests lives in backends.cc: every entry names a test
// and says why; such a test is reported as skipped with that reason, never silently dropped.
#pragma once

#include <cstdint>
#include <string>

namespace cts {

struct BackendInfo {
  // "sim_async", "sim_sync", ... (NPURT_CTS_BACKEND, else derived from NPURT_DRIVER/NPURT_SIM_MODE).
  std::string name;
  // Submitted work can stay pending behind a parked task while the host thread carries on. False for
  // the sim's synchronous mode, where every task runs inline at submission.
  bool deferred_execution = true;
};

const BackendInfo& Backend();

// The reason the running test is unsupported on this backend, or nullptr.
const char* UnsupportedReasonForCurrentTest();
// The same for a test named "Suite.Name".
const char* UnsupportedReason(const std::string& full_test_name);
// Calls fn(test_name_pattern) for every entry of the table (all backends), for the table's self-check.
void ForEachUnsupportedEntry(void (*fn)(const char* backend, const char* test, void* arg), void* arg);

}  // namespace cts
