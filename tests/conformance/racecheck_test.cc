// The device-memory race detector (include/npurt/racecheck.h, docs/racecheck.md): unsynchronised
// accesses to overlapping bytes of one allocation are reported once, with both sides; every
// happens-before edge (stream order, host synchronisation, events, notifies, value waits, callbacks)
// suppresses the report. The detector works on the submission-order view, so every expectation here
// holds whatever the simulator's timing (both backends).
#include <atomic>
#include <cstring>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "npurt/racecheck.h"

namespace cts {
namespace {

std::vector<std::string> RaceReports() {
  std::vector<std::string> out;
  const size_t n = npurtRacecheckReportCount();
  for (size_t i = 0; i < n; ++i) {
    size_t len = 0;
    EXPECT_EQ(npurtRacecheckGetReport(i, nullptr, 0, &len), ACL_SUCCESS);
    std::string text(len + 1, '\0');
    EXPECT_EQ(npurtRacecheckGetReport(i, text.data(), text.size(), nullptr), ACL_SUCCESS);
    text.resize(len);
    out.push_back(text);
  }
  return out;
}

std::string AllReports() {
  std::string all;
  for (const std::string& r : RaceReports()) all += r + "\n";
  return all;
}

std::string Hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return buf;
}

int32_t StreamId(aclrtStream s) {
  int32_t id = -1;
  EXPECT_EQ(aclrtStreamGetId(s, &id), ACL_SUCCESS);
  return id;
}

uint32_t LastTaskId() {
  uint32_t id = 0;
  EXPECT_EQ(aclrtGetThreadLastTaskId(&id), ACL_SUCCESS);
  return id;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class RacecheckTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    ASSERT_EQ(npurtRacecheckSetEnabled(1), ACL_SUCCESS);
    ASSERT_EQ(npurtRacecheckEnabled(), 1);
    rng_.seed(static_cast<uint32_t>(testing::UnitTest::GetInstance()->random_seed()) + 1405u);
  }
  void TearDown() override {
    npurtRacecheckSetEnabled(0);
    KernelTest::TearDown();
  }

  size_t Uniform(size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(rng_); }

  // z = x + y over n floats with random data, on `s`; returns the expected z.
  std::vector<float> LaunchAdd(aclrtStream s, const DevBuf& x, const DevBuf& y, const DevBuf& z, uint32_t n) {
    std::vector<float> hx(n), hy(n), want(n);
    std::uniform_real_distribution<float> d(-100.f, 100.f);
    for (uint32_t i = 0; i < n; ++i) {
      hx[i] = d(rng_);
      hy[i] = d(rng_);
      want[i] = hx[i] + hy[i];
    }
    ToDevice(x, hx);
    ToDevice(y, hy);
    std::vector<uint8_t> args = ArgBlock().Add(x.get()).Add(y.get()).Add(z.get()).Add(n).Bytes();
    EXPECT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_vec_add"), 4, s, nullptr, args.data(), args.size(), nullptr,
                                                0));
    return want;
  }

  std::mt19937 rng_;
};

TEST_F(RacecheckTest, KernelWriteThenUnsynchronisedCopyIsReportedOnceWithBothSides) {
  Stream s;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  LaunchAdd(s, x, y, z, n);
  const uint32_t kernel_task = LastTaskId();
  // A random range of z, read back at once: no synchronisation orders it after the kernel.
  const size_t off = Uniform(0, n - 16) * sizeof(float);
  const size_t len = Uniform(1, n * sizeof(float) - off);
  std::vector<uint8_t> host(len);
  ASSERT_ACL_OK(aclrtMemcpy(host.data(), len, z.bytes() + off, len, ACL_MEMCPY_DEVICE_TO_HOST));
  // The same racy pattern again is the same race: still one report.
  ASSERT_ACL_OK(aclrtMemcpy(host.data(), len, z.bytes() + off, len, ACL_MEMCPY_DEVICE_TO_HOST));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));

  const std::vector<std::string> reports = RaceReports();
  ASSERT_EQ(reports.size(), 1u) << AllReports();
  const std::string& r = reports[0];
  EXPECT_TRUE(Contains(r, "write [")) << r;
  EXPECT_TRUE(Contains(r, "aclrtLaunchKernel 'cts_vec_add' (task " + std::to_string(kernel_task) + ", stream " +
                              std::to_string(StreamId(s)) + ", device 0)"))
      << r;
  EXPECT_TRUE(Contains(r, "read [" + Hex(z.bytes() + off) + ", +" + std::to_string(len) + ") by aclrtMemcpy "
                          "(synchronous host call)"))
      << r;
  EXPECT_TRUE(Contains(r, "allocation: " + Hex(z.get()) + ", " + std::to_string(n * sizeof(float)) + " bytes")) << r;
  EXPECT_TRUE(Contains(r, std::to_string(len) + " bytes at offset " + std::to_string(off))) << r;
  // The inputs were written by the host before the launch and only read by it: no race on x or y.
  EXPECT_FALSE(Contains(r, "allocation: " + Hex(x.get()))) << r;
}

