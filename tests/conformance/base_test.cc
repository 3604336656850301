// Error reporting (aclGetRecentErrMsg, aclrtGetLastError/PeekAtLastError), data buffers,
// aclDataTypeSize and the fp16 conversions.
#include <cmath>
#include <limits>
#include <string>

#include "test_util.h"

namespace cts {
namespace {

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

using ErrorStateTest = CtsTest;

std::string TakeMessage() {
  const char* m = aclGetRecentErrMsg();
  return m == nullptr ? std::string() : std::string(m);
}

TEST_F(ErrorStateTest, RecentMessageNamesTheFailedFunctionAndIsConsumed) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::string msg = TakeMessage();
  EXPECT_FALSE(msg.empty());
  EXPECT_NE(std::string::npos, msg.find("aclrtMalloc")) << "message: " << msg;
  EXPECT_TRUE(TakeMessage().empty()) << "the message is cleared once read";
}

TEST_F(ErrorStateTest, RecentMessageDescribesTheMostRecentFailure) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t count = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAvailableNum(nullptr));
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  const std::string msg = TakeMessage();
  EXPECT_NE(std::string::npos, msg.find("aclrtGetStreamAvailableNum")) << "message: " << msg;
}

TEST_F(ErrorStateTest, RecentMessageIsPerThread) {
  std::string theirs;
  std::thread([&] {
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice());
    theirs = TakeMessage();
  }).join();
  EXPECT_NE(std::string::npos, theirs.find("aclrtSynchronizeDevice")) << "message: " << theirs;
  EXPECT_TRUE(TakeMessage().empty()) << "another thread's failure must not show up here";
}

TEST_F(ErrorStateTest, RecentMessageOfAnOutOfMemoryError) {
  void* p = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, size_t(1) << 52, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(nullptr, p);
  const std::string msg = TakeMessage();
  EXPECT_NE(std::string::npos, msg.find("aclrtMalloc")) << "message: " << msg;
  EXPECT_NE(std::string::npos, msg.find(std::to_string(size_t(1) << 52))) << "the message should give the size: "
                                                                              << msg;
}

TEST_F(ErrorStateTest, PeekKeepsAndGetClearsTheLastError) {
  EXPECT_ACL_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ErrorStateTest, LastErrorSurvivesLaterSuccessfulCallsAndTracksTheLatestFailure) {
  aclrtStream s = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(nullptr));
  uint32_t count = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(static_cast<int32_t>(count) + 3));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(nullptr, s);
}

TEST_F(ErrorStateTest, LastErrorIsPerThread) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  aclError seen = -1, theirs = -1;
  std::thread([&] {
    seen = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    int32_t dev = 0;
    (void)aclrtGetDevice(&dev);  // no current context in this thread
    theirs = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    ClearErrorState();
  }).join();
  EXPECT_EQ(ACL_SUCCESS, seen);
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, theirs);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ErrorStateTest, UnknownErrorLevelIsRejected) {
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(1)));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(static_cast<aclrtLastErrLevel>(7)));
}

// ---------------------------------------------------------------------------------------------
// Data buffers
// ---------------------------------------------------------------------------------------------

using DataBufferTest = CtsTest;

TEST_F(DataBufferTest, CreateGetUpdateDestroy) {
  std::vector<uint8_t> a = RandomBytes(100, 1), b = RandomBytes(300, 2);
  aclDataBuffer* buf = aclCreateDataBuffer(a.data(), a.size());
  ASSERT_NE(nullptr, buf);
  EXPECT_EQ(a.data(), aclGetDataBufferAddr(buf));
  EXPECT_EQ(a.size(), aclGetDataBufferSizeV2(buf));
  EXPECT_EQ(a.size(), aclGetDataBufferSize(buf));
  ASSERT_ACL_OK(aclUpdateDataBuffer(buf, b.data(), b.size()));
  EXPECT_EQ(b.data(), aclGetDataBufferAddr(buf));
  EXPECT_EQ(b.size(), aclGetDataBufferSizeV2(buf));
  EXPECT_ACL_OK(aclDestroyDataBuffer(buf));
  EXPECT_EQ(RandomBytes(100, 1), a) << "destroying a data buffer must not touch its data";
}

TEST_F(DataBufferTest, EmptyBufferIsLegal) {
  aclDataBuffer* buf = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(nullptr, buf);
  EXPECT_EQ(nullptr, aclGetDataBufferAddr(buf));
  EXPECT_EQ(0u, aclGetDataBufferSizeV2(buf));
  EXPECT_ACL_OK(aclDestroyDataBuffer(buf));
}

