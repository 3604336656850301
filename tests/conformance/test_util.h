// Shared helpers of the conformance suite. Everything here uses the public ACL API only
// (include/acl); the suite must never include runtime internals, so that it can run unchanged against
// every driver (and, in principle, against a real CANN installation).
//
//  - ASSERT_ACL_OK / EXPECT_ACL_OK: check for ACL_SUCCESS and print aclGetRecentErrMsg() on failure.
//  - CtsTest: the base fixture. Applies the backend's unsupported-test list (backends.cc), sets device 0
//    for the test and resets it afterwards, and leaves the thread's error state clean.
//  - RAII owners for device/host buffers, streams and events, deterministic random data.
//  - DeviceGate: parks streams on the device until the test opens it, so a test can keep work queued
//    (needs a backend with deferred execution, see backends.h).
//  - RunChild: runs a registered child scenario (CTS_CHILD) in a fresh process with extra environment
//    variables (ASCEND_RT_VISIBLE_DEVICES, NPURT_STREAM_LIMIT ...), without death tests.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "backends.h"

namespace cts {

// ---------------------------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------------------------

// Formats a failed ACL call with its code and the runtime's recent error message.
testing::AssertionResult AclSucceeded(const char* expr_text, aclError result);
// Checks that `result` is `expected`; on mismatch prints both and the recent error message.
testing::AssertionResult AclFailedWith(const char* expected_text, const char* expr_text, aclError expected,
                                       aclError result);
// A rejected handle: ACL_ERROR_RT_INVALID_HANDLE (107017) or ACL_ERROR_INVALID_PARAM (100000), the two
// codes the contract documents for handles that are stale, foreign or of the wrong type.
testing::AssertionResult AclRejectedHandle(const char* expr_text, aclError result);

}  // namespace cts

#define ASSERT_ACL_OK(expr) ASSERT_PRED_FORMAT1(::cts::AclSucceeded, (expr))
#define EXPECT_ACL_OK(expr) EXPECT_PRED_FORMAT1(::cts::AclSucceeded, (expr))
#define EXPECT_ACL_ERR(code, expr) EXPECT_PRED_FORMAT2(::cts::AclFailedWith, static_cast<aclError>(code), (expr))
#define ASSERT_ACL_ERR(code, expr) ASSERT_PRED_FORMAT2(::cts::AclFailedWith, static_cast<aclError>(code), (expr))
#define EXPECT_BAD_HANDLE(expr) EXPECT_PRED_FORMAT1(::cts::AclRejectedHandle, (expr))

namespace cts {

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

// Skips the running test (GTEST_SKIP with the reason) if backends.cc lists it as unsupported by the
// backend under test. Every fixture calls it first.
#define CTS_SKIP_IF_UNSUPPORTED()                                                      \
  do {                                                                                 \
    if (const char* cts_reason_ = ::cts::UnsupportedReasonForCurrentTest()) {          \
      GTEST_SKIP() << "unsupported on backend '" << ::cts::Backend().name << "': " << cts_reason_; \
    }                                                                                  \
  } while (0)

// How much slower the instrumented builds run (ASan+UBSan, TSan): the time bounds of stress tests, which
// guard against hangs and lost wake-ups, scale with it; the per-wait timeouts that catch those stay.
#if defined(__SANITIZE_THREAD__)
inline constexpr int kSanitizerSlowdown = 8;
#elif defined(__SANITIZE_ADDRESS__)
inline constexpr int kSanitizerSlowdown = 4;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr int kSanitizerSlowdown = 8;
#elif __has_feature(address_sanitizer)
inline constexpr int kSanitizerSlowdown = 4;
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif

// Skips the test if the backend has fewer than `n` devices.
#define CTS_REQUIRE_DEVICES(n)                                                         \
  do {                                                                                 \
    if (::cts::DeviceCount() < static_cast<uint32_t>(n)) {                             \
      GTEST_SKIP() << "needs " << (n) << " devices, the backend has " << ::cts::DeviceCount(); \
    }                                                                                  \
  } while (0)

// Marks a test that fails because of a known npurt bug: it is skipped with "npurt bug: <reason>" unless
// NPURT_CTS_RUN_KNOWN_BUGS=1 (to check a fix). `condition` limits the skip to where the bug shows.
#define CTS_KNOWN_BUG_IF(condition, reason)                                            \
  do {                                                                                 \
    if ((condition) && !::cts::RunKnownBugs()) GTEST_SKIP() << "npurt bug: " << reason; \
  } while (0)
#define CTS_KNOWN_BUG(reason) CTS_KNOWN_BUG_IF(true, reason)
bool RunKnownBugs();

// Base fixture: device 0 is set for the test (its default context is current) and reset afterwards.
class CtsTest : public testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