TEST_F(RacecheckTest, StreamSynchronizeOrdersTheCopyAfterTheKernel) {
  Stream s;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  const std::vector<float> want = LaunchAdd(s, x, y, z, n);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(FromDevice<float>(z, n), want);
  // aclrtSynchronizeDevice and aclrtStreamQuery (answering complete) are host synchronisation too.
  LaunchAdd(s, x, y, z, n);
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  FromDevice<float>(z, n);
  LaunchAdd(s, x, y, z, n);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_TRUE(WaitFor([&] {
    return aclrtStreamQuery(s, &status) == ACL_SUCCESS && status == ACL_STREAM_STATUS_COMPLETE;
  }));
  FromDevice<float>(z, n);
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();
}

TEST_F(RacecheckTest, EventSynchronizeAndStreamWaitOrderTheReaders) {
  Stream s1, s2;
  Event e;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  // Host side: record, aclrtSynchronizeEvent, then a synchronous read.
  std::vector<float> want = LaunchAdd(s1, x, y, z, n);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  EXPECT_EQ(FromDevice<float>(z, n), want);
  // Device side: record on s1, wait on s2, then an asynchronous copy on s2.
  want = LaunchAdd(s1, x, y, z, n);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  PinnedBuf out(n * sizeof(float));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), out.size(), z.get(), z.size(), ACL_MEMCPY_DEVICE_TO_HOST, s2));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(std::memcmp(out.get(), want.data(), out.size()), 0);
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();
}

TEST_F(RacecheckTest, WithoutTheEventWaitTheOtherStreamRaces) {
  Stream s1, s2;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  LaunchAdd(s1, x, y, z, n);
  PinnedBuf out(n * sizeof(float));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), out.size(), z.get(), z.size(), ACL_MEMCPY_DEVICE_TO_HOST, s2));
  const uint32_t copy_task = LastTaskId();
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<std::string> reports = RaceReports();
  ASSERT_EQ(reports.size(), 1u) << AllReports();
  EXPECT_TRUE(Contains(reports[0], "aclrtMemcpyAsync (task " + std::to_string(copy_task) + ", stream " +
                                       std::to_string(StreamId(s2)) + ", device 0)"))
      << reports[0];
}

TEST_F(RacecheckTest, KernelsOnTwoStreamsReadingOneConstInputDoNotRace) {
  Stream s1, s2;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf in(n * sizeof(float)), out1(n * sizeof(float)), out2(n * sizeof(float));
  std::vector<float> host(n);
  std::uniform_real_distribution<float> d(-10.f, 10.f);
  for (float& v : host) v = d(rng_);
  ToDevice(in, host);
  const float a = d(rng_), b = d(rng_);
  std::vector<uint8_t> args1 = ArgBlock().Add(in.get()).Add(out1.get()).Add(a).Add(n).Bytes();
  std::vector<uint8_t> args2 = ArgBlock().Add(in.get()).Add(out2.get()).Add(b).Add(n).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_race_scale"), 3, s1, nullptr, args1.data(), args1.size(),
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_race_scale"), 3, s2, nullptr, args2.data(), args2.size(),
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<float> r1 = FromDevice<float>(out1, n), r2 = FromDevice<float>(out2, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(r1[i], host[i] * a) << i;
    ASSERT_EQ(r2[i], host[i] * b) << i;
  }
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();
  // Writing the input from the host while a reader is queued is a race, named on the kernel's side.
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_race_scale"), 3, s1, nullptr, args1.data(), args1.size(),
                                              nullptr, 0));
  ToDevice(in, host);
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<std::string> reports = RaceReports();
  ASSERT_EQ(reports.size(), 1u) << AllReports();
  EXPECT_TRUE(Contains(reports[0], "read [" + Hex(in.get()) + ", +" + std::to_string(n * sizeof(float)) +
                                       ") by aclrtLaunchKernel 'cts_race_scale'"))
      << reports[0];
}

struct CallbackCopy {
  void* dst;
  const void* src;
  size_t size;
  std::atomic<int> result{-1};
};

