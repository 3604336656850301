// A device whose memory the host cannot address (NPURT_SIM_HOST_VISIBLE_MEMORY=0: the sim declares what a
// discrete GPU or NPU would, docs/architecture.md "Driver capabilities"). The runtime opens it and reaches its
// memory through the device: copies, operators, operator dumps, copy and cache descriptors and conditional
// tasks (their condition is read by the driver: hal::Conditional) work, and the one feature that needs a
// host mapping, managed memory, refuses with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and a message.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "test_util.h"

namespace cts {
namespace {

std::vector<float> Random(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

bool MessageHas(const char* text) {
  const char* m = aclGetRecentErrMsg();
  return m != nullptr && std::strstr(m, text) != nullptr;
}

void WriteBytes(const std::string& path, const void* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

CTS_CHILD(discrete_device) {
  const std::string dir = std::getenv("DISCRETE_TEST_DIR");
  const std::string json = dir + "/acl.json";
  WriteFile(json, "{\"dump\": {\"dump_path\": \"" + dir + "/out\", \"dump_list\": [], \"dump_op_switch\": \"on\", "
                  "\"dump_mode\": \"all\", \"dump_data\": \"tensor\"}}");
  if (aclInit(json.c_str()) != ACL_SUCCESS) return 2;
  ChildReport("set_rc", aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 3;

  // Copies both ways, synchronous and on a stream.
  constexpr size_t n = 15;
  const std::vector<float> a = Random(n, 91), b = Random(n, 92);
  void* dev[3] = {};
  for (void*& p : dev) {
    if (aclrtMalloc(&p, n * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  }
  if (aclrtMemcpy(dev[0], n * 4, a.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 5;
  if (aclrtMemcpyAsync(dev[1], n * 4, b.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS) return 5;
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 5;

  // An operator, dumped: the dump reads its tensors through the device.
  std::vector<int64_t> dims{3, 5}, strides{5, 1};
  aclTensor* t[3] = {};
  for (int i = 0; i < 3; ++i) {
    t[i] = aclCreateTensor(dims.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, dims.data(), 2, dev[i]);
  }
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  if (aclnnAddGetWorkspaceSize(t[0], t[1], alpha, t[2], &ws, &ex) != 0 || aclnnAdd(nullptr, 0, ex, stream) != 0) {
    return 6;
  }
  ChildReport("op_rc", aclrtSynchronizeStream(stream));
  std::vector<float> sum(n);
  ChildReport("d2h_rc", aclrtMemcpy(sum.data(), n * 4, dev[2], n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  WriteBytes(dir + "/a.bin", a.data(), n * 4);
  WriteBytes(dir + "/b.bin", b.data(), n * 4);
  WriteBytes(dir + "/sum.bin", sum.data(), n * 4);
  int exact = 1;
  for (size_t i = 0; i < n; ++i) exact &= sum[i] == a[i] + b[i];
  ChildReport("sum_ok", exact);

  // A copy descriptor, written and read through the device.
  size_t desc_size = 0;
  void* desc = nullptr;
  if (aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &desc_size) != ACL_SUCCESS ||
      aclrtMalloc(&desc, desc_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return 7;
  }
  ChildReport("desc_set_rc", aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, dev[0], dev[2], n * 4, nullptr));
  ChildReport("desc_copy_rc", aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  (void)aclrtSynchronizeStream(stream);
  std::vector<float> copied(n);
  (void)aclrtMemcpy(copied.data(), n * 4, dev[2], n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  ChildReport("desc_copy_ok", copied == a ? 1 : 0);

  // What needs a host mapping refuses, with the reason.
  void* managed = nullptr;
  ChildReport("managed_rc", aclrtMemAllocManaged(&managed, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
  ChildReport("managed_msg", MessageHas("managed memory needs device memory the host can address") ? 1 : 0);

  // A conditional task: IF over two branches, each copying one input into dev[2]. Its condition starts at
  // the handle's default (1, written through the device), then the host sets it to 0.
  aclrtStream sub = nullptr;
  if (aclrtCreateStream(&sub) != ACL_SUCCESS) return 8;
  aclmdlRI ri = nullptr;
  if (aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) != ACL_SUCCESS) return 8;
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  (void)aclmdlRICaptureGetInfo(stream, &status, &ri);
  aclmdlRICondHandle cond = nullptr;
  ChildReport("cond_rc", aclmdlRICondHandleCreate(ri, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond));
  uint64_t* cond_word = nullptr;
  (void)aclmdlRICondHandleGetCondPtr(cond, &cond_word);
  aclmdlRI branches[2] = {};
  aclmdlRICondTaskParams params{cond, ACL_MODEL_RI_COND_TYPE_IF, 2, branches};
  ChildReport("cond_task_rc", aclmdlRIAddCondTask(params, stream, 0));
  for (int i = 0; i < 2 && branches[i] != nullptr; ++i) {
    (void)aclmdlRICaptureToModelRIBegin(sub, branches[i], ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    (void)aclrtMemcpyAsync(dev[2], n * 4, dev[i == 0 ? 1 : 0], n * 4, ACL_MEMCPY_DEVICE_TO_DEVICE, sub);
    (void)aclmdlRICaptureEnd(sub, &branches[i]);
  }
  aclmdlRI captured = nullptr;
  ChildReport("capture_end_rc", aclmdlRICaptureEnd(stream, &captured));
  std::vector<float> branch_out(n);
  ChildReport("if_true_rc", captured != nullptr ? aclmdlRIExecute(captured, -1) : -1);
  (void)aclrtMemcpy(branch_out.data(), n * 4, dev[2], n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  ChildReport("if_true_ok", branch_out == b ? 1 : 0);
  const uint64_t zero = 0;
  (void)aclrtMemcpy(cond_word, 8, &zero, 8, ACL_MEMCPY_HOST_TO_DEVICE);
  ChildReport("if_false_rc", captured != nullptr ? aclmdlRIExecute(captured, -1) : -1);
  (void)aclrtMemcpy(branch_out.data(), n * 4, dev[2], n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  ChildReport("if_false_ok", branch_out == a ? 1 : 0);
  if (captured != nullptr) (void)aclmdlRIDestroy(captured);
  (void)aclrtDestroyStream(sub);

  aclDestroyScalar(alpha);
  for (int i = 0; i < 3; ++i) aclDestroyTensor(t[i]);
  for (void* p : dev) (void)aclrtFree(p);
  (void)aclrtFree(desc);
  (void)aclrtDestroyStream(stream);
  return FinishChildOnDevice0();
}

class DiscreteDeviceTest : public CtsNoDeviceTest {};

TEST_F(DiscreteDeviceTest, TheRuntimeWorksThroughTheDeviceAndRefusesWhatNeedsAHostMapping) {
  const std::string dir = MakeTempDir("discrete_device");
  ASSERT_FALSE(dir.empty());
  ChildResult r = RunChild("discrete_device", {{"NPURT_SIM_HOST_VISIBLE_MEMORY", "0"}, {"DISCRETE_TEST_DIR", dir}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("set_rc")) << "a device without host-visible memory opens";
  EXPECT_EQ(ACL_SUCCESS, r.Int("op_rc"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("d2h_rc"));
  EXPECT_EQ(1, r.Int("sum_ok"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("desc_set_rc"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("desc_copy_rc"));
  EXPECT_EQ(1, r.Int("desc_copy_ok"));
  EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, r.Int("managed_rc"));
  EXPECT_EQ(1, r.Int("managed_msg")) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("cond_rc")) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("cond_task_rc"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("capture_end_rc"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("if_true_rc"));
  EXPECT_EQ(1, r.Int("if_true_ok")) << "the handle's default (1) takes the first branch";
  EXPECT_EQ(ACL_SUCCESS, r.Int("if_false_rc"));
  EXPECT_EQ(1, r.Int("if_false_ok")) << "0, written by the host, takes the second";

  // The dump holds exactly the bytes the operator read and wrote (each .npy ends with its data).
  const std::string a = Slurp(dir + "/a.bin"), b = Slurp(dir + "/b.bin"), sum = Slurp(dir + "/sum.bin");
  ASSERT_EQ(60u, sum.size());
  std::vector<std::string> found;
  for (const char* suffix : {".input.0.npy", ".input.1.npy", ".output.0.npy"}) {
    std::string path;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/out")) {
      const std::string name = e.path().filename().string();
      if (name.size() > std::strlen(suffix) && name.compare(name.size() - std::strlen(suffix), std::string::npos, suffix) == 0) {
        path = e.path().string();
      }
    }
    ASSERT_FALSE(path.empty()) << "no " << suffix << " under " << dir << "/out";
    found.push_back(Slurp(path));
  }
  auto tail = [](const std::string& file) { return file.size() >= 60 ? file.substr(file.size() - 60) : file; };
  EXPECT_EQ(a, tail(found[0]));
  EXPECT_EQ(b, tail(found[1]));
  EXPECT_EQ(sum, tail(found[2]));
}

// The same program on the default sim, for contrast: managed memory works there.
CTS_CHILD(host_visible_managed) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* managed = nullptr;
  ChildReport("managed_rc", aclrtMemAllocManaged(&managed, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
  if (managed != nullptr) (void)aclrtFree(managed);
  return FinishChildOnDevice0();
}

TEST_F(DiscreteDeviceTest, TheSettingIsCheckedAndTheDefaultIsHostVisible) {
  ChildResult r = RunChild("host_visible_managed", {{"NPURT_SIM_HOST_VISIBLE_MEMORY", "1"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("managed_rc"));
  r = RunChild("host_visible_managed", {{"NPURT_SIM_HOST_VISIBLE_MEMORY", "maybe"}});
  EXPECT_EQ(2, r.exit_code) << "aclInit refuses a bad value: " << r.output;
}

}  // namespace
}  // namespace cts