 private:
  bool device_set_ = false;
};

// For tests that manage devices (or aclInit/aclFinalize) themselves: only applies the skip list and
// cleans the error state.
class CtsNoDeviceTest : public testing::Test {
 protected:
  void SetUp() override;
};

// Clears the calling thread's last error and recent message.
void ClearErrorState();
uint32_t DeviceCount();

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

// Deterministic pseudo-random bytes (never all zero).
// A fresh directory under $TMPDIR (npurt_<tag>_XXXXXX), removed with everything in it when the test
// process exits; "" if it cannot be made.
std::string MakeTempDir(const char* tag);
std::vector<uint8_t> RandomBytes(size_t n, uint64_t seed);
// Fills `p` with deterministic pseudo-random bytes.
void FillRandom(void* p, size_t n, uint64_t seed);
// Index of the first differing byte, or -1.
long FirstDifference(const void* a, const void* b, size_t n);
// True if every byte of [p, p+n) equals `value`.
bool AllBytesAre(const void* p, size_t n, uint8_t value);

// ---------------------------------------------------------------------------------------------
// Owners
// ---------------------------------------------------------------------------------------------

// Device memory from aclrtMalloc (current context), freed with aclrtFree.
class DevBuf {
 public:
  explicit DevBuf(size_t size, aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_FIRST);
  ~DevBuf();
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  void* get() const { return ptr_; }
  uint8_t* bytes() const { return static_cast<uint8_t*>(ptr_); }
  size_t size() const { return size_; }
  bool ok() const { return ptr_ != nullptr; }
  // Hands the pointer over (the caller frees it).
  void* release() { return std::exchange(ptr_, nullptr); }
  // Synchronous host <-> device helpers.
  aclError Upload(const void* src, size_t n, size_t offset = 0);
  aclError Download(void* dst, size_t n, size_t offset = 0) const;
  std::vector<uint8_t> Read() const;

 private:
  void* ptr_ = nullptr;
  size_t size_;
};

// Pinned host memory from aclrtMallocHost.
class PinnedBuf {
 public:
  explicit PinnedBuf(size_t size);
  ~PinnedBuf();
  PinnedBuf(const PinnedBuf&) = delete;
  PinnedBuf& operator=(const PinnedBuf&) = delete;
  void* get() const { return ptr_; }
  uint8_t* bytes() const { return static_cast<uint8_t*>(ptr_); }
  size_t size() const { return size_; }
  bool ok() const { return ptr_ != nullptr; }

 private:
  void* ptr_ = nullptr;
  size_t size_;
};

// A stream of the current context, destroyed (after synchronizing) at scope exit unless released.
class Stream {
 public:
  Stream();
  Stream(uint32_t priority, uint32_t flags);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  aclrtStream get() const { return s_; }
  operator aclrtStream() const { return s_; }  // NOLINT: handle-like
  bool ok() const { return s_ != nullptr; }
  aclrtStream release() { return std::exchange(s_, nullptr); }

 private:
  aclrtStream s_ = nullptr;
};

class Event {
 public:
  explicit Event(uint32_t flags = ACL_EVENT_SYNC, bool reusable = false);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  aclrtEvent get() const { return e_; }
  operator aclrtEvent() const { return e_; }  // NOLINT: handle-like
  bool ok() const { return e_ != nullptr; }
  aclrtEvent release() { return std::exchange(e_, nullptr); }

 private:
  aclrtEvent e_ = nullptr;
};