void CopyInCallback(void* arg) {
  auto* c = static_cast<CallbackCopy*>(arg);
  c->result = aclrtMemcpy(c->dst, c->size, c->src, c->size, ACL_MEMCPY_DEVICE_TO_HOST);
}

TEST_F(RacecheckTest, ACallbackIsOrderedAfterItsStreamsEarlierWork) {
  Stream s, other;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  const std::vector<float> want = LaunchAdd(s, x, y, z, n);
  std::vector<float> host(n);
  CallbackCopy in_order{host.data(), z.get(), n * sizeof(float)};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s, &CopyInCallback, &in_order));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(in_order.result.load(), ACL_SUCCESS);
  EXPECT_EQ(host, want);
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();

  // A callback on another stream is not ordered after the kernel.
  LaunchAdd(s, x, y, z, n);
  CallbackCopy unordered{host.data(), z.get(), n * sizeof(float)};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(other, &CopyInCallback, &unordered));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<std::string> reports = RaceReports();
  ASSERT_EQ(reports.size(), 1u) << AllReports();
  EXPECT_TRUE(Contains(reports[0], "aclrtMemcpy (synchronous host call inside the callback task")) << reports[0];
  EXPECT_TRUE(Contains(reports[0], "of stream " + std::to_string(StreamId(other)) + ")")) << reports[0];
}

TEST_F(RacecheckTest, TwoStreamsWritingDisjointRangesDoNotRaceOverlappingOnesDo) {
  Stream s1, s2;
  const size_t size = Uniform(4096, 1 << 20);
  DevBuf buf(size);
  const size_t split = Uniform(1, size - 1);
  const int v1 = static_cast<int>(Uniform(1, 255)), v2 = static_cast<int>(Uniform(1, 255));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), split, v1, split, s1));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.bytes() + split, size - split, v2, size - split, s2));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<uint8_t> bytes = buf.Read();
  EXPECT_TRUE(AllBytesAre(bytes.data(), split, static_cast<uint8_t>(v1)));
  EXPECT_TRUE(AllBytesAre(bytes.data() + split, size - split, static_cast<uint8_t>(v2)));
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();

  // Now the second range starts `overlap` bytes before the first one ends.
  const size_t overlap = Uniform(1, split);
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), split, v1, split, s1));
  const uint32_t first_task = LastTaskId();
  const size_t second = size - split + overlap;
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.bytes() + split - overlap, second, v2, second, s2));
  const uint32_t second_task = LastTaskId();
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<std::string> reports = RaceReports();
  ASSERT_EQ(reports.size(), 1u) << AllReports();
  const std::string& r = reports[0];
  EXPECT_TRUE(Contains(r, std::to_string(overlap) + " bytes at offset " + std::to_string(split - overlap))) << r;
  EXPECT_TRUE(Contains(r, "aclrtMemsetAsync (task " + std::to_string(first_task) + ", stream " +
                              std::to_string(StreamId(s1))))
      << r;
  EXPECT_TRUE(Contains(r, "aclrtMemsetAsync (task " + std::to_string(second_task) + ", stream " +
                              std::to_string(StreamId(s2))))
      << r;
}

TEST_F(RacecheckTest, HostMemsetRacesAQueuedAsynchronousCopy) {
  Stream s;
  const size_t size = Uniform(4096, 1 << 20);
  DevBuf buf(size);
  PinnedBuf src(size);
  FillRandom(src.get(), size, 1405);
  ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), size, src.get(), size, ACL_MEMCPY_HOST_TO_DEVICE, s));
  const size_t off = Uniform(0, size - 1), len = Uniform(1, size - off);
  ASSERT_ACL_OK(aclrtMemset(buf.bytes() + off, len, 0x5a, len));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<std::string> reports = RaceReports();
  ASSERT_EQ(reports.size(), 1u) << AllReports();
  EXPECT_TRUE(Contains(reports[0], "write [" + Hex(buf.bytes() + off) + ", +" + std::to_string(len) +
                                       ") by aclrtMemset (synchronous host call)"))
      << reports[0];
  // After the stream synchronisation the same memset is ordered: no new report, and its bytes land.
  ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), size, src.get(), size, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtMemset(buf.bytes() + off, len, 0x5a, len));
  EXPECT_EQ(npurtRacecheckReportCount(), 1u) << AllReports();
  const std::vector<uint8_t> bytes = buf.Read();
  EXPECT_TRUE(AllBytesAre(bytes.data() + off, len, 0x5a));
  EXPECT_EQ(std::memcmp(bytes.data(), src.get(), off), 0);
}