TEST_F(DataBufferTest, DestroyDoesNotFreeDeviceMemory) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  aclDataBuffer* buf = aclCreateDataBuffer(dev, 4096);
  ASSERT_NE(nullptr, buf);
  ASSERT_ACL_OK(aclDestroyDataBuffer(buf));
  const std::vector<uint8_t> data = RandomBytes(4096, 3);
  std::vector<uint8_t> back(4096);
  EXPECT_ACL_OK(aclrtMemcpy(dev, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtMemcpy(back.data(), 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(data, back);
  EXPECT_ACL_OK(aclrtFree(dev)) << "the memory is still the caller's to free";
}

TEST_F(DataBufferTest, DeprecatedSizeIsTruncatedTo32Bits) {
  const size_t big = (size_t(1) << 32) + 123;
  aclDataBuffer* buf = aclCreateDataBuffer(reinterpret_cast<void*>(uintptr_t(0x1000)), big);
  ASSERT_NE(nullptr, buf);
  EXPECT_EQ(big, aclGetDataBufferSizeV2(buf));
  EXPECT_EQ(123u, aclGetDataBufferSize(buf));
  EXPECT_ACL_OK(aclDestroyDataBuffer(buf));
}

TEST_F(DataBufferTest, BadBuffersAreRejected) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclDestroyDataBuffer(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclUpdateDataBuffer(nullptr, nullptr, 0));
  EXPECT_EQ(nullptr, aclGetDataBufferAddr(nullptr));
  EXPECT_EQ(0u, aclGetDataBufferSizeV2(nullptr));
  EXPECT_EQ(0u, aclGetDataBufferSize(nullptr));
  // Destroyed, zeroed and foreign memory.
  int x = 0;
  aclDataBuffer* buf = aclCreateDataBuffer(&x, sizeof x);
  ASSERT_ACL_OK(aclDestroyDataBuffer(buf));
  EXPECT_BAD_HANDLE(aclDestroyDataBuffer(buf));
  alignas(64) static uint8_t zeros[256] = {};
  uint8_t stack[256];
  FillRandom(stack, sizeof stack, 4);
  for (void* p : {static_cast<void*>(zeros), static_cast<void*>(stack + 24)}) {
    auto* bogus = static_cast<aclDataBuffer*>(p);
    EXPECT_BAD_HANDLE(aclDestroyDataBuffer(bogus));
    EXPECT_BAD_HANDLE(aclUpdateDataBuffer(bogus, &x, sizeof x));
    EXPECT_EQ(nullptr, aclGetDataBufferAddr(bogus));
    EXPECT_EQ(0u, aclGetDataBufferSizeV2(bogus));
  }
  EXPECT_TRUE(AllBytesAre(zeros, sizeof zeros, 0)) << "rejected buffers must not be written";
}

// ---------------------------------------------------------------------------------------------
// Data type sizes
// ---------------------------------------------------------------------------------------------

TEST(DataTypeSizeTest, MatchesTheAclTable) {
  CTS_SKIP_IF_UNSUPPORTED();
  const struct {
    int type;
    size_t size;
  } table[] = {
      {ACL_DT_UNDEFINED, 0}, {ACL_FLOAT, 4},         {ACL_FLOAT16, 2},       {ACL_INT8, 1},
      {ACL_INT32, 4},        {ACL_UINT8, 1},         {ACL_INT16, 2},         {ACL_UINT16, 2},
      {ACL_UINT32, 4},       {ACL_INT64, 8},         {ACL_UINT64, 8},        {ACL_DOUBLE, 8},
      {ACL_BOOL, 1},         {ACL_STRING, 0},        {ACL_COMPLEX64, 8},     {ACL_COMPLEX128, 16},
      {ACL_BF16, 2},         {ACL_INT4, 1},          {ACL_UINT1, 1},         {ACL_COMPLEX32, 4},
      {ACL_HIFLOAT8, 1},     {ACL_FLOAT8_E5M2, 1},   {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1},
      {ACL_FLOAT6_E3M2, 8},  {ACL_FLOAT6_E2M3, 8},   {ACL_FLOAT4_E2M1, 8},   {ACL_FLOAT4_E1M2, 8},
      // Values without a type fall into the 8-byte default branch, as in CANN.
      {5, 8},                {1000, 8},
  };
  for (const auto& row : table) {
    EXPECT_EQ(row.size, aclDataTypeSize(static_cast<aclDataType>(row.type))) << "data type " << row.type;
  }
}

// ---------------------------------------------------------------------------------------------
// fp16
// ---------------------------------------------------------------------------------------------

float Next(float f, int steps) {
  for (int i = 0; i < std::abs(steps); ++i) f = std::nextafter(f, steps > 0 ? INFINITY : -INFINITY);
  return f;
}

TEST(Fp16Test, KnownValues) {
  CTS_SKIP_IF_UNSUPPORTED();
  const struct {
    float f;
    uint16_t h;
  } table[] = {
      {0.0f, 0x0000},       {-0.0f, 0x8000},      {1.0f, 0x3C00},      {-2.0f, 0xC000},
      {0.5f, 0x3800},       {65504.0f, 0x7BFF},   {-65504.0f, 0xFBFF}, {0.333251953125f, 0x3555},
      {6.103515625e-05f, 0x0400},  // smallest normal
      {5.960464477539063e-08f, 0x0001},  // smallest subnormal
      {1.0009765625f, 0x3C01},
  };
  for (const auto& row : table) {
    EXPECT_EQ(row.h, aclFloatToFloat16(row.f)) << row.f;
    EXPECT_EQ(row.f, aclFloat16ToFloat(row.h)) << std::hex << row.h;
  }
  // Round to nearest, ties to even.
  EXPECT_EQ(0x3C00, aclFloatToFloat16(1.00048828125f));  // halfway between 0x3C00 and 0x3C01: even
  EXPECT_EQ(0x3C02, aclFloatToFloat16(1.00146484375f));  // halfway between 0x3C01 and 0x3C02: even
  EXPECT_EQ(0x3C01, aclFloatToFloat16(Next(1.00048828125f, 1)));
  EXPECT_EQ(0x0000, aclFloatToFloat16(1e-9f));           // underflow
}

TEST(Fp16Test, NanAndInfinitySaturateTo65504) {
  CTS_SKIP_IF_UNSUPPORTED();
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::infinity()));
  EXPECT_EQ(0xFBFF, aclFloatToFloat16(-std::numeric_limits<float>::infinity()));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::signaling_NaN()));
  EXPECT_EQ(0xFBFF, aclFloatToFloat16(-std::numeric_limits<float>::quiet_NaN()));
  // Finite values beyond the fp16 range saturate too.
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(65520.0f));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(1e6f));
  EXPECT_EQ(0xFBFF, aclFloatToFloat16(-1e30f));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::max()));
  EXPECT_EQ(65504.0f, aclFloat16ToFloat(aclFloatToFloat16(std::numeric_limits<float>::infinity())));
}

