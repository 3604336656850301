// Profiling API (acl/acl_prof.h): call order (ACL_ERROR_PROF_ALREADY_RUN 100042 / ACL_ERROR_PROF_NOT_RUN
// 100043), argument checks, the data-type mask (what lands in the raw data), msproftx, step info,
// subscription argument checks, command mode (msprof's environment handshake and the aclInit JSON
// "profiler" section). Raw data is read in its documented 48-byte record format (docs/profiling.md).
#include <dirent.h>
#include <poll.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_op.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
#include "kernel_test_util.h"
#include "test_util.h"

namespace cts {
namespace {

struct RawRecord {  // docs/profiling.md "Raw data"
  uint8_t type;
  uint8_t kind;
  uint16_t device;
  int32_t stream;
  uint32_t task_id;
  uint32_t tid;
  uint64_t t0, t1, a, b;
};
static_assert(sizeof(RawRecord) == 48, "raw record");
enum : uint8_t { kTask = 1, kSubmit = 2, kApi = 3, kMark = 4, kRange = 5, kMemory = 6, kTaskName = 7, kStep = 8,
                 kOpInfo = 9 };
constexpr uint8_t kComputeKind = 11;  // hal::TaskKind::kDispatch, the kind operators run as
constexpr uint8_t kKernelKind = 12;   // hal::TaskKind::kKernel

std::vector<std::string> ListDir(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (std::string(e->d_name).rfind(prefix, 0) == 0) out.push_back(dir + "/" + e->d_name);
    }
    closedir(d);
  }
  return out;
}

// Every record this process wrote under <dir>/PROF_*/raw (or <dir> itself when it is a raw dir).
std::vector<RawRecord> ReadRecords(const std::string& dir) {
  std::vector<std::string> raws = ListDir(dir, "PROF_");
  for (auto& r : raws) r += "/raw";
  if (raws.empty()) raws.push_back(dir);
  std::vector<RawRecord> out;
  for (const auto& raw : raws) {
    std::ifstream in(raw + "/records." + std::to_string(getpid()) + ".bin", std::ios::binary);
    RawRecord r;
    while (in.read(reinterpret_cast<char*>(&r), sizeof r)) out.push_back(r);
  }
  return out;
}

std::map<uint8_t, int> CountByType(const std::vector<RawRecord>& recs) {
  std::map<uint8_t, int> n;
  for (const auto& r : recs) ++n[r.type];
  return n;
}

// A little device work: an upload, a fill, a record/wait pair across two streams, a download.
void RunSomeWork(int rounds) {
  Stream a, b;
  Event ev;
  DevBuf buf(64 << 10);
  std::vector<uint8_t> host = RandomBytes(64 << 10, 7), back(64 << 10);
  for (int i = 0; i < rounds; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), buf.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE, a));
    ASSERT_ACL_OK(aclrtRecordEvent(ev, a));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(b, ev));
    ASSERT_ACL_OK(aclrtMemcpyAsync(back.data(), back.size(), buf.get(), buf.size(), ACL_MEMCPY_DEVICE_TO_HOST, b));
    ASSERT_ACL_OK(aclrtSynchronizeStream(b));
  }
  EXPECT_EQ(-1, FirstDifference(host.data(), back.data(), host.size()));
}

aclprofConfig* Config(uint64_t mask) {
  uint32_t dev = 0;
  return aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, nullptr, mask);
}

class ProfTest : public CtsTest {};

TEST_F(ProfTest, CallOrderErrors) {
  const std::string dir = MakeTempDir("prof_order");
  ASSERT_FALSE(dir.empty());
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize()) << "finalize before init";
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5)) << "before init";
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclprofInit(dir.c_str(), dir.size()));
  EXPECT_ACL_OK(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2));
  aclprofConfig* cfg = Config(ACL_PROF_TASK_TIME);
  ASSERT_NE(nullptr, cfg) << aclGetRecentErrMsg();
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(cfg)) << "stop before start";
  ASSERT_ACL_OK(aclprofStart(cfg));
  EXPECT_ACL_ERR(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart(cfg)) << "start twice";
  EXPECT_ACL_ERR(ACL_ERROR_PROF_ALREADY_RUN, aclprofSetConfig(ACL_PROF_PATH, "/tmp", 4)) << "path while started";
  ASSERT_ACL_OK(aclprofStop(cfg));
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(cfg)) << "stop twice";
  ASSERT_ACL_OK(aclprofStart(cfg)) << "a session can start again after a stop";
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  ASSERT_ACL_OK(aclprofFinalize());
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize()) << "finalize twice";
  EXPECT_EQ(1u, ListDir(dir, "PROF_").size()) << "one PROF_ directory per aclprofInit session";
}

