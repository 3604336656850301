// Faults are contained: a kernel that writes through a wild pointer, divides by zero, traps, misuses the
// unified buffer or runs past its timeout fails its task (not the process); synchronize returns the error,
// exception callbacks get the task, stream, device and function; stop-on-failure discards what follows;
// other streams and contexts keep running. Device-memory checking (NPURT_SIM_MEMCHECK=1) names the
// allocation an access missed. Kernel printf reaches stdout as whole lines.
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include "kernel_cts_chevron.h"
#include "kernel_test_util.h"

namespace cts {
namespace {

// Records what the exception callbacks receive.
struct Seen {
  std::mutex mu;
  int calls = 0;
  uint32_t task = 0, stream = 0, device = 0, code = 0;
  aclrtFuncHandle func = nullptr;
  void* args = nullptr;
  uint32_t args_len = 0;
  int binary_calls = 0;
  void* binary_user_data = nullptr;
  uint32_t binary_code = 0;
  void Reset() {
    std::lock_guard<std::mutex> lock(mu);
    calls = binary_calls = 0;
    task = stream = device = code = binary_code = 0;
    func = nullptr;
    args = binary_user_data = nullptr;
    args_len = 0;
  }
};
Seen g_seen;

void OnException(aclrtExceptionInfo* info) {
  std::lock_guard<std::mutex> lock(g_seen.mu);
  g_seen.calls++;
  g_seen.task = aclrtGetTaskIdFromExceptionInfo(info);
  g_seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
  g_seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
  g_seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
  if (aclrtGetFuncHandleFromExceptionInfo(info, &g_seen.func) != ACL_SUCCESS) g_seen.func = nullptr;
  if (aclrtGetArgsFromExceptionInfo(info, &g_seen.args, &g_seen.args_len) != ACL_SUCCESS) g_seen.args = nullptr;
}

void OnBinaryException(aclrtExceptionInfo* info, void* user_data) {
  std::lock_guard<std::mutex> lock(g_seen.mu);
  g_seen.binary_calls++;
  g_seen.binary_user_data = user_data;
  g_seen.binary_code = aclrtGetErrorCodeFromExceptionInfo(info);
}

class KernelFaultTest : public KernelTest {
 protected:
  // Launches `name` with host args and returns what synchronizing the stream says (and its message).
  aclError LaunchAndSync(aclrtStream s, const char* name, uint32_t blocks, const std::vector<uint8_t>& args,
                         std::string* message) {
    aclError rc = aclrtLaunchKernelWithHostArgs(Func(name), blocks, s, nullptr, const_cast<uint8_t*>(args.data()),
                                                args.size(), nullptr, 0);
    if (rc != ACL_SUCCESS) return rc;
    rc = aclrtSynchronizeStream(s);
    *message = TakeErrorMessage();
    return rc;
  }
};

TEST_F(KernelFaultTest, WildWriteFailsOnlyItsTask) {
  Stream s;
  DevBuf out(4 * sizeof(uint32_t));
  ASSERT_ACL_OK(aclrtMemset(out.get(), out.size(), 0, out.size()));
  std::string msg;
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(reinterpret_cast<void*>(0x10)).Add(uint32_t{2}).Bytes();
  EXPECT_EQ(LaunchAndSync(s, "cts_fault_wild_write", 4, args, &msg), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(msg.find("cts_fault_wild_write"), std::string::npos) << msg;
  EXPECT_NE(msg.find("block 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("0x10"), std::string::npos) << msg;
  // Reported once (a continue-on-failure stream's error is cleared by the synchronize that reports it);
  // the process, the device and other streams carry on.
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  Stream other;
  std::vector<uint8_t> ok = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
  DevBuf ids(3 * 2 * sizeof(uint32_t));
  std::vector<uint8_t> ids_args = ArgBlock().Add(ids.get()).Add(uint32_t{0}).Bytes();
  EXPECT_EQ(LaunchAndSync(other, "cts_block_ids", 2, ids_args, &msg), ACL_SUCCESS);
}

TEST_F(KernelFaultTest, DivisionByZeroTrapAndUnifiedBufferMisuse) {
  struct Case {
    const char* kernel;
    std::vector<uint8_t> args;
    const char* words;
  };
  DevBuf data(2 * sizeof(int32_t)), zero(sizeof(int32_t));
  std::vector<int32_t> d = {5, 10};
  ToDevice(data, d);
  ASSERT_ACL_OK(aclrtMemset(zero.get(), 4, 0, 4));
  const Case cases[] = {
      {"cts_fault_divide", ArgBlock().Add(data.get()).Add(zero.get()).Bytes(), "division by zero"},
      {"cts_fault_trap", {}, "trap"},
      {"cts_fault_ub_overflow", ArgBlock().Add(uint32_t{256 * 1024}).Bytes(), "unified buffer"},
      {"cts_fault_empty_dequeue", {}, "DeQue"},
  };
  for (const Case& c : cases) {
    Stream s;
    std::string msg;
    EXPECT_EQ(LaunchAndSync(s, c.kernel, 1, c.args, &msg), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION) << c.kernel;
    EXPECT_NE(msg.find(c.words), std::string::npos) << c.kernel << ": " << msg;
    EXPECT_NE(msg.find(c.kernel), std::string::npos) << msg;
  }
}

TEST_F(KernelFaultTest, ExceptionCallbacksGetTaskStreamDeviceAndFunction) {
  g_seen.Reset();
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(&OnException));
  int user_data = 42;
  ASSERT_ACL_OK(aclrtBinarySetExceptionCallback(bin_, &OnBinaryException, &user_data));
  Stream s;
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(s, &stream_id));
  aclrtFuncHandle f = Func("cts_fault_wild_write");
  DevBuf out(4 * sizeof(uint32_t));
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(reinterpret_cast<void*>(0x20)).Add(uint32_t{0}).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, args.data(), args.size(), nullptr, 0));
  uint32_t task_id = 0;
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&task_id));
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(&OnException));
  std::lock_guard<std::mutex> lock(g_seen.mu);
  EXPECT_EQ(g_seen.calls, 1);
  EXPECT_EQ(g_seen.task, task_id);
  EXPECT_EQ(g_seen.stream, static_cast<uint32_t>(stream_id));
  EXPECT_EQ(g_seen.device, 0u);
  EXPECT_EQ(g_seen.code, static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  EXPECT_EQ(g_seen.func, f);
  EXPECT_NE(g_seen.args, nullptr);
  EXPECT_EQ(g_seen.args_len, args.size());
  EXPECT_EQ(g_seen.binary_calls, 1);
  EXPECT_EQ(g_seen.binary_user_data, &user_data);
  EXPECT_EQ(g_seen.binary_code, static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
}

TEST_F(KernelFaultTest, StopOnFailureDiscardsLaterTasks) {
  for (bool stop : {false, true}) {
    Stream s;
    ASSERT_ACL_OK(aclrtSetStreamFailureMode(s, stop ? ACL_STOP_ON_FAILURE : ACL_CONTINUE_ON_FAILURE));
    DevBuf buf(64);
    ASSERT_ACL_OK(aclrtMemset(buf.get(), 64, 0, 64));
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_fault_trap"), 1, s, nullptr, nullptr, 0, nullptr, 0));
    ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), 64, 0xab, 64, s));
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    EXPECT_EQ(AllBytesAre(buf.Read().data(), 64, 0xab), !stop) << (stop ? "stop" : "continue") << " on failure";
  }
}