TEST_F(RacecheckTest, ANotifyWaitedForBeforeItIsRecordedStillOrdersTheStreams) {
  Stream s1, s2;
  const uint32_t n = static_cast<uint32_t>(Uniform(64, 4096));
  DevBuf x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  // A fresh notify each round: one created where a destroyed one was must not inherit its records.
  for (int round = 0; round < 3; ++round) {
    aclrtNotify notify = nullptr;
    ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
    // s2 waits first; the reader queued behind the wait runs after s1 records.
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, s2, 0));
    PinnedBuf out(n * sizeof(float));
    ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), out.size(), z.get(), z.size(), ACL_MEMCPY_DEVICE_TO_HOST, s2));
    const std::vector<float> want = LaunchAdd(s1, x, y, z, n);
    ASSERT_ACL_OK(aclrtRecordNotify(notify, s1));
    ASSERT_ACL_OK(aclrtSynchronizeDevice());
    EXPECT_EQ(std::memcmp(out.get(), want.data(), out.size()), 0);
    ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  }
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();
}

TEST_F(RacecheckTest, AValueWaitOrdersTheWaiterAfterTheWrite) {
  Stream s1, s2;
  DevBuf word(sizeof(uint64_t));
  ASSERT_ACL_OK(aclrtMemset(word.get(), word.size(), 0, word.size()));
  const size_t size = Uniform(4096, 1 << 20);
  DevBuf buf(size);
  const uint64_t token = Uniform(1, 1000);
  ASSERT_ACL_OK(aclrtValueWait(word.get(), token, ACL_STREAM_WAIT_VALUE_EQ, s2));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), size, 0x11, size, s2));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), size, 0x22, size, s1));
  ASSERT_ACL_OK(aclrtValueWrite(word.get(), token, 0, s1));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<uint8_t> bytes = buf.Read();
  EXPECT_TRUE(AllBytesAre(bytes.data(), size, 0x11));  // s2's fill ran after s1's
  EXPECT_EQ(npurtRacecheckReportCount(), 0u) << AllReports();
}

TEST_F(RacecheckTest, ReportApiRejectsBadArguments) {
  char buf[8];
  EXPECT_EQ(npurtRacecheckGetReport(0, buf, sizeof buf, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(TakeErrorMessage().find("does not exist"), std::string::npos);
  EXPECT_EQ(npurtRacecheckGetReport(0, nullptr, 4, nullptr), ACL_ERROR_INVALID_PARAM);
}

// NPURT_RACECHECK=1 with allocation sites recorded: the report names where the allocation was made,
// and the exit summary counts the race.
CTS_CHILD(racecheck_sites) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  if (npurtRacecheckEnabled() != 1) return 3;
  aclrtStream s = nullptr;
  void* buf = nullptr;
  const size_t size = 12345;
  if (aclrtCreateStream(&s) != ACL_SUCCESS || aclrtMalloc(&buf, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return 4;
  }
  std::vector<uint8_t> host(size, 7);
  if (aclrtMemsetAsync(buf, size, 9, size, s) != ACL_SUCCESS) return 5;
  if (aclrtMemcpy(host.data(), size, buf, size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return 6;
  if (aclrtSynchronizeStream(s) != ACL_SUCCESS) return 7;
  ChildReport("reports", static_cast<long long>(npurtRacecheckReportCount()));
  char text[4096];
  if (npurtRacecheckGetReport(0, text, sizeof text, nullptr) == ACL_SUCCESS) {
    std::string one_line = text;  // the parent reads one line per value
    for (char& c : one_line) c = c == '\n' ? '|' : c;
    ChildReportText("report", one_line);
  }
  aclrtFree(buf);
  aclrtDestroyStream(s);
  return FinishChildOnDevice0();
}

TEST_F(RacecheckTest, ReportsNameTheAllocationSiteWhenRecordSitesIsOn) {
  ChildResult r = RunChild("racecheck_sites", {{"NPURT_RACECHECK", "1"}, {"NPURT_ALLOC_CONF", "record_sites:True"}});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.Int("reports"), 1) << r.output;
  const std::string report = r.Text("report");
  EXPECT_TRUE(Contains(report, "12345 bytes, device 0, allocated at ")) << report;
  EXPECT_TRUE(Contains(report, "npurt_conformance")) << report;  // the test binary's frame, not the runtime's
  EXPECT_TRUE(Contains(r.output, "npurt racecheck: 1 race reported")) << r.output;
}

}  // namespace
}  // namespace cts