TEST_F(ProfTest, BadArguments) {
  const std::string dir = MakeTempDir("prof_args");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofInit(nullptr, 4));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofInit(dir.c_str(), 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofInit(dir.c_str(), dir.size() + 3)) << "length mismatch";
  uint32_t dev = 0, bad_dev = 999, twice[2] = {0, 0};
  EXPECT_EQ(nullptr, aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, nullptr, 1ull << 50)) << "unknown data type";
  EXPECT_NE(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(nullptr, aclprofCreateConfig(&bad_dev, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME));
  EXPECT_EQ(nullptr, aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME)) << "repeated id";
  EXPECT_EQ(nullptr, aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME));
  EXPECT_EQ(nullptr, aclprofCreateConfig(&dev, 1, static_cast<aclprofAicoreMetrics>(77), nullptr, ACL_PROF_TASK_TIME));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofStart(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofDestroyConfig(nullptr));
  aclprofConfig* cfg = Config(ACL_PROF_TASK_TIME);
  ASSERT_NE(nullptr, cfg);
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofDestroyConfig(cfg)) << "destroyed twice";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofStart(cfg)) << "a destroyed config";
  int not_a_config = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofStart(reinterpret_cast<aclprofConfig*>(&not_a_config)));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(static_cast<aclprofConfigType>(99), "1", 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, nullptr, 1));
}

// Only the data types asked for reach the raw data.
void ProfileWithMask(const std::string& dir, uint64_t mask) {
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  aclprofConfig* cfg = Config(mask);
  ASSERT_NE(nullptr, cfg);
  ASSERT_ACL_OK(aclprofStart(cfg));
  void* stamp = aclprofCreateStamp();
  ASSERT_NE(nullptr, stamp);
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(stamp, "mark", 4));
  ASSERT_ACL_OK(aclprofMark(stamp));
  ASSERT_ACL_OK(aclprofPush(stamp));
  RunSomeWork(3);
  ASSERT_ACL_OK(aclprofPop());
  aclprofDestroyStamp(stamp);
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  ASSERT_ACL_OK(aclprofFinalize());
}

TEST_F(ProfTest, TaskTimeOnlyRecordsTasks) {
  const std::string dir = MakeTempDir("prof_mask_task");
  ProfileWithMask(dir, ACL_PROF_TASK_TIME);
  auto n = CountByType(ReadRecords(dir));
  EXPECT_EQ(12, n[kTask]) << "4 tasks per round, 3 rounds";
  EXPECT_EQ(12, n[kSubmit]);
  EXPECT_EQ(0, n[kMark]) << "msproftx is off";
  EXPECT_EQ(0, n[kRange]);
  EXPECT_EQ(0, n[kMemory]) << "task memory is off";
}

// The interned strings of this process's session under <dir>/PROF_*/raw (strings.<pid>.tsv: "id\ttext").
std::map<uint64_t, std::string> ReadStrings(const std::string& dir) {
  std::map<uint64_t, std::string> out;
  for (const auto& prof : ListDir(dir, "PROF_")) {
    std::ifstream in(prof + "/raw/strings." + std::to_string(getpid()) + ".tsv");
    std::string line;
    while (std::getline(in, line)) {
      const size_t tab = line.find('\t');
      if (tab != std::string::npos) out[std::stoull(line.substr(0, tab))] = line.substr(tab + 1);
    }
  }
  return out;
}