// Parks streams until Open(): each Block(stream) enqueues an aclrtValueWait on a device word that
// Open() sets with a synchronous host-to-device copy. No host thread is blocked while the gate is
// closed, so everything queued behind it stays pending. Requires Backend().deferred_execution
// (throws otherwise, which fails the test: list such tests in backends.cc).
class DeviceGate {
 public:
  DeviceGate();
  ~DeviceGate();
  DeviceGate(const DeviceGate&) = delete;
  DeviceGate& operator=(const DeviceGate&) = delete;
  aclError Block(aclrtStream stream);
  aclError Open();
  bool ok() const { return word_ != nullptr; }

 private:
  void* word_ = nullptr;
  bool open_ = false;
};

// A thread that serves report callbacks (or host functions) by looping on aclrtProcessReport
// (aclrtProcessHostFunc) with a short timeout. Subscribe its id() to streams, then Start(); Stop()
// before unsubscribing.
class CallbackThread {
 public:
  enum class Kind { kReport, kHostFunc };
  explicit CallbackThread(Kind kind = Kind::kReport);
  ~CallbackThread();
  uint64_t id() const { return id_; }
  std::thread::id std_id() const { return std_id_; }
  void Start() { running_.store(true); }
  void Stop();
  // Number of aclrtProcess* calls that returned something other than success or timeout.
  int unexpected_errors() const { return unexpected_.load(); }
  // Calls that returned success (at least one callback ran).
  int served() const { return served_.load(); }

 private:
  Kind kind_;
  std::atomic<bool> running_{false};
  std::atomic<bool> stop_{false};
  std::atomic<int> unexpected_{0};
  std::atomic<int> served_{0};
  uint64_t id_ = 0;
  std::thread thread_;
  std::thread::id std_id_;
};

// Waits (polling, bounded) until `pred` holds; returns false on timeout.
template <typename Pred>
bool WaitFor(Pred pred, std::chrono::milliseconds timeout = std::chrono::milliseconds(10000)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// The calling thread's id as the ACL callback APIs take it (pthread_t).
uint64_t CurrentThreadId();

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

using ChildFn = int (*)();

struct ChildRegistrar {
  ChildRegistrar(const char* name, ChildFn fn);
};

// Defines a child scenario, run by RunChild in a fresh process (before any aclInit). It reports
// with ChildReport and returns the process exit code.
#define CTS_CHILD(name)                                                             \
  static int CtsChild_##name();                                                     \
  static ::cts::ChildRegistrar cts_child_registrar_##name(#name, &CtsChild_##name); \
  static int CtsChild_##name()

// Prints "cts:<key>=<value>" for the parent to read.
void ChildReport(const char* key, long long value);
// The end of a child body that used device 0: resets it, finalizes and returns the exit code 0.
int FinishChildOnDevice0();
void ChildReportText(const char* key, const std::string& value);

struct ChildResult {
  int exit_code = -1;
  std::string output;                         // everything the child wrote (stdout and stderr)
  std::map<std::string, std::string> values;  // its ChildReport lines
  bool Has(const std::string& key) const { return values.count(key) != 0; }
  long long Int(const std::string& key) const;
  std::string Text(const std::string& key) const;
};

// Runs child scenario `name` in a new process of this executable with the environment of this
// process plus `env` (name, value) overrides; waits at most `timeout_s` seconds.
ChildResult RunChild(const std::string& name, const std::vector<std::pair<std::string, std::string>>& env,
                     int timeout_s = 60);
// Entry point used by main() for "--cts-child <name>".
int RunChildScenario(const char* name);

// Rendezvous of two-process tests (this process and a RunChild child) through files in a fresh directory.
std::string TempDir();
// Writes a file atomically (the reader never sees it half written).
void WriteFile(const std::string& path, const std::string& content);
// The whole file at `path` ("" when it cannot be read).
std::string Slurp(const std::string& path);
// Waits (bounded) for a non-empty file to appear; returns its content.
bool WaitForFile(const std::string& path, std::string* content, int seconds);
// The environment variable's value, or `fallback` if it is not set.
const char* EnvOr(const char* name, const char* fallback);

}  // namespace cts
