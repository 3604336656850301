// Kernels compiled at run time and run: a plain kernel with a header passed as text and a -D option, and
// template instantiations asked for by name expression, found by their lowered names.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "rtc_test_util.h"

namespace {

constexpr const char* kScaleHeader = R"(
#pragma once
constexpr float kScale = 2.5f;
)";

// z = x * kScale (from the header) + y + RTC_TEST_OFFSET (from -D).
constexpr const char* kPlainSource = R"(
#include "kernel_operator.h"
#include "params/scale.h"
extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  const __gm__ float* xs = reinterpret_cast<const __gm__ float*>(x);
  const __gm__ float* ys = reinterpret_cast<const __gm__ float*>(y);
  __gm__ float* zs = reinterpret_cast<__gm__ float*>(z);
  for (uint32_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum()) zs[i] = xs[i] * kScale + ys[i] + RTC_TEST_OFFSET;
}
)";

// y = a * x + y, for any element type.
constexpr const char* kTemplateSource = R"(
#include "kernel_operator.h"
namespace ops {
template <typename T>
__global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, T a, uint32_t n) {
  const __gm__ T* xs = reinterpret_cast<const __gm__ T*>(x);
  __gm__ T* ys = reinterpret_cast<__gm__ T*>(y);
  for (uint32_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum()) ys[i] = a * xs[i] + ys[i];
}
}  // namespace ops
)";

class RtcRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rtc_test::UseSourceTreeCompiler();
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  }
  static void TearDownTestSuite() { aclFinalize(); }

  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : device_) aclrtFree(p);
    if (bin_ != nullptr) {
      EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS);
    }
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
  }

  // Loads the program's binary as a CANN program does (the ELF_AICORE magic option).
  void Load(aclrtcProg prog) {
    size_t size = 0;
    ASSERT_EQ(aclrtcGetBinDataSize(prog, &size), ACL_SUCCESS);
    ASSERT_GT(size, 0u);
    std::vector<char> bin(size);
    ASSERT_EQ(aclrtcGetBinData(prog, bin.data()), ACL_SUCCESS);
    aclrtBinaryLoadOption option{};
    option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    option.value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
    aclrtBinaryLoadOptions options{&option, 1};
    ASSERT_EQ(aclrtBinaryLoadFromData(bin.data(), size, &options, &bin_), ACL_SUCCESS) << aclGetRecentErrMsg();
  }

  template <typename T>
  void* ToDevice(const std::vector<T>& host) {
    void* p = nullptr;
    const size_t bytes = host.size() * sizeof(T);
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(p, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    device_.push_back(p);
    return p;
  }

  template <typename T>
  std::vector<T> ToHost(void* p, size_t n) {
    std::vector<T> host(n);
    EXPECT_EQ(aclrtMemcpy(host.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return host;
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle bin_ = nullptr;
  std::vector<void*> device_;
  std::mt19937 rng_{20251205};
};

TEST_F(RtcRun, PlainKernelWithHeaderAndDefine) {
  const char* headers[] = {kScaleHeader};
  const char* names[] = {"params/scale.h"};
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, kPlainSource, "scale_add.asc", 1, headers, names), ACL_SUCCESS);
  const char* options[] = {"--npu-arch=dav-2201", "-DRTC_TEST_OFFSET=0.75f", "--cce-auto-sync"};
  ASSERT_EQ(aclrtcCompileProg(prog, 3, options), ACL_SUCCESS) << rtc_test::CompileLog(prog);
  Load(prog);
  aclrtFuncHandle func = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin_, "scale_add", &func), ACL_SUCCESS) << aclGetRecentErrMsg();

  uint32_t n = 3001;
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = dist(rng_), y[i] = dist(rng_);
  void* dx = ToDevice(x);
  void* dy = ToDevice(y);
  void* dz = ToDevice(std::vector<float>(n, -1.0f));
  void* args[] = {&dx, &dy, &dz, &n};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(func, 8, stream_, nullptr, args), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<float> z = ToHost<float>(dz, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_NEAR(z[i], x[i] * 2.5f + y[i] + 0.75f, 1e-5f) << "at " << i;
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
  EXPECT_EQ(prog, nullptr);
}

TEST_F(RtcRun, TemplateInstancesByNameExpression) {
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, kTemplateSource, "axpy", 0, nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "ops::axpy<float>"), ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "ops::axpy< int32_t >"), ACL_SUCCESS);
  const char* options[] = {"--npu-arch=dav-2201"};
  ASSERT_EQ(aclrtcCompileProg(prog, 1, options), ACL_SUCCESS) << rtc_test::CompileLog(prog);
  const char* lowered_f = nullptr;
  const char* lowered_i = nullptr;
  ASSERT_EQ(aclrtcGetLoweredName(prog, "ops::axpy<float>", &lowered_f), ACL_SUCCESS);
  ASSERT_EQ(aclrtcGetLoweredName(prog, "ops::axpy< int32_t >", &lowered_i), ACL_SUCCESS);
  EXPECT_STREQ(lowered_f, "ops::axpy<float>");
  EXPECT_STREQ(lowered_i, "ops::axpy<int32_t>");
  Load(prog);

  uint32_t n = 1500;
  std::uniform_real_distribution<float> fdist(-3.0f, 3.0f);
  std::uniform_int_distribution<int32_t> idist(-1000, 1000);
  std::vector<float> xf(n), yf(n);
  std::vector<int32_t> xi(n), yi(n);
  for (uint32_t i = 0; i < n; ++i) xf[i] = fdist(rng_), yf[i] = fdist(rng_), xi[i] = idist(rng_), yi[i] = idist(rng_);
  float af = 1.75f;
  int32_t ai = -3;
  void* dxf = ToDevice(xf);
  void* dyf = ToDevice(yf);
  void* dxi = ToDevice(xi);
  void* dyi = ToDevice(yi);

  aclrtFuncHandle ff = nullptr;
  aclrtFuncHandle fi = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin_, lowered_f, &ff), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtBinaryGetFunction(bin_, lowered_i, &fi), ACL_SUCCESS) << aclGetRecentErrMsg();
  void* args_f[] = {&dxf, &dyf, &af, &n};
  void* args_i[] = {&dxi, &dyi, &ai, &n};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(ff, 4, stream_, nullptr, args_f), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(fi, 3, stream_, nullptr, args_i), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<float> rf = ToHost<float>(dyf, n);
  const std::vector<int32_t> ri = ToHost<int32_t>(dyi, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_NEAR(rf[i], af * xf[i] + yf[i], 1e-5f) << "at " << i;  // the kernel may fuse the multiply-add
    ASSERT_EQ(ri[i], ai * xi[i] + yi[i]) << "at " << i;
  }
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

}  // namespace