// Operator tasks carry their op type, shapes, data types and formats into the profile (op_summary), not
// just their task kind: every aclopExecuteV2 Add is a kOpInfo record naming its task.
TEST_F(ProfTest, OperatorTasksCarryTheirOpTypeAndTensors) {
  std::mt19937 rng(static_cast<uint32_t>(::testing::UnitTest::GetInstance()->random_seed()) + 41);
  const int64_t rows = 2 + static_cast<int64_t>(rng() % 30), cols = 1 + static_cast<int64_t>(rng() % 17);
  const int runs = 2 + static_cast<int>(rng() % 4);
  const int64_t dims[2] = {rows, cols};
  const size_t n = static_cast<size_t>(rows * cols), bytes = n * sizeof(float);
  std::uniform_real_distribution<float> uni(-8.0f, 8.0f);
  std::vector<float> ha(n), hb(n), hc(n);
  for (size_t i = 0; i < n; ++i) ha[i] = uni(rng), hb[i] = uni(rng);
  const std::string dir = MakeTempDir("prof_ops");
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  aclprofConfig* cfg = Config(ACL_PROF_TASK_TIME);
  ASSERT_NE(nullptr, cfg);
  ASSERT_ACL_OK(aclprofStart(cfg));
  {
    Stream s;
    DevBuf a(bytes), b(bytes), c(bytes);
    ASSERT_ACL_OK(a.Upload(ha.data(), bytes));
    ASSERT_ACL_OK(b.Upload(hb.data(), bytes));
    aclTensorDesc* in_desc[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND),
                                 aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
    aclTensorDesc* out_desc[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
    aclDataBuffer* in_buf[2] = {aclCreateDataBuffer(a.get(), bytes), aclCreateDataBuffer(b.get(), bytes)};
    aclDataBuffer* out_buf[1] = {aclCreateDataBuffer(c.get(), bytes)};
    for (int i = 0; i < runs; ++i) {
      EXPECT_ACL_OK(aclopExecuteV2("Add", 2, in_desc, in_buf, 1, out_desc, out_buf, nullptr, s));
    }
    EXPECT_ACL_OK(aclrtSynchronizeStream(s));
    ASSERT_ACL_OK(c.Download(hc.data(), bytes));
    for (size_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(ha[i] + hb[i], hc[i]) << i;
    for (auto* d : in_desc) aclDestroyTensorDesc(d);
    aclDestroyTensorDesc(out_desc[0]);
    for (auto* d : in_buf) EXPECT_ACL_OK(aclDestroyDataBuffer(d));
    EXPECT_ACL_OK(aclDestroyDataBuffer(out_buf[0]));
  }
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  auto recs = ReadRecords(dir);
  auto strings = ReadStrings(dir);
  ASSERT_ACL_OK(aclprofFinalize());
  std::map<uint32_t, uint8_t> task_kinds;
  for (const auto& r : recs) {
    if (r.type == kTask) task_kinds[r.task_id] = r.kind;
  }
  const std::string tensor = "0:2:" + std::to_string(rows) + "," + std::to_string(cols);  // ACL_FLOAT, ND
  int ops = 0;
  for (const auto& r : recs) {
    if (r.type != kOpInfo) continue;
    ++ops;
    EXPECT_EQ("Add", strings[r.a]) << "the op's name";
    const std::string detail = strings[r.b];
    const std::string type_part = detail.substr(0, detail.find('|'));
    EXPECT_EQ("Add", type_part) << detail;
    const std::string tensors = detail.substr(detail.find('|', type_part.size() + 1));
    EXPECT_EQ("|" + tensor + ";" + tensor + "|" + tensor, tensors) << "inputs | outputs: " << detail;
    ASSERT_EQ(1u, task_kinds.count(r.task_id)) << "the op info names a task that ran: " << r.task_id;
    EXPECT_EQ(kComputeKind, task_kinds[r.task_id]);
  }
  EXPECT_EQ(runs, ops) << "one op info record per aclopExecuteV2";
}

// A kernel launch names its task with the kernel's name and block count (op_summary's Op Name and Block
// Num for kernels).
class ProfKernelTest : public KernelTest {};

TEST_F(ProfKernelTest, KernelTasksCarryTheirNameAndBlockCount) {
  std::mt19937 rng(static_cast<uint32_t>(::testing::UnitTest::GetInstance()->random_seed()) + 7);
  const uint32_t blocks = 1 + rng() % 40;
  const std::string dir = MakeTempDir("prof_kernel");
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  aclprofConfig* cfg = Config(ACL_PROF_TASK_TIME);
  ASSERT_NE(nullptr, cfg);
  ASSERT_ACL_OK(aclprofStart(cfg));
  {
    Stream s;
    DevBuf out(3 * blocks * sizeof(uint32_t));
    std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), blocks, s, nullptr, args.data(), args.size(),
                                                nullptr, 0));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    const std::vector<uint32_t> ids = FromDevice<uint32_t>(out, 3 * blocks);
    for (uint32_t i = 0; i < blocks; ++i) ASSERT_EQ(i, ids[3 * i]) << "block " << i << " ran";
  }
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  auto recs = ReadRecords(dir);
  auto strings = ReadStrings(dir);
  ASSERT_ACL_OK(aclprofFinalize());
  int named = 0;
  for (const auto& r : recs) {
    if (r.type != kTaskName) continue;
    ++named;
    EXPECT_EQ("cts_block_ids", strings[r.a]);
    EXPECT_EQ(blocks, r.b) << "the launch's block count";
    bool ran = false;
    for (const auto& t : recs) ran |= t.type == kTask && t.task_id == r.task_id && t.kind == kKernelKind;
    EXPECT_TRUE(ran) << "the name record names a kernel task that ran";
  }
  EXPECT_EQ(1, named);
}