TEST(Fp16Test, AllOnesExponentReadsAsANormalNumber) {
  CTS_SKIP_IF_UNSUPPORTED();
  EXPECT_EQ(65536.0f, aclFloat16ToFloat(0x7C00));
  EXPECT_EQ(-65536.0f, aclFloat16ToFloat(0xFC00));
  EXPECT_EQ(98304.0f, aclFloat16ToFloat(0x7E00));
  EXPECT_EQ(131008.0f, aclFloat16ToFloat(0x7FFF));
}

TEST(Fp16Test, EveryFiniteHalfRoundTrips) {
  CTS_SKIP_IF_UNSUPPORTED();
  int failures = 0;
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    if (((h >> 10) & 0x1F) == 0x1F) continue;  // all-ones exponent: not representable back
    const float f = aclFloat16ToFloat(static_cast<aclFloat16>(h));
    const aclFloat16 back = aclFloatToFloat16(f);
    if (back != h && failures++ < 10) {
      ADD_FAILURE() << std::hex << "0x" << h << " -> " << f << " -> 0x" << back;
    }
  }
  EXPECT_EQ(0, failures);
}

TEST(Fp16Test, RandomFloatsRoundToTheNearestHalf) {
  CTS_SKIP_IF_UNSUPPORTED();
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> mag(-24.5f, 15.99f);
  int failures = 0;
  for (int i = 0; i < 200000 && failures < 10; ++i) {
    const float f = (rng() & 1 ? -1.0f : 1.0f) * std::exp2(mag(rng));
    if (std::fabs(f) > 65504.0f) continue;
    const aclFloat16 h = aclFloatToFloat16(f);
    const float g = aclFloat16ToFloat(h);
    // No other half is closer: compare with both neighbours (same sign, magnitudes one ulp apart).
    const float err = std::fabs(g - f);
    const uint16_t mag_bits = h & 0x7FFF;
    const uint16_t sign = h & 0x8000;
    for (int d : {-1, 1}) {
      const int nb = static_cast<int>(mag_bits) + d;
      if (nb < 0 || nb > 0x7BFF) continue;
      const float other = aclFloat16ToFloat(static_cast<aclFloat16>(sign | nb));
      if (std::fabs(other - f) < err) {
        ++failures;
        ADD_FAILURE() << f << " became 0x" << std::hex << h << " (" << g << ") but 0x" << (sign | nb) << " ("
                      << other << ") is closer";
      }
    }
    // Relative error bound of binary16 for normal numbers.
    if (std::fabs(f) >= 6.103515625e-05f && err > std::fabs(f) * 0x1p-11f) {
      ++failures;
      ADD_FAILURE() << f << " -> " << g << " exceeds half an ulp";
    }
  }
  EXPECT_EQ(0, failures);
}

}  // namespace
}  // namespace cts