TEST_F(KernelFaultTest, ChevronLaunchedKernelFaults) {
  Stream s;
  DevBuf out(4);
  ASSERT_EQ(CtsChevronTrap(s.get(), static_cast<uint32_t*>(out.get())), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(TakeErrorMessage().find("cts_chevron_trap"), std::string::npos);
}

TEST_F(KernelFaultTest, OtherContextKeepsStreamingWhileKernelsFault) {
  std::atomic<bool> stop{false};
  std::atomic<int> rounds{0}, bad{0};
  std::thread worker([&] {
    aclrtContext ctx = nullptr;
    if (aclrtCreateContext(&ctx, 0) != ACL_SUCCESS) {
      bad++;
      return;
    }
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    aclrtFuncHandle f = Func("cts_vec_add");
    const uint32_t n = 4096;
    void *x = nullptr, *y = nullptr, *z = nullptr;
    aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> hx(n), hz(n);
    for (uint32_t i = 0; i < n; ++i) hx[i] = static_cast<float>(i);
    aclrtMemcpy(x, n * 4, hx.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, n * 4, hx.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    std::vector<uint8_t> args = ArgBlock().Add(x).Add(y).Add(z).Add(n).Bytes();
    while (!stop.load() || rounds.load() < 5) {
      if (aclrtLaunchKernelWithHostArgs(f, 4, s, nullptr, args.data(), args.size(), nullptr, 0) != ACL_SUCCESS ||
          aclrtSynchronizeStream(s) != ACL_SUCCESS) {
        bad++;
        break;
      }
      aclrtMemcpy(hz.data(), n * 4, z, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
      if (hz[n - 1] != 2.0f * static_cast<float>(n - 1)) bad++;
      rounds++;
    }
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
    aclrtDestroyStream(s);
    aclrtDestroyContext(ctx);
  });
  DevBuf out(16);
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(reinterpret_cast<void*>(0x30)).Add(uint32_t{1}).Bytes();
  for (int i = 0; i < 20; ++i) {
    Stream s;
    std::string msg;
    EXPECT_EQ(LaunchAndSync(s, "cts_fault_wild_write", 2, args, &msg), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  }
  stop = true;
  worker.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GE(rounds.load(), 5);
}

TEST_F(KernelFaultTest, ExecutionTimeoutFailsTheKernel) {
  DevBuf stop(sizeof(uint32_t));
  ASSERT_ACL_OK(aclrtMemset(stop.get(), 4, 0, 4));
  std::vector<uint8_t> args = ArgBlock().Add(stop.get()).Bytes();
  // The process-wide op execution timeout.
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(100));
  {
    Stream s;
    const auto t0 = std::chrono::steady_clock::now();
    std::string msg;
    EXPECT_EQ(LaunchAndSync(s, "cts_spin", 3, args, &msg), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
    EXPECT_NE(msg.find("timeout"), std::string::npos) << msg;
    // The cores are free again: a kernel that finishes in time succeeds.
    Stream again;
    DevBuf ids(3 * 4 * sizeof(uint32_t));
    std::vector<uint8_t> ok = ArgBlock().Add(ids.get()).Add(uint32_t{0}).Bytes();
    EXPECT_EQ(LaunchAndSync(again, "cts_block_ids", 4, ok, &msg), ACL_SUCCESS) << msg;
  }
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(0));
  // The launch attribute (microseconds) wins over the process setting.
  aclrtLaunchKernelAttr attr;
  aclrtLaunchKernelCfg cfg = TimeoutUsConfig(&attr, 50000);
  Stream s;
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_spin"), 1, s, &cfg, args.data(), args.size(), nullptr, 0));
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
}

CTS_CHILD(kernel_memcheck) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle f = nullptr;
  if (aclrtBinaryLoadFromFile(KernelBinaryPath(), nullptr, &bin) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(bin, "cts_fault_copy_past", &f) != ACL_SUCCESS) {
    return 3;
  }
  void *x = nullptr, *y = nullptr;
  aclrtMalloc(&x, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&y, 8192, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  for (uint32_t count : {256u, 512u}) {  // in bounds, then 1024 bytes past the end of x
    std::vector<uint8_t> args = ArgBlock().Add(x).Add(y).Add(count).Bytes();
    aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, args.data(), args.size(), nullptr, 0);
    const aclError rc = aclrtSynchronizeStream(s);
    const char* msg = aclGetRecentErrMsg();
    ChildReport(count == 256 ? "in_bounds" : "out_of_bounds", rc);
    if (count == 512) ChildReportText("message", msg != nullptr ? msg : "");
    ChildReport("x", static_cast<long long>(reinterpret_cast<uintptr_t>(x)));
  }
  return 0;
}

TEST_F(KernelFaultTest, MemcheckNamesTheAllocationAnAccessMissed) {
  ChildResult r = RunChild("kernel_memcheck", {{"NPURT_SIM_MEMCHECK", "1"}});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.Int("in_bounds"), ACL_SUCCESS) << r.output;
  EXPECT_EQ(r.Int("out_of_bounds"), ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW) << r.output;
  const std::string msg = r.Text("message");
  EXPECT_NE(msg.find("past the end of the 1024-byte allocation"), std::string::npos) << msg;
  char base[32];
  std::snprintf(base, sizeof base, "%#llx", static_cast<unsigned long long>(r.Int("x")));
  EXPECT_NE(msg.find(base), std::string::npos) << "the message names the allocation " << base << ": " << msg;
}

CTS_CHILD(kernel_printf) {
  uint32_t value = 7;
  void* array[] = {&value};
  return RunKernelInChild("cts_print", 3, array);
}

TEST_F(KernelFaultTest, KernelPrintfReachesStdoutAsWholeLines) {
  ChildResult r = RunChild("kernel_printf", {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Whole lines, as the kernel wrote them (no prefix, as CANN prints them): each block's own line once,
  // and the line every block builds from two printf calls three times, never torn apart.
  const std::string out = "\n" + r.output;
  auto count = [&](const std::string& line) {
    size_t n = 0;
    for (size_t at = out.find("\n" + line + "\n"); at != std::string::npos; at = out.find("\n" + line + "\n", at + 1)) ++n;
    return n;
  };
  for (int b = 0; b < 3; ++b) {
    const std::string line = "value 7 from block " + std::to_string(b) + " of 3";
    EXPECT_EQ(1u, count(line)) << line << " in:\n" << r.output;
  }
  EXPECT_EQ(3u, count("split line 8")) << r.output;
}

}  // namespace
}  // namespace cts

namespace cts {
namespace {

// aclrtStreamAbort and aclrtStreamStop interrupt a running kernel (the official sample
// 1_basic_features/stream/1_stream_with_failure_mode): its task fails, what was queued behind it is
// discarded, the next synchronize reports it, and the stream stays usable. Covers a kernel the executor runs
// alone (1 block) and one whose blocks the AI cores share (more blocks than cores, so some never start).
class StreamInterruptTest : public KernelFaultTest {
 protected:
  void InterruptSpinningKernel(uint32_t flags, aclError (*interrupt)(aclrtStream), aclError expected,
                               const char* reason) {
    std::mt19937 rng(std::random_device{}());
    for (uint32_t blocks : {1u, 1u + static_cast<uint32_t>(rng() % 7)}) {
      SCOPED_TRACE(blocks);
      Stream s(0, flags);
      DevBuf started(8), stop(4), buf(4096);
      ASSERT_ACL_OK(aclrtMemset(started.get(), 8, 0, 8));
      ASSERT_ACL_OK(aclrtMemset(stop.get(), 4, 0, 4));  // never set: the kernel spins until interrupted
      const std::vector<uint8_t> before = RandomBytes(buf.size(), static_cast<uint32_t>(rng()));
      ASSERT_ACL_OK(buf.Upload(before.data(), buf.size()));
      std::vector<uint8_t> args = ArgBlock().Add(started.get()).Add(stop.get()).Bytes();
      ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_spin_started"), blocks, s, nullptr, args.data(),
                                                  args.size(), nullptr, 0));
      ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), buf.size(), 0x5a, buf.size(), s));
      // Interrupted while it runs (a kernel that has not started is simply discarded).
      for (int polls = 0; FromDevice<uint64_t>(started, 1)[0] == 0; ++polls) ASSERT_LT(polls, 1000) << "never started";
      ASSERT_ACL_OK(interrupt(s));
      EXPECT_EQ(expected, aclrtSynchronizeStream(s));
      const std::string msg = TakeErrorMessage();
      EXPECT_NE(std::string::npos, msg.find("cts_spin_started")) << msg;
      EXPECT_NE(std::string::npos, msg.find(reason)) << msg;
      EXPECT_EQ(before, buf.Read()) << "the fill queued behind the kernel was discarded";
      ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), buf.size(), 0x5b, buf.size(), s));
      ASSERT_ACL_OK(aclrtSynchronizeStream(s));
      EXPECT_TRUE(AllBytesAre(buf.Read().data(), buf.size(), 0x5b)) << "the stream stays usable";
    }
  }
};

TEST_F(StreamInterruptTest, AbortInterruptsTheRunningKernel) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "a synchronous backend runs each launch to completion at submission";
  InterruptSpinningKernel(0, &aclrtStreamAbort, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "aclrtStreamAbort");
}

TEST_F(StreamInterruptTest, StopInterruptsTheRunningKernel) {
  if (!Backend().deferred_execution) GTEST_SKIP() << "a synchronous backend runs each launch to completion at submission";
  InterruptSpinningKernel(ACL_STREAM_DEVICE_USE_ONLY, &aclrtStreamStop, ACL_ERROR_RT_INTERNAL_ERROR, "aclrtStreamStop");
}

}  // namespace
}  // namespace cts