TEST_F(ProfTest, MsproftxAndMemoryWithoutTasks) {
  const std::string dir = MakeTempDir("prof_mask_tx");
  ProfileWithMask(dir, ACL_PROF_MSPROFTX | ACL_PROF_TASK_MEMORY);
  auto recs = ReadRecords(dir);
  auto n = CountByType(recs);
  EXPECT_EQ(0, n[kTask]) << "task time is off";
  EXPECT_EQ(0, n[kSubmit]);
  EXPECT_EQ(1, n[kMark]);
  EXPECT_EQ(1, n[kRange]);
  EXPECT_EQ(2, n[kMemory]) << "one allocation and its free";
  for (const auto& r : recs) {
    if (r.type == kRange) {
      EXPECT_LE(r.t0, r.t1);
    }
  }
}

TEST_F(ProfTest, MstxMarksAndRangesAreRecordedPerDomain) {
  const std::string dir = MakeTempDir("prof_mstx");
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  aclprofConfig* cfg = Config(ACL_PROF_MSPROFTX);
  ASSERT_NE(nullptr, cfg);
  ASSERT_ACL_OK(aclprofStart(cfg));
  Stream s;
  mstxDomainHandle_t domain = mstxDomainCreateA("cts_domain");
  ASSERT_NE(nullptr, domain);
  mstxMarkA("global mark", s);
  mstxDomainMarkA(domain, "domain mark", s);
  const mstxRangeId outer = mstxRangeStartA("outer", s);
  const mstxRangeId inner = mstxDomainRangeStartA(domain, "inner", s);
  EXPECT_NE(MSTX_INVALID_RANGE_ID, outer);
  EXPECT_NE(outer, inner);
  RunSomeWork(1);
  mstxDomainRangeEnd(domain, outer);  // not the domain's range: ignored
  mstxDomainRangeEnd(domain, inner);
  mstxRangeEnd(outer);
  mstxRangeEnd(outer);  // already closed: ignored
  // Bad input is ignored, never a crash.
  mstxMarkA(nullptr, nullptr);
  EXPECT_EQ(static_cast<mstxRangeId>(MSTX_INVALID_RANGE_ID), mstxRangeStartA(nullptr, nullptr));
  EXPECT_EQ(nullptr, mstxDomainCreateA(nullptr));
  mstxDomainDestroy(domain);
  mstxDomainMarkA(domain, "after destroy", nullptr);  // a destroyed domain: ignored
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  ASSERT_ACL_OK(aclprofFinalize());
  auto n = CountByType(ReadRecords(dir));
  EXPECT_EQ(2, n[kMark]);
  EXPECT_EQ(2, n[kRange]);
}

