// The kernel generator's language coverage: template kernels instantiated by <<<>>> launches and by explicit
// instantiation, kernel qualifiers in any order (__vector__, __cube__, __mix__(c, v), no extern "C"),
// KERNEL_TASK_TYPE_DEFAULT, kernels declared in and defined in headers.
#include <acl/error_codes/rt_error_codes.h>

#include "gen_launch.h"
#include "sync_test_util.h"

namespace ascendc_sync {
namespace {

using GeneratorTest = SyncTest;

template <typename T, typename Launch>
void ExpectScaled(aclrtStream stream, std::vector<T> x, T factor, Launch launch) {
  DeviceBuffer xd(x.size() * sizeof(T)), yd(x.size() * sizeof(T));
  xd.Write(x);
  ASSERT_EQ(launch(xd.get(), yd.get(), factor, static_cast<uint32_t>(x.size())), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<T> y = yd.Read<T>(x.size());
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], static_cast<T>(x[i] * factor)) << "element " << i;
}

TEST_F(GeneratorTest, TemplateKernelsLaunchedWithTypes) {
  std::uniform_real_distribution<float> f(-100.0f, 100.0f);
  std::vector<float> xf(1001);
  for (auto& v : xf) v = f(rng_);
  ExpectScaled<float>(stream_, xf, f(rng_), [&](void* x, void* y, float k, uint32_t n) {
    return GenScaleFloat(5, stream_, x, y, k, n);
  });
  std::uniform_int_distribution<int32_t> i(-1000, 1000);
  std::vector<int32_t> xi(777);
  for (auto& v : xi) v = i(rng_);
  ExpectScaled<int32_t>(stream_, xi, i(rng_), [&](void* x, void* y, int32_t k, uint32_t n) {
    return GenScaleInt(3, stream_, x, y, k, n);
  });
}

// Qualifiers in another order, a kernel defined in a header, non-type template arguments.
TEST_F(GeneratorTest, QualifiersHeadersAndNonTypeArguments) {
  const uint32_t blocks = 6, value = std::uniform_int_distribution<uint32_t>(1, 1000)(rng_);
  DeviceBuffer out(blocks * 4);
  ASSERT_EQ(GenPlain(blocks, stream_, out.get(), value), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  for (uint32_t v : out.Read<uint32_t>(blocks)) EXPECT_EQ(v, value);
  ASSERT_EQ(GenInHeader(blocks, stream_, out.get(), value), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<uint32_t> got = out.Read<uint32_t>(blocks);
  for (uint32_t b = 0; b < blocks; ++b) EXPECT_EQ(got[b], value + 7 * b);
  // __mix__(1, 2): two vector sub-blocks per block, GetBlockIdx() in [0, 2 * blocks).
  DeviceBuffer mix(2 * blocks * 4);
  ASSERT_EQ(GenMix12(blocks, stream_, mix.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  for (int32_t v : mix.Read<int32_t>(2 * blocks)) EXPECT_EQ(v, 102);
  // __mix__(1, 0): a cube kernel, one participant per block.
  ASSERT_EQ(GenMix10(blocks, stream_, out.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  for (int32_t v : out.Read<int32_t>(blocks)) EXPECT_EQ(v, 100);
}

// The kernel's type from its qualifier or KERNEL_TASK_TYPE_DEFAULT: a vector kernel's fault has the
// vector-core code, a cube (AIC-only) kernel's the AI core code.
TEST_F(GeneratorTest, KernelTypeSelectsTheFaultCode) {
  DeviceBuffer out(16);
  const aclError want[] = {ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, ACL_ERROR_RT_AICORE_EXCEPTION,
                           ACL_ERROR_RT_AICORE_EXCEPTION};
  for (int which = 0; which < 3; ++which) {
    ASSERT_EQ(GenTrap(which, stream_, out.get()), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), want[which]) << "kernel " << which;
    ErrorMessage();
  }
}

// An explicit instantiation is a kernel of the binary, named with its template arguments.
TEST_F(GeneratorTest, ExplicitInstantiationInAFatbin) {
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(NPURT_GEN_FATBIN, nullptr, &bin), ACL_SUCCESS) << ErrorMessage();
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "gen_scale<half>", &f), ACL_SUCCESS) << ErrorMessage();
  EXPECT_NE(aclrtBinaryGetFunction(bin, "gen_scale<double>", &f), ACL_SUCCESS);
  const std::string m = ErrorMessage();
  EXPECT_NE(m.find("gen_scale<half>(GM_ADDR x, GM_ADDR y, half factor, uint32_t n)"), std::string::npos) << m;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "gen_scale<half>", &f), ACL_SUCCESS);
  const uint32_t n = 300;
  std::uniform_int_distribution<int> d(-20, 20);
  std::vector<_Float16> x(n);
  for (auto& v : x) v = static_cast<_Float16>(d(rng_));
  DeviceBuffer xd(n * 2), yd(n * 2);
  xd.Write(x);
  struct {
    void* x;
    void* y;
    _Float16 factor;
    uint32_t n;
  } args = {xd.get(), yd.get(), static_cast<_Float16>(3), n};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(f, 4, stream_, nullptr, &args, sizeof args, nullptr, 0), ACL_SUCCESS)
      << ErrorMessage();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<_Float16> y = yd.Read<_Float16>(n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<float>(y[i]), 3.0f * static_cast<float>(x[i])) << i;
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascendc_sync
