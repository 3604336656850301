// The aclmdl API on a small model (conv_relu_add, test_models.h): sizes and descriptions without loading,
// every load form, synchronous and asynchronous execution against the reference on random data, queued
// executions that each see their own buffers, concurrent executions of one model, and unload.
#include <atomic>
#include <chrono>
#include <thread>

#include "model_fixture.h"

namespace npurt::test {
namespace {

TEST_F(ModelTest, QuerySizeAndDescFromFileReadWithoutLoading) {
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(path_.c_str(), &work, &weight), ACL_SUCCESS) << Message();
  EXPECT_EQ(work, model_.arena);
  EXPECT_EQ(weight, model_.weights);
  size_t work2 = 0, weight2 = 0;
  ASSERT_EQ(aclmdlQuerySizeFromMem(model_.file.data(), model_.file.size(), &work2, &weight2), ACL_SUCCESS);
  EXPECT_EQ(work2, work);
  EXPECT_EQ(weight2, weight);

  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_NE(desc, nullptr);
  ASSERT_EQ(aclmdlGetDescFromFile(desc, path_.c_str()), ACL_SUCCESS) << Message();
  EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 2u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), kBytesX);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), kBytesR);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 1), kBytesOut);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 1), "sum_out");
  EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NCHW);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT);
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "x");
  ASSERT_EQ(dims.dimCount, 4u);
  EXPECT_EQ(dims.dims[1], 3);
  ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[1], 4);
  size_t index = 99;
  ASSERT_EQ(aclmdlGetInputIndexByName(desc, "residual", &index), ACL_SUCCESS);
  EXPECT_EQ(index, 1u);
  EXPECT_EQ(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &index), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(Message().find(ACL_DYNAMIC_TENSOR_NAME), std::string::npos) << Message();
  // A static model: no gears.
  aclmdlBatch batch{};
  batch.batchCount = 5;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  size_t gears = 9;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc, static_cast<size_t>(-1), &gears), ACL_SUCCESS);
  EXPECT_EQ(gears, 0u);
  // The fused operator's original names.
  const char* origin = aclmdlGetOpAttr(desc, "/conv/Conv", ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES);
  ASSERT_NE(origin, nullptr);
  EXPECT_STREQ(origin, "/conv/Conv,/bn/BatchNormalization");
  EXPECT_EQ(aclmdlGetOpAttr(desc, "/conv/Conv", "other_attr"), nullptr);
  EXPECT_STREQ(aclmdlGetTensorRealName(desc, "sum_out"), "sum_out");
  // Out of range: 0 / NULL / UNDEFINED.
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 2), 0u);
  EXPECT_EQ(aclmdlGetInputNameByIndex(desc, 7), nullptr);
  EXPECT_EQ(aclmdlGetOutputFormat(desc, 2), ACL_FORMAT_UNDEFINED);
  EXPECT_EQ(aclmdlGetInputDims(desc, 2, &dims), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);  // not live any more
}

TEST_F(ModelTest, ExecuteMatchesReferenceOnRandomData) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS) << Message();
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), kBytesX);
  aclmdlDestroyDesc(desc);
  void* out0 = Device(kBytesOut);
  void* out1 = Device(kBytesOut);
  for (uint32_t round = 0; round < 3; ++round) {
    const auto x = RandomFloats(ConvReluAdd::kX, 100 + round);
    const auto r = RandomFloats(ConvReluAdd::kR, 200 + round);
    aclmdlDataset* in = Dataset({Upload(x), Upload(r)}, {kBytesX, kBytesR});
    aclmdlDataset* out = Dataset({out0, out1}, {kBytesOut, kBytesOut});
    ASSERT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS) << Message();
    std::vector<float> want0, want1;
    model_.Reference(x, r, &want0, &want1);
    ExpectNear(Download(out0, ConvReluAdd::kOut), want0, "out0");
    ExpectNear(Download(out1, ConvReluAdd::kOut), want1, "out1");
  }
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
}