TEST_F(ProfTest, TaskRecordsDescribeTheTasks) {
  const std::string dir = MakeTempDir("prof_tasks");
  ProfileWithMask(dir, ACL_PROF_TASK_TIME);
  std::map<uint32_t, RawRecord> submits;
  std::vector<RawRecord> tasks;
  for (const auto& r : ReadRecords(dir)) {
    if (r.type == kSubmit) submits[r.task_id] = r;
    if (r.type == kTask) tasks.push_back(r);
  }
  ASSERT_EQ(12u, tasks.size());
  std::map<int32_t, int> per_stream;
  for (const auto& t : tasks) {
    ASSERT_EQ(1u, submits.count(t.task_id)) << "every task has its submission";
    const RawRecord& s = submits[t.task_id];
    EXPECT_LE(s.t0, t.t0) << "a task starts after it was submitted";
    EXPECT_LE(t.t0, t.t1);
    EXPECT_EQ(s.stream, t.stream);
    EXPECT_EQ(0u, t.device);
    EXPECT_EQ(0u, t.b >> 32) << "no task failed";
    EXPECT_EQ(static_cast<uint32_t>(getpid()), s.tid) << "submitted on this thread";
    ++per_stream[t.stream];
  }
  EXPECT_EQ(2u, per_stream.size());
  for (auto& [stream, count] : per_stream) EXPECT_EQ(6, count) << "stream " << stream;
}

TEST_F(ProfTest, MsproftxErrors) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofPop()) << "pop without push";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(12345));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofMark(nullptr));
  uint32_t id = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangeStart(nullptr, &id));
  void* stamp = aclprofCreateStamp();
  ASSERT_NE(nullptr, stamp);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(stamp, "x", 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(stamp, nullptr, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangeStart(stamp, nullptr));
  ASSERT_ACL_OK(aclprofRangeStart(stamp, &id)) << "ranges work (as no-ops) without a profiler";
  ASSERT_ACL_OK(aclprofRangeStop(id));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(id)) << "stopped twice";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofMarkEx("m", 0, nullptr));
  EXPECT_ACL_OK(aclprofMarkEx("m", 1, nullptr));
  aclprofDestroyStamp(stamp);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofMark(stamp)) << "a destroyed stamp";
  EXPECT_NE(0u, aclprofStr2Id("conv"));
  EXPECT_EQ(aclprofStr2Id("conv"), aclprofStr2Id("conv"));
  EXPECT_NE(aclprofStr2Id("conv"), aclprofStr2Id("relu"));
}

TEST_F(ProfTest, StepInfo) {
  aclprofStepInfo* step = aclprofCreateStepInfo();
  ASSERT_NE(nullptr, step);
  Stream s;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp(step, ACL_STEP_END, s)) << "end before start";
  EXPECT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, s));
  EXPECT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_END, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp(step, static_cast<aclprofStepTag>(7), s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp(nullptr, ACL_STEP_START, s));
  aclprofDestroyStepInfo(step);
}

TEST_F(ProfTest, SubscriptionArguments) {
  size_t size = 0;
  ASSERT_ACL_OK(aclprofGetOpDescSize(&size));
  EXPECT_GT(size, static_cast<size_t>(ACL_PROF_MAX_OP_NAME_LEN));
  std::vector<uint8_t> junk(size, 0xab);
  uint32_t num = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(junk.data(), size - 1, &num)) << "partial record";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(junk.data(), size, &num)) << "not an op record";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(nullptr, size, &num));
  EXPECT_EQ(0u, aclprofGetOpStart(junk.data(), size, 0));
  EXPECT_EQ(nullptr, aclprofGetOpAttriValue(junk.data(), size, 0, ACL_SUBSCRIBE_ATTRI_THREADID));
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  EXPECT_EQ(nullptr, aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr));
  EXPECT_EQ(nullptr, aclprofCreateSubscribeConfig(5, ACL_AICORE_NONE, &fds[1]));
  aclprofSubscribeConfig* sub = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  ASSERT_NE(nullptr, sub);
  EXPECT_ACL_OK(aclprofModelSubscribe(7, sub));
  EXPECT_ACL_ERR(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, aclprofModelSubscribe(7, sub));
  EXPECT_ACL_OK(aclprofModelSubscribe(8, sub));  // a second model writing to the same pipe
  // The pipe's write end stays open while a subscription uses it, and is closed with the last one, so
  // that the subscriber's reader thread sees the end of the data.
  auto readable_within_100ms = [&] {
    pollfd p{fds[0], POLLIN, 0};
    return poll(&p, 1, 100) == 1;
  };
  EXPECT_ACL_OK(aclprofModelUnSubscribe(7));
  EXPECT_FALSE(readable_within_100ms()) << "closed while model 8 still writes to it";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe(7));
  EXPECT_ACL_OK(aclprofModelUnSubscribe(8));
  ASSERT_TRUE(readable_within_100ms());
  char byte = 0;
  EXPECT_EQ(0, read(fds[0], &byte, 1)) << "end of data after the last unsubscription";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofModelSubscribe(7, nullptr));
  EXPECT_ACL_OK(aclprofDestroySubscribeConfig(sub));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofDestroySubscribeConfig(sub));
  close(fds[0]);
}

