// The device, context and stream every model test runs on, and helpers for device buffers and datasets.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "test_models.h"

namespace npurt::test {

class ModelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    static bool once = [] { return aclInit(nullptr) == ACL_SUCCESS; }();
    ASSERT_TRUE(once);
  }
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateContext(&ctx_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    model_ = MakeConvReluAdd();
    path_ = WriteTemp(::testing::UnitTest::GetInstance()->current_test_info()->name() + std::string(".om"),
                      model_.file);
  }
  void TearDown() override {
    for (void* p : device_) aclrtFree(p);
    std::remove(path_.c_str());
    aclrtDestroyStream(stream_);
    aclrtDestroyContext(ctx_);
    aclrtResetDevice(0);
  }
  void* Device(size_t bytes) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(p);
    return p;
  }
  void* Upload(const std::vector<float>& v) {
    void* p = Device(v.size() * 4);
    EXPECT_EQ(aclrtMemcpy(p, v.size() * 4, v.data(), v.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    return p;
  }
  std::vector<float> Download(const void* p, size_t n) {
    std::vector<float> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, p, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return v;
  }
  // A dataset of fresh data buffers over `ptrs`/`sizes` (destroyed with the test).
  aclmdlDataset* Dataset(const std::vector<void*>& ptrs, const std::vector<size_t>& sizes) {
    aclmdlDataset* d = aclmdlCreateDataset();
    for (size_t i = 0; i < ptrs.size(); ++i) {
      aclDataBuffer* b = aclCreateDataBuffer(ptrs[i], sizes[i]);
      buffers_.push_back(b);
      EXPECT_EQ(aclmdlAddDatasetBuffer(d, b), ACL_SUCCESS);
    }
    datasets_.push_back(d);
    return d;
  }
  void ReleaseDatasets() {
    for (aclmdlDataset* d : datasets_) aclmdlDestroyDataset(d);
    for (aclDataBuffer* b : buffers_) aclDestroyDataBuffer(b);
    datasets_.clear();
    buffers_.clear();
  }
  static void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4f * (1.0f + std::fabs(want[i]))) << what << " at " << i;
    }
  }
  static std::string Message() {
    const char* m = aclGetRecentErrMsg();
    return m == nullptr ? std::string() : std::string(m);
  }

  aclrtContext ctx_ = nullptr;
  aclrtStream stream_ = nullptr;
  ConvReluAdd model_;
  std::string path_;
  std::vector<void*> device_;
  std::vector<aclmdlDataset*> datasets_;
  std::vector<aclDataBuffer*> buffers_;

 public:
  ~ModelTest() override { ReleaseDatasets(); }
};

}  // namespace npurt::test
