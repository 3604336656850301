// Data dump (acl/acl_dump.h): the exception dump path (NPU_COLLECT_PATH > ASCEND_WORK_PATH > aclInit JSON
// dump_path > cwd), acldumpSaveExceptionInfo writing the tensors' device bytes and a description, the
// chunk callback, the automatic dump of a failed task, and argument checks.
#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "test_util.h"

namespace cts {
namespace {

std::vector<std::string> Files(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
        out.push_back(dir + "/" + n);
      }
    }
    closedir(d);
  }
  return out;
}

acldumpTensorInfo Tensor(void* dev, size_t bytes, acldumpTensorType type) {
  acldumpTensorInfo t;
  std::memset(&t, 0, sizeof t);
  t.type = type;
  t.tensorSize = bytes;
  t.format = ACL_FORMAT_ND;
  t.dataType = ACL_FLOAT;
  t.tensorAddr = static_cast<int64_t*>(dev);
  t.addrType = ACL_DUMP_ADDR_RAW;
  t.placement = ACL_DUMP_PLACEMENT_DEVICE;
  t.shapeNum = 1;
  t.shape[0] = bytes / 4;
  return t;
}

// Saves two device tensors of random data; reports where they went.
CTS_CHILD(dump_save) {
  if (aclInit(std::getenv("DUMP_TEST_JSON")) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 3;
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  ChildReport("path_rc", acldumpGetExceptionInfoPath(path, sizeof path));
  ChildReportText("path", path);
  ChildReport("small_rc", acldumpGetExceptionInfoPath(path, 4));
  std::vector<uint8_t> a = RandomBytes(4096, 11), b = RandomBytes(1024, 12);
  void *da = nullptr, *db = nullptr;
  aclrtMalloc(&da, a.size(), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&db, b.size(), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(da, a.size(), a.data(), a.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(db, b.size(), b.data(), b.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  acldumpTensorInfo t[2] = {Tensor(da, a.size(), ACL_DUMP_TENSOR_INPUT), Tensor(db, b.size(), ACL_DUMP_TENSOR_OUTPUT)};
  ChildReport("save_rc", acldumpSaveExceptionInfo("my_op", "stage=test", t, 2));
  ChildReport("bad_name_rc", acldumpSaveExceptionInfo("../escape", "x", t, 2));
  ChildReport("null_tensors_rc", acldumpSaveExceptionInfo("my_op", "x", nullptr, 2));
  acldumpTensorInfo bad = t[0];
  bad.shapeNum = ACL_DUMP_MAX_SHAPE_NUM + 1;
  ChildReport("bad_shape_rc", acldumpSaveExceptionInfo("my_op", "x", &bad, 1));
  aclrtFree(da);
  aclrtFree(db);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}

TEST(ProfDumpTest, SaveExceptionInfoUnderNpuCollectPath) {
  const std::string root = MakeTempDir("dump_collect");
  ChildResult r = RunChild("dump_save", {{"NPU_COLLECT_PATH", root}, {"ASCEND_WORK_PATH", "/nonexistent"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("path_rc"));
  const std::string dir = root + "/extra-info/data-dump/0";
  EXPECT_EQ(dir, r.Text("path")) << "NPU_COLLECT_PATH wins over ASCEND_WORK_PATH";
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, r.Int("small_rc"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("save_rc"));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, r.Int("bad_name_rc"));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, r.Int("null_tensors_rc"));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, r.Int("bad_shape_rc"));
  auto bins = Files(dir, ".bin");
  auto jsons = Files(dir, ".json");
  ASSERT_EQ(1u, bins.size());
  ASSERT_EQ(1u, jsons.size());
  const std::string data = Slurp(bins[0]);
  std::vector<uint8_t> a = RandomBytes(4096, 11), b = RandomBytes(1024, 12);
  ASSERT_EQ(a.size() + b.size(), data.size()) << "both tensors, back to back";
  EXPECT_EQ(0, std::memcmp(data.data(), a.data(), a.size())) << "the device bytes of tensor 0";
  EXPECT_EQ(0, std::memcmp(data.data() + a.size(), b.data(), b.size()));
  const std::string desc = Slurp(jsons[0]);
  EXPECT_NE(std::string::npos, desc.find("stage=test"));
  EXPECT_NE(std::string::npos, desc.find("\"output\""));
  EXPECT_NE(std::string::npos, desc.find("\"offset\": 4096"));
}

TEST(ProfDumpTest, PathFallsBackToWorkPathThenJsonDumpPath) {
  const std::string work = MakeTempDir("dump_work");
  ChildResult r = RunChild("dump_save", {{"NPU_COLLECT_PATH", ""}, {"ASCEND_WORK_PATH", work}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(work + "/extra-info/data-dump/0", r.Text("path"));

  const std::string json_dir = MakeTempDir("dump_json");
  const std::string json = json_dir + "/acl.json";
  std::ofstream(json) << "{\"dump\": {\"dump_path\": \"" << json_dir << "\", \"dump_scene\": \"lite_exception\"}}";
  r = RunChild("dump_save", {{"NPU_COLLECT_PATH", ""}, {"ASCEND_WORK_PATH", ""}, {"DUMP_TEST_JSON", json}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(json_dir + "/extra-info/data-dump/0", r.Text("path"));
  EXPECT_EQ(1u, Files(json_dir + "/extra-info/data-dump/0", ".bin").size());
}

int32_t g_prof_chunks = 0;
size_t g_chunk_bytes = 0;
int32_t CountChunk(const acldumpChunk* chunk, int32_t len) {
  ++g_prof_chunks;
  g_chunk_bytes += chunk->bufLen;
  return len > 0 ? 0 : 1;
}

TEST(ProfDumpTest, CallbackReceivesTheDataInsteadOfFiles) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acldumpRegCallback(nullptr, 0));
  ASSERT_ACL_OK(acldumpRegCallback(&CountChunk, 0));
  {
    DevBuf buf(2048);
    std::vector<uint8_t> host = RandomBytes(2048, 5);
    ASSERT_ACL_OK(buf.Upload(host.data(), host.size()));
    acldumpTensorInfo t = Tensor(buf.get(), buf.size(), ACL_DUMP_TENSOR_INPUT);
    ASSERT_ACL_OK(acldumpSaveExceptionInfo("cb_op", "tag", &t, 1));
  }
  acldumpUnregCallback();
  EXPECT_EQ(2, g_prof_chunks) << "the data file and its description";
  EXPECT_GT(g_chunk_bytes, 2048u);
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

// A task that fails (a notify wait that times out) is dumped when NPU_COLLECT_PATH is set, and the
// failure lands in the device-side log.
CTS_CHILD(dump_failed_task) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 3;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  aclrtNotify n = nullptr;
  aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT);
  aclrtWaitAndResetNotify(n, s, 10);
  uint32_t task = 0;
  aclrtGetThreadLastTaskId(&task);
  ChildReport("task", task);
  ChildReport("sync", aclrtSynchronizeStream(s));
  aclrtDestroyNotify(n);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}

TEST(ProfDumpTest, FailedTaskIsDumpedAndLogged) {
  const std::string root = MakeTempDir("dump_fail");
  ChildResult r = RunChild("dump_failed_task", {{"NPU_COLLECT_PATH", root}, {"ASCEND_PROCESS_LOG_PATH", root + "/log"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, r.Int("sync"));
  auto jsons = Files(root + "/extra-info/data-dump/0", ".json");
  ASSERT_EQ(1u, jsons.size());
  const std::string desc = Slurp(jsons[0]);
  EXPECT_NE(std::string::npos, desc.find("\"task_id\": " + std::to_string(r.Int("task")))) << desc;
  EXPECT_NE(std::string::npos, desc.find("\"error_code\": " + std::to_string(ACL_ERROR_RT_TASK_TIMEOUT)));
  auto logs = Files(root + "/log/debug/device-0", ".log");
  ASSERT_EQ(1u, logs.size()) << "device-side log";
  EXPECT_NE(std::string::npos, Slurp(logs[0]).find("task " + std::to_string(r.Int("task")) + " on stream"));
}

}  // namespace
}  // namespace cts