TEST_F(ProfTest, ProfTraceMarksTheStreamAfterItsEarlierWork) {
  const std::string dir = MakeTempDir("prof_trace");
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  aclprofConfig* cfg = Config(ACL_PROF_MSPROFTX | ACL_PROF_TASK_TIME);
  ASSERT_NE(nullptr, cfg);
  ASSERT_ACL_OK(aclprofStart(cfg));
  int32_t stream_id = -1;
  {
    Stream s;
    ASSERT_ACL_OK(aclrtStreamGetId(s, &stream_id));
    DevBuf buf(16 << 20);
    std::vector<uint8_t> host = RandomBytes(16 << 20, 41);
    ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), buf.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE, s));
    uint64_t trace_id = 0x1234abcd5678ef90ull;
    ASSERT_ACL_OK(aclrtProfTrace(&trace_id, sizeof trace_id, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProfTrace(nullptr, 8, s));
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProfTrace(&trace_id, 0, s));
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProfTrace(&trace_id, -8, s));
    std::vector<uint8_t> big(4096, 1);
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProfTrace(big.data(), static_cast<int32_t>(big.size()), s));
  }
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  ASSERT_ACL_OK(aclprofFinalize());
  const RawRecord* mark = nullptr;
  const RawRecord* copy = nullptr;  // the stream's first task (the trace's own task comes after it)
  const auto recs = ReadRecords(dir);
  for (const auto& r : recs) {
    if (r.type == kMark && r.stream == stream_id) mark = &r;
    if (r.type == kTask && r.stream == stream_id && (copy == nullptr || r.t0 < copy->t0)) copy = &r;
  }
  ASSERT_NE(nullptr, mark) << "one mark on the traced stream";
  ASSERT_NE(nullptr, copy);
  EXPECT_GE(mark->t0, copy->t1) << "the mark runs in stream order, after the copy queued before it";
}

TEST_F(ProfTest, ModelDeviceRecordsForSubscriptions) {
  uint32_t devices = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&devices));
  EXPECT_EQ(0, MsprofSetDeviceIdByGeModelIdx(11, 0));
  EXPECT_EQ(0, MsprofSetDeviceIdByGeModelIdx(12, devices - 1));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, MsprofSetDeviceIdByGeModelIdx(13, devices));
  const char* why = aclGetRecentErrMsg();
  EXPECT_NE(std::string(why != nullptr ? why : "").find("out of range"), std::string::npos);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, MsprofUnsetDeviceIdByGeModelIdx(12, devices == 1 ? 1 : 0)) << "wrong device";
  EXPECT_EQ(0, MsprofUnsetDeviceIdByGeModelIdx(12, devices - 1));
  EXPECT_EQ(0, MsprofUnsetDeviceIdByGeModelIdx(11, 0));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, MsprofUnsetDeviceIdByGeModelIdx(11, 0)) << "already forgotten";
  const uint64_t a = MsprofSysCycleTime();
  const uint64_t b = MsprofSysCycleTime();
  EXPECT_GT(a, 0u);
  EXPECT_GE(b, a);
}

// ---------------------------------------------------------------------------------------------
// Command mode (fresh processes)
// ---------------------------------------------------------------------------------------------

CTS_CHILD(prof_command_mode) {
  ChildReport("init", aclInit(std::getenv("PROF_TEST_JSON")));
  ChildReport("set", aclrtSetDevice(0));
  const std::string dir = "/tmp";
  ChildReport("prof_init", aclprofInit(dir.c_str(), dir.size()));
  uint32_t dev = 0;
  aclprofConfig* cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
  ChildReport("prof_start", aclprofStart(cfg));
  aclprofDestroyConfig(cfg);
  {
    DevBuf buf(4096);
    std::vector<uint8_t> host = RandomBytes(4096, 3);
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    aclError rc = aclrtMemcpyAsync(buf.get(), buf.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE, s);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(s);
    ChildReport("copy", rc);
    aclrtDestroyStream(s);
  }
  ChildReport("reset", aclrtResetDevice(0));
  ChildReport("fini", aclFinalize());
  ChildReport("pid", getpid());
  return 0;
}