TEST_F(ModelTest, QueuedAsyncExecutionsEachSeeTheirOwnBuffers) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(model_.file.data(), model_.file.size(), &id), ACL_SUCCESS) << Message();
  constexpr int kRuns = 6;
  std::vector<std::vector<float>> xs, rs;
  std::vector<void*> o0, o1;
  for (int i = 0; i < kRuns; ++i) {
    xs.push_back(RandomFloats(ConvReluAdd::kX, 300 + i));
    rs.push_back(RandomFloats(ConvReluAdd::kR, 400 + i));
    o0.push_back(Device(kBytesOut));
    o1.push_back(Device(kBytesOut));
    aclmdlDataset* in = Dataset({Upload(xs[i]), Upload(rs[i])}, {kBytesX, kBytesR});
    aclmdlDataset* out = Dataset({o0[i], o1[i]}, {kBytesOut, kBytesOut});
    ASSERT_EQ(aclmdlExecuteAsync(id, in, out, stream_), ACL_SUCCESS) << Message();
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (int i = 0; i < kRuns; ++i) {
    std::vector<float> want0, want1;
    model_.Reference(xs[i], rs[i], &want0, &want1);
    ExpectNear(Download(o1[i], ConvReluAdd::kOut), want1, "queued out1");
  }
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadWithUserMemoryAndConfig) {
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(path_.c_str(), &work, &weight), ACL_SUCCESS);
  void* w = Device(weight);
  void* a = Device(work);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path_.c_str(), &id, a, work - 1, w, weight), ACL_ERROR_GE_PARAM_INVALID);
  EXPECT_NE(Message().find("work size"), std::string::npos) << Message();
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path_.c_str(), &id, a, work, w, weight - 1), ACL_ERROR_GE_PARAM_INVALID);
  std::vector<uint8_t> host(weight);
  EXPECT_EQ(aclmdlLoadFromFileWithMem(path_.c_str(), &id, a, work, host.data(), weight), ACL_ERROR_GE_PARAM_INVALID);
  ASSERT_EQ(aclmdlLoadFromFileWithMem(path_.c_str(), &id, a, work, w, weight), ACL_SUCCESS) << Message();
  const auto x = RandomFloats(ConvReluAdd::kX, 11);
  const auto r = RandomFloats(ConvReluAdd::kR, 12);
  void* out0 = Device(kBytesOut);
  void* out1 = Device(kBytesOut);
  ASSERT_EQ(aclmdlExecute(id, Dataset({Upload(x), Upload(r)}, {kBytesX, kBytesR}),
                          Dataset({out0, out1}, {kBytesOut, kBytesOut})),
            ACL_SUCCESS)
      << Message();
  std::vector<float> want0, want1;
  model_.Reference(x, r, &want0, &want1);
  ExpectNear(Download(out1, ConvReluAdd::kOut), want1, "user memory");
  // The weights went to the user's memory.
  std::vector<float> wback(model_.w.size());
  ASSERT_EQ(aclrtMemcpy(wback.data(), wback.size() * 4, w, wback.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(wback, model_.w);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);

  // The same through a configuration.
  aclmdlConfigHandle* cfg = aclmdlCreateConfigHandle();
  const size_t type = ACL_MDL_LOAD_FROM_FILE;
  const char* path = path_.c_str();
  EXPECT_EQ(aclmdlSetConfigOpt(cfg, ACL_MDL_LOAD_TYPE_SIZET, &type, 4), ACL_ERROR_INVALID_PARAM);  // wrong size
  ASSERT_EQ(aclmdlSetConfigOpt(cfg, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetConfigOpt(cfg, ACL_MDL_PATH_PTR, &path, sizeof path), ACL_SUCCESS);
  ASSERT_EQ(aclmdlLoadWithConfig(cfg, &id), ACL_SUCCESS) << Message();
  ASSERT_EQ(aclmdlExecute(id, Dataset({Upload(x), Upload(r)}, {kBytesX, kBytesR}),
                          Dataset({out0, out1}, {kBytesOut, kBytesOut})),
            ACL_SUCCESS);
  ExpectNear(Download(out1, ConvReluAdd::kOut), want1, "config");
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  ASSERT_EQ(aclmdlDestroyConfigHandle(cfg), ACL_SUCCESS);
}

TEST_F(ModelTest, SynchronousExecuteAllocatesEmptyOutputs) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS);
  const auto x = RandomFloats(ConvReluAdd::kX, 21);
  const auto r = RandomFloats(ConvReluAdd::kR, 22);
  aclmdlDataset* out = Dataset({nullptr, nullptr}, {0, 0});
  ASSERT_EQ(aclmdlExecute(id, Dataset({Upload(x), Upload(r)}, {kBytesX, kBytesR}), out), ACL_SUCCESS) << Message();
  aclDataBuffer* b = aclmdlGetDatasetBuffer(out, 1);
  void* mem = aclGetDataBufferAddr(b);
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), kBytesOut);
  std::vector<float> want0, want1;
  model_.Reference(x, r, &want0, &want1);
  ExpectNear(Download(mem, ConvReluAdd::kOut), want1, "allocated output");
  aclrtFree(aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, 0)));
  aclrtFree(mem);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, ExecuteV2AndExecConfig) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS);
  aclmdlExecConfigHandle* h = aclmdlCreateExecConfigHandle();
  const int32_t timeout = 10000;
  EXPECT_EQ(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &timeout, 8), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &timeout, sizeof timeout), ACL_SUCCESS);
  const auto x = RandomFloats(ConvReluAdd::kX, 31);
  const auto r = RandomFloats(ConvReluAdd::kR, 32);
  void* out0 = Device(kBytesOut);
  void* out1 = Device(kBytesOut);
  aclmdlDataset* in = Dataset({Upload(x), Upload(r)}, {kBytesX, kBytesR});
  aclmdlDataset* out = Dataset({out0, out1}, {kBytesOut, kBytesOut});
  EXPECT_EQ(aclmdlExecuteV2(id, in, out, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlExecuteV2(id, in, out, stream_, h), ACL_SUCCESS) << Message();
  std::vector<float> want0, want1;
  model_.Reference(x, r, &want0, &want1);
  ExpectNear(Download(out0, ConvReluAdd::kOut), want0, "v2");
  ASSERT_EQ(aclmdlExecuteAsyncV2(id, in, out, stream_, h), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlDestroyExecConfigHandle(h), ACL_SUCCESS);
  aclmdlAttrValue_t v{};
  v.mdlPriority = 3;
  ASSERT_EQ(aclmdlSetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &v), ACL_SUCCESS);
  aclmdlAttrValue_t got{};
  ASSERT_EQ(aclmdlGetAttribute(id, ACL_MDL_ATTR_PRIORITY_INT32, &got), ACL_SUCCESS);
  EXPECT_EQ(got.mdlPriority, 3u);
  aclmdlInputAippType type;
  size_t attached = 0;
  ASSERT_EQ(aclmdlGetAippType(id, 0, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DATA_WITHOUT_AIPP);
  aclAippInfo* info = new aclAippInfo();
  EXPECT_EQ(aclmdlGetFirstAippInfo(id, 0, info), ACL_ERROR_GE_AIPP_NOT_EXIST);
  delete info;
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// One model executed from two threads on two streams: executions are ordered, every result is right.
TEST_F(ModelTest, ConcurrentExecutionsOfOneModelFromTwoStreams) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS);
  std::atomic<int> failures{0};
  auto worker = [&](int t) {
    aclrtSetCurrentContext(ctx_);
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (int i = 0; i < 20 && std::chrono::steady_clock::now() < deadline; ++i) {
      const auto x = RandomFloats(ConvReluAdd::kX, 1000 * t + i);
      const auto r = RandomFloats(ConvReluAdd::kR, 2000 * t + i);
      void *px, *pr, *p0, *p1;
      aclrtMalloc(&px, kBytesX, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMalloc(&pr, kBytesR, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMalloc(&p0, kBytesOut, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMalloc(&p1, kBytesOut, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMemcpy(px, kBytesX, x.data(), kBytesX, ACL_MEMCPY_HOST_TO_DEVICE);
      aclrtMemcpy(pr, kBytesR, r.data(), kBytesR, ACL_MEMCPY_HOST_TO_DEVICE);
      aclmdlDataset* in = aclmdlCreateDataset();
      aclmdlDataset* out = aclmdlCreateDataset();
      aclDataBuffer* b[4] = {aclCreateDataBuffer(px, kBytesX), aclCreateDataBuffer(pr, kBytesR),
                             aclCreateDataBuffer(p0, kBytesOut), aclCreateDataBuffer(p1, kBytesOut)};
      aclmdlAddDatasetBuffer(in, b[0]);
      aclmdlAddDatasetBuffer(in, b[1]);
      aclmdlAddDatasetBuffer(out, b[2]);
      aclmdlAddDatasetBuffer(out, b[3]);
      if (aclmdlExecuteAsync(id, in, out, s) != ACL_SUCCESS || aclrtSynchronizeStream(s) != ACL_SUCCESS) ++failures;
      std::vector<float> got(ConvReluAdd::kOut), want0, want1;
      aclrtMemcpy(got.data(), kBytesOut, p1, kBytesOut, ACL_MEMCPY_DEVICE_TO_HOST);
      model_.Reference(x, r, &want0, &want1);
      for (size_t k = 0; k < got.size(); ++k) {
        if (std::fabs(got[k] - want1[k]) > 1e-4f * (1 + std::fabs(want1[k]))) {
          ++failures;
          break;
        }
      }
      for (aclDataBuffer* d : b) aclDestroyDataBuffer(d);
      aclmdlDestroyDataset(in);
      aclmdlDestroyDataset(out);
      for (void* p : {px, pr, p0, p1}) aclrtFree(p);
    }
    aclrtDestroyStream(s);
  };
  std::thread a(worker, 1), b(worker, 2);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// Several models loaded, run and unloaded by several threads at once.
TEST_F(ModelTest, SeveralModelsSideBySide) {
  std::atomic<int> failures{0};
  auto worker = [&](int t) {
    aclrtSetCurrentContext(ctx_);
    for (int i = 0; i < 5; ++i) {
      uint32_t id = 0;
      if (aclmdlLoadFromMem(model_.file.data(), model_.file.size(), &id) != ACL_SUCCESS) {
        ++failures;
        continue;
      }
      aclmdlDesc* d = aclmdlCreateDesc();
      if (aclmdlGetDesc(d, id) != ACL_SUCCESS || aclmdlGetNumOutputs(d) != 2) ++failures;
      aclmdlDestroyDesc(d);
      if (aclmdlUnload(id) != ACL_SUCCESS) ++failures;
    }
    (void)t;
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < 3; ++t) ts.emplace_back(worker, t);
  for (auto& t : ts) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace npurt::test