TEST_F(ProfTest, MsprofEnvironmentStartsProfilingAtLoad) {
  const std::string raw = MakeTempDir("prof_cmd");
  ChildResult r = RunChild("prof_command_mode", {{"NPURT_PROF_RAW_DIR", raw}, {"NPURT_PROF_MASK", "0x1002"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, r.Int("prof_init")) << "the aclprof API yields to msprof";
  EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, r.Int("prof_start"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("copy"));
  std::ifstream in(raw + "/records." + std::to_string(r.Int("pid")) + ".bin", std::ios::binary);
  RawRecord rec;
  std::map<uint8_t, int> n;
  while (in.read(reinterpret_cast<char*>(&rec), sizeof rec)) ++n[rec.type];
  EXPECT_EQ(1, n[kTask]) << "the upload";
  EXPECT_EQ(2, n[kMemory]) << "malloc and free (ACL_PROF_TASK_MEMORY in the mask)";
  std::ifstream info(raw + "/info." + std::to_string(r.Int("pid")) + ".json");
  std::stringstream text;
  text << info.rdbuf();
  EXPECT_NE(std::string::npos, text.str().find("\"complete\":true")) << text.str();
  EXPECT_NE(std::string::npos, text.str().find("\"lost\":0")) << text.str();
}

class ProfJsonTest : public ProfTest, public ::testing::WithParamInterface<const char*> {};

// task_time takes CANN's values: on, l1 (the same) and l0.
TEST_P(ProfJsonTest, AclInitJsonProfilerSection) {
  const std::string out = MakeTempDir("prof_json");
  const std::string json_path = out + "/acl.json";
  {
    std::ofstream f(json_path);
    f << "{\"profiler\": {\"switch\": \"on\", \"output\": \"" << out << "\", \"task_time\": \"" << GetParam()
      << "\"}}";
  }
  ChildResult r = RunChild("prof_command_mode", {{"PROF_TEST_JSON", json_path}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("init"));
  EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, r.Int("prof_init"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("fini"));
  std::vector<std::string> dirs = ListDir(out, "PROF_");
  ASSERT_EQ(1u, dirs.size()) << "the JSON config's output directory holds the session";
  std::ifstream in(dirs[0] + "/raw/records." + std::to_string(r.Int("pid")) + ".bin", std::ios::binary);
  RawRecord rec;
  int tasks = 0;
  while (in.read(reinterpret_cast<char*>(&rec), sizeof rec)) tasks += rec.type == kTask;
  EXPECT_EQ(1, tasks);
}
INSTANTIATE_TEST_SUITE_P(TaskTimeLevels, ProfJsonTest, ::testing::Values("on", "l1", "l0"));

// A profiled process that forks: each process writes its own records (no device use after fork).
CTS_CHILD(prof_fork) {
  ChildReport("parent_mark", aclprofMarkEx("parent", 6, nullptr));
  const pid_t child = fork();
  if (child == 0) {
    aclprofMarkEx("child", 5, nullptr);
    std::exit(0);  // atexit: the child's session is flushed into files of its own pid
  }
  int status = 0;
  waitpid(child, &status, 0);
  ChildReport("child", child);
  ChildReport("child_status", status);
  ChildReport("pid", getpid());
  return 0;
}

TEST_F(ProfTest, ForkedChildWritesItsOwnRecords) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer does not support threads in the child of a multi-threaded process";
#endif
  const std::string raw = MakeTempDir("prof_fork");
  ChildResult r = RunChild("prof_fork", {{"NPURT_PROF_RAW_DIR", raw}, {"NPURT_PROF_MASK", "0x80"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(0, r.Int("child_status"));
  for (const char* who : {"pid", "child"}) {
    std::ifstream in(raw + "/records." + std::to_string(r.Int(who)) + ".bin", std::ios::binary);
    RawRecord rec;
    int marks = 0;
    while (in.read(reinterpret_cast<char*>(&rec), sizeof rec)) marks += rec.type == kMark;
    EXPECT_EQ(1, marks) << who << ": its own mark only";
    std::ifstream info(raw + "/info." + std::to_string(r.Int(who)) + ".json");
    EXPECT_TRUE(info.good()) << who;
  }
}

}  // namespace
}  // namespace cts
