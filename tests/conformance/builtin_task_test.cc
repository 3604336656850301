// Built-in device tasks: aclrtReduceAsync for every reduce kind and data type against a host
// reference (with integer and float overflow in both saturation modes), aclrtRandomNumAsync for every
// distribution and data type (ranges, moments, determinism for a seed and counter, parameters by
// address), the cache-maintenance family, descriptor copies, and every bad argument.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "test_util.h"

namespace cts {
namespace {

using ReduceTest = CtsTest;
using RandomNumTest = CtsTest;
using CmoTest = CtsTest;
using MemcpyDescTest = CtsTest;

constexpr size_t kCount = 1000;

uint16_t ToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}
float FromBf16(uint16_t b) {
  const uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

template <typename T>
T Reference(T d, T s, aclrtReduceKind kind) {
  switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: return static_cast<T>(d + s);
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: return d > s ? d : s;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: return d < s ? d : s;
    default: return d == s ? 1 : 0;
  }
}

// Runs one reduce on device copies of dst/src and returns the device result.
template <typename T>
std::vector<T> RunReduce(const std::vector<T>& dst, const std::vector<T>& src, aclrtReduceKind kind, aclDataType type,
                         aclrtStream stream = nullptr) {
  const size_t bytes = dst.size() * sizeof(T);
  DevBuf d(bytes), s(bytes);
  EXPECT_ACL_OK(d.Upload(dst.data(), bytes));
  EXPECT_ACL_OK(s.Upload(src.data(), bytes));
  EXPECT_ACL_OK(aclrtReduceAsync(d.get(), s.get(), bytes, kind, type, stream, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  std::vector<T> out(dst.size());
  EXPECT_ACL_OK(d.Download(out.data(), bytes));
  return out;
}

template <typename T>
void CheckIntegerType(aclDataType type, uint64_t seed) {
  std::vector<T> d(kCount), s(kCount);
  FillRandom(d.data(), kCount * sizeof(T), seed);
  FillRandom(s.data(), kCount * sizeof(T), seed + 1);
  for (size_t i = 0; i < kCount; ++i) {
    d[i] = static_cast<T>(d[i] / 4);  // quarter range: sums do not overflow
    s[i] = static_cast<T>(s[i] / 4);
    if (i % 7 == 0) s[i] = d[i];  // some equal pairs for EQUAL
  }
  for (auto kind : {ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX,
                    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL}) {
    const std::vector<T> out = RunReduce(d, s, kind, type);
    size_t bad = 0;
    for (size_t i = 0; i < kCount; ++i) bad += out[i] != Reference<T>(d[i], s[i], kind);
    EXPECT_EQ(0u, bad) << "type " << type << " kind " << kind;
  }
}

TEST_F(ReduceTest, EveryKindOfEveryIntegerType) {
  CheckIntegerType<int8_t>(ACL_INT8, 1);
  CheckIntegerType<int16_t>(ACL_INT16, 2);
  CheckIntegerType<int32_t>(ACL_INT32, 3);
  CheckIntegerType<int64_t>(ACL_INT64, 4);
  CheckIntegerType<uint8_t>(ACL_UINT8, 5);
  CheckIntegerType<uint16_t>(ACL_UINT16, 6);
  CheckIntegerType<uint32_t>(ACL_UINT32, 7);
  CheckIntegerType<uint64_t>(ACL_UINT64, 8);
}

// Float types: random values in [-100, 100), computed in float and rounded to the storage type.
template <typename T, typename Enc, typename Dec>
void CheckFloatType(aclDataType type, uint64_t seed, Enc enc, Dec dec) {
  std::vector<uint8_t> r = RandomBytes(2 * kCount, seed);
  std::vector<T> d(kCount), s(kCount);
  for (size_t i = 0; i < kCount; ++i) {
    d[i] = enc(static_cast<float>(r[2 * i]) - 100.5f);
    s[i] = i % 5 == 0 ? d[i] : enc(static_cast<float>(r[2 * i + 1]) * 0.75f - 90.25f);
  }
  for (auto kind : {ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX,
                    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL}) {
    const std::vector<T> out = RunReduce(d, s, kind, type);
    size_t bad = 0;
    for (size_t i = 0; i < kCount; ++i) bad += out[i] != enc(Reference<float>(dec(d[i]), dec(s[i]), kind));
    EXPECT_EQ(0u, bad) << "type " << type << " kind " << kind;
  }
}

TEST_F(ReduceTest, EveryKindOfEveryFloatType) {
  CheckFloatType<float>(ACL_FLOAT, 11, [](float f) { return f; }, [](float f) { return f; });
  CheckFloatType<uint16_t>(ACL_FLOAT16, 12, [](float f) { return aclFloatToFloat16(f); },
                           [](uint16_t h) { return aclFloat16ToFloat(h); });
  CheckFloatType<uint16_t>(ACL_BF16, 13, ToBf16, FromBf16);
}

TEST_F(ReduceTest, OverflowSaturatesOrWrapsByDeviceMode) {
  aclrtFloatOverflowMode original = ACL_RT_OVERFLOW_MODE_SATURATION;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&original));
  const std::vector<int32_t> di = {std::numeric_limits<int32_t>::max() - 1, -5, std::numeric_limits<int32_t>::min()};
  const std::vector<int32_t> si = {10, 3, -1};
  const std::vector<float> df = {3e38f, -3e38f, 1.0f};
  const std::vector<float> sf = {3e38f, -3e38f, 2.0f};
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  auto i_sat = RunReduce(di, si, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32);
  auto f_sat = RunReduce(df, sf, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  auto i_wrap = RunReduce(di, si, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32);
  auto f_inf = RunReduce(df, sf, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(original));
  EXPECT_EQ((std::vector<int32_t>{std::numeric_limits<int32_t>::max(), -2, std::numeric_limits<int32_t>::min()}), i_sat);
  EXPECT_EQ(std::numeric_limits<int32_t>::min() + 8, i_wrap[0]);
  EXPECT_EQ(std::numeric_limits<float>::max(), f_sat[0]);
  EXPECT_EQ(-std::numeric_limits<float>::max(), f_sat[1]);
  EXPECT_EQ(3.0f, f_sat[2]);
  EXPECT_TRUE(std::isinf(f_inf[0]) && f_inf[0] > 0);
  EXPECT_TRUE(std::isinf(f_inf[1]) && f_inf[1] < 0);
}

TEST_F(ReduceTest, RunsInStreamOrder) {
  Stream s;
  std::vector<int32_t> base(kCount, 0), ones(kCount, 1);
  DevBuf d(kCount * 4), one(kCount * 4);
  ASSERT_ACL_OK(d.Upload(base.data(), kCount * 4));
  ASSERT_ACL_OK(one.Upload(ones.data(), kCount * 4));
  for (int i = 0; i < 10; ++i) {
    ASSERT_ACL_OK(aclrtReduceAsync(d.get(), one.get(), kCount * 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s,
                                   nullptr));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<int32_t> out(kCount);
  ASSERT_ACL_OK(d.Download(out.data(), kCount * 4));
  EXPECT_EQ(std::vector<int32_t>(kCount, 10), out);
}

TEST_F(ReduceTest, BadInputs) {
  DevBuf a(64), b(64);
  const auto sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), b.get(), 64, static_cast<aclrtReduceKind>(9),
                                                           ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), b.get(), 64, static_cast<aclrtReduceKind>(14),
                                                           ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), b.get(), 64, sum, ACL_DOUBLE, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), b.get(), 6, sum, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), b.get(), 0, sum, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(nullptr, b.get(), 64, sum, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), nullptr, 64, sum, ACL_FLOAT, nullptr, nullptr));
  int dummy = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a.get(), b.get(), 64, sum, ACL_FLOAT, nullptr, &dummy));
  std::vector<float> host(16);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(host.data(), b.get(), 64, sum, ACL_FLOAT, nullptr, nullptr))
      << "host memory";
  EXPECT_NE(ACL_SUCCESS, aclrtReduceAsync(a.get(), b.get(), 1 << 20, sum, ACL_FLOAT, nullptr, nullptr))
      << "past the allocation";
  EXPECT_BAD_HANDLE(aclrtReduceAsync(a.get(), b.get(), 64, sum, ACL_FLOAT, reinterpret_cast<aclrtStream>(&a),
                                     nullptr));
}

// --- random numbers --------------------------------------------------------------------------------

void SetParam(aclrtRandomParaInfo* p, const void* value, uint8_t size) {
  std::memset(p, 0, sizeof *p);
  std::memcpy(p->valueOrAddr, value, size);
  p->size = size;
}

struct RandomTask {
  aclrtRandomNumTaskInfo info{};
  DevBuf counter{16};
  DevBuf out;

  RandomTask(aclrtRandomNumFuncType type, aclDataType dtype, uint64_t seed, uint64_t n, size_t out_bytes)
      : out(out_bytes) {
    std::memset(&info, 0, sizeof info);
    info.dataType = dtype;
    info.randomNumFuncParaInfo.funcType = type;
    info.randomCounterAddr = counter.get();
    info.randomResultAddr = out.get();
    SetParam(&info.randomSeed, &seed, 8);
    SetParam(&info.randomNum, &n, 8);
    ResetCounter();
  }
  void ResetCounter() { EXPECT_ACL_OK(aclrtMemset(counter.get(), 16, 0, 16)); }
  aclError Run() {
    const aclError rc = aclrtRandomNumAsync(&info, nullptr, nullptr);
    if (rc != ACL_SUCCESS) return rc;
    return aclrtSynchronizeStream(nullptr);
  }
};

TEST_F(RandomNumTest, UniformFloatIsInRangeAndDeterministic) {
  constexpr uint64_t n = 4096;
  RandomTask t(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_FLOAT, 1234, n, n * 4);
  const float lo = -2.5f, hi = 7.0f;
  SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
  SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
  ASSERT_ACL_OK(t.Run());
  std::vector<float> first(n);
  ASSERT_ACL_OK(t.out.Download(first.data(), n * 4));
  double mean = 0;
  for (float v : first) {
    EXPECT_TRUE(v >= lo && v < hi) << v;
    mean += v;
  }
  EXPECT_NEAR((lo + hi) / 2, mean / n, 0.3);
  // The counter advanced: the next numbers differ; reset, they repeat.
  ASSERT_ACL_OK(t.Run());
  std::vector<float> second(n);
  ASSERT_ACL_OK(t.out.Download(second.data(), n * 4));
  EXPECT_NE(first, second);
  t.ResetCounter();
  ASSERT_ACL_OK(t.Run());
  ASSERT_ACL_OK(t.out.Download(second.data(), n * 4));
  EXPECT_EQ(first, second);
}

TEST_F(RandomNumTest, UniformIntegersOfEveryType) {
  constexpr uint64_t n = 2048;
  for (aclDataType dtype : {ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64}) {
    const size_t elem = dtype == ACL_INT32 || dtype == ACL_UINT32 ? 4 : 8;
    RandomTask t(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, dtype, 99, n, n * elem);
    const int64_t lo = dtype == ACL_INT32 || dtype == ACL_INT64 ? -50 : 10;
    const int64_t hi = 60;
    SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, static_cast<uint8_t>(elem));
    SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, static_cast<uint8_t>(elem));
    ASSERT_ACL_OK(t.Run());
    const std::vector<uint8_t> raw = t.out.Read();
    std::vector<bool> seen(static_cast<size_t>(hi - lo), false);
    for (uint64_t i = 0; i < n; ++i) {
      int64_t v = 0;
      if (elem == 4) {
        int32_t v32;
        std::memcpy(&v32, raw.data() + i * 4, 4);
        v = v32;
      } else {
        std::memcpy(&v, raw.data() + i * 8, 8);
      }
      ASSERT_TRUE(v >= lo && v < hi) << "type " << dtype << " value " << v;
      seen[static_cast<size_t>(v - lo)] = true;
    }
    size_t hit = 0;
    for (bool b : seen) hit += b;
    EXPECT_EQ(seen.size(), hit) << "every value of the range appears in " << n << " draws";
  }
}

TEST_F(RandomNumTest, NormalAndTruncatedNormalOfEveryFloatType) {
  constexpr uint64_t n = 8192;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (auto type : {ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS}) {
      const size_t elem = dtype == ACL_FLOAT ? 4 : 2;
      RandomTask t(type, dtype, 7, n, n * elem);
      const float mean = 3.0f, stddev = 2.0f;
      auto& nd = t.info.randomNumFuncParaInfo.paramInfo.normalDisInfo;
      if (dtype == ACL_FLOAT) {
        SetParam(&nd.mean, &mean, 4);
        SetParam(&nd.stddev, &stddev, 4);
      } else {
        const uint16_t m = dtype == ACL_FLOAT16 ? aclFloatToFloat16(mean) : ToBf16(mean);
        const uint16_t s = dtype == ACL_FLOAT16 ? aclFloatToFloat16(stddev) : ToBf16(stddev);
        SetParam(&nd.mean, &m, 2);
        SetParam(&nd.stddev, &s, 2);
      }
      ASSERT_ACL_OK(t.Run());
      const std::vector<uint8_t> raw = t.out.Read();
      double sum = 0, sq = 0;
      float lo = 1e9f, hi = -1e9f;
      for (uint64_t i = 0; i < n; ++i) {
        float v;
        if (dtype == ACL_FLOAT) {
          std::memcpy(&v, raw.data() + i * 4, 4);
        } else {
          uint16_t h;
          std::memcpy(&h, raw.data() + i * 2, 2);
          v = dtype == ACL_FLOAT16 ? aclFloat16ToFloat(h) : FromBf16(h);
        }
        sum += v;
        sq += static_cast<double>(v) * v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      const double m = sum / n;
      const double sd = std::sqrt(sq / n - m * m);
      EXPECT_NEAR(mean, m, 0.15) << "type " << dtype;
      if (type == ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS) {
        EXPECT_NEAR(stddev, sd, 0.15) << "type " << dtype;
      } else {
        EXPECT_GE(lo, mean - 2 * stddev - 0.05f);
        EXPECT_LE(hi, mean + 2 * stddev + 0.05f);
        EXPECT_LT(sd, stddev) << "truncation narrows the spread";
      }
    }
  }
}

TEST_F(RandomNumTest, DropoutBitmaskKeepsTheRatio) {
  constexpr uint64_t n = 16384;
  RandomTask t(ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, ACL_FLOAT, 5, n, n / 8);
  const float ratio = 0.25f;
  SetParam(&t.info.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
  ASSERT_ACL_OK(t.Run());
  size_t kept = 0;
  for (uint8_t b : t.out.Read()) kept += static_cast<size_t>(__builtin_popcount(b));
  EXPECT_NEAR(0.75, static_cast<double>(kept) / n, 0.03);
}

TEST_F(RandomNumTest, ParametersByAddressAreReadWhenTheTaskRuns) {
  constexpr uint64_t n = 512;
  RandomTask t(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_FLOAT, 3, n, n * 4);
  DevBuf params(64);
  const float lo = 100.0f, hi = 101.0f;
  ASSERT_ACL_OK(params.Upload(&lo, 4, 0));
  ASSERT_ACL_OK(params.Upload(&hi, 4, 8));
  ASSERT_ACL_OK(params.Upload(&n, 8, 16));
  auto by_addr = [](aclrtRandomParaInfo* p, void* addr, uint8_t size) {
    std::memset(p, 0, sizeof *p);
    p->isAddr = 1;
    std::memcpy(p->valueOrAddr, &addr, sizeof addr);
    p->size = size;
  };
  by_addr(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, params.bytes(), 4);
  by_addr(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, params.bytes() + 8, 4);
  by_addr(&t.info.randomNum, params.bytes() + 16, 8);
  ASSERT_ACL_OK(t.Run());
  std::vector<float> out(n);
  ASSERT_ACL_OK(t.out.Download(out.data(), n * 4));
  for (float v : out) ASSERT_TRUE(v >= lo && v < hi) << v;
}

TEST_F(RandomNumTest, BadInputs) {
  RandomTask t(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ACL_INT32, 1, 64, 256);
  const int32_t lo = 5, hi = 5;
  SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
  SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&t.info, nullptr, nullptr)) << "empty range";
  const int32_t hi2 = 9;
  SetParam(&t.info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi2, 4);
  EXPECT_ACL_OK(aclrtRandomNumAsync(&t.info, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(nullptr, nullptr, nullptr));
  int dummy = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&t.info, nullptr, &dummy));
  aclrtRandomNumTaskInfo bad = t.info;
  bad.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(4);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr));
  bad = t.info;
  bad.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr)) << "normal of int32";
  bad = t.info;
  bad.dataType = ACL_INT8;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr));
  bad = t.info;
  bad.randomResultAddr = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr));
  bad = t.info;
  bad.randomCounterAddr = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr));
  bad = t.info;
  const uint64_t zero = 0;
  SetParam(&bad.randomNum, &zero, 8);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr));
  bad = t.info;
  const uint64_t too_many = 1 << 20;
  SetParam(&bad.randomNum, &too_many, 8);
  EXPECT_NE(ACL_SUCCESS, aclrtRandomNumAsync(&bad, nullptr, nullptr)) << "past the result buffer";
  bad = t.info;
  bad.randomSeed.size = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&bad, nullptr, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

// --- cache maintenance and descriptors --------------------------------------------------------------

TEST_F(CmoTest, CacheOperationsAreOrderedNoOps) {
  DevBuf buf(4096);
  const std::vector<uint8_t> data = RandomBytes(4096, 21);
  ASSERT_ACL_OK(buf.Upload(data.data(), 4096));
  for (int type = ACL_RT_CMO_TYPE_PREFETCH; type <= ACL_RT_CMO_TYPE_FLUSH; ++type) {
    EXPECT_ACL_OK(aclrtCmoAsync(buf.get(), 4096, static_cast<aclrtCmoType>(type), nullptr));
    EXPECT_ACL_OK(aclrtCmoAsyncWithBarrier(buf.get(), 4096, static_cast<aclrtCmoType>(type), 1 + type, nullptr));
  }
  aclrtBarrierTaskInfo barrier{};
  barrier.barrierNum = 2;
  barrier.cmoInfo[0] = {ACL_RT_CMO_TYPE_WRITEBACK, 2};
  barrier.cmoInfo[1] = {ACL_RT_CMO_TYPE_FLUSH, 4};
  EXPECT_ACL_OK(aclrtCmoWaitBarrier(&barrier, nullptr, 0));
  size_t desc_size = 0;
  ASSERT_ACL_OK(aclrtCmoGetDescSize(&desc_size));
  ASSERT_GT(desc_size, 0u);
  DevBuf desc(desc_size);
  ASSERT_ACL_OK(aclrtCmoSetDesc(desc.get(), buf.get(), 4096));
  EXPECT_ACL_OK(aclrtCmoAsyncWithDesc(desc.get(), ACL_RT_CMO_TYPE_INVALID, nullptr, nullptr));
  EXPECT_ACL_OK(aclrtDeviceL2CacheFlush(nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(data, buf.Read()) << "cache operations never change data";
}

TEST_F(CmoTest, BadInputs) {
  DevBuf buf(4096);
  const auto wb = ACL_RT_CMO_TYPE_WRITEBACK;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsync(buf.get(), 4096, static_cast<aclrtCmoType>(4), nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsync(buf.get(), 0, wb, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsync(nullptr, 4096, wb, nullptr));
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsync(host.data(), 64, wb, nullptr)) << "host memory";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsyncWithBarrier(buf.get(), 4096, wb, 0, nullptr));
  aclrtBarrierTaskInfo barrier{};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoWaitBarrier(&barrier, nullptr, 0)) << "no barrier";
  barrier.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM + 1;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoWaitBarrier(&barrier, nullptr, 0));
  barrier.barrierNum = 1;
  barrier.cmoInfo[0] = {wb, 1};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoWaitBarrier(&barrier, nullptr, 1)) << "flag";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoWaitBarrier(nullptr, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoGetDescSize(nullptr));
  size_t desc_size = 0;
  ASSERT_ACL_OK(aclrtCmoGetDescSize(&desc_size));
  DevBuf desc(desc_size);
  ASSERT_ACL_OK(aclrtMemset(desc.get(), desc_size, 0, desc_size));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsyncWithDesc(desc.get(), wb, nullptr, nullptr)) << "never set";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoSetDesc(desc.get(), buf.get(), 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoSetDesc(nullptr, buf.get(), 64));
  ASSERT_ACL_OK(aclrtCmoSetDesc(desc.get(), buf.get(), 64));
  int dummy = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCmoAsyncWithDesc(desc.get(), wb, nullptr, &dummy));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceL2CacheFlush(&dummy));
}

TEST_F(MemcpyDescTest, DescriptorCopiesRunInStreamOrder) {
  constexpr size_t n = 4096;
  DevBuf src(n), dst(n);
  const std::vector<uint8_t> data = RandomBytes(n, 31);
  ASSERT_ACL_OK(src.Upload(data.data(), n));
  size_t desc_size = 0;
  ASSERT_ACL_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &desc_size));
  DevBuf desc(desc_size);
  ASSERT_ACL_OK(aclrtSetMemcpyDesc(desc.get(), ACL_MEMCPY_DEVICE_TO_DEVICE, src.get(), dst.get(), n, nullptr));
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithDesc(desc.get(), ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(data, dst.Read());
}

TEST_F(MemcpyDescTest, OffsetCopyReadsItsPointersFromDeviceMemory) {
  constexpr size_t n = 1024;
  DevBuf src(n + 64), dst(n + 64), ptrs(16);
  const std::vector<uint8_t> data = RandomBytes(n + 64, 32);
  ASSERT_ACL_OK(src.Upload(data.data(), n + 64));
  ASSERT_ACL_OK(dst.Upload(RandomBytes(n + 64, 33).data(), n + 64));
  void* const addrs[2] = {dst.get(), src.get()};
  ASSERT_ACL_OK(ptrs.Upload(addrs, sizeof addrs));
  auto** dst_slot = reinterpret_cast<void**>(ptrs.bytes());
  auto** src_slot = reinterpret_cast<const void**>(ptrs.bytes() + 8);
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithOffset(dst_slot, n, 32, src_slot, n, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  const std::vector<uint8_t> out = dst.Read();
  EXPECT_EQ(0, std::memcmp(out.data() + 32, data.data() + 16, n));
}

TEST_F(MemcpyDescTest, BadInputs) {
  DevBuf a(256), b(256), desc(64);
  size_t size = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemcpyDescSize(static_cast<aclrtMemcpyKind>(99), &size));
  int dummy = 0;
  const auto d2d = ACL_MEMCPY_DEVICE_TO_DEVICE;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc.get(), d2d, a.get(), b.get(), 64, &dummy));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc.get(), d2d, a.get(), b.get(), 0, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(nullptr, d2d, a.get(), b.get(), 64, nullptr));
  EXPECT_NE(ACL_SUCCESS, aclrtSetMemcpyDesc(desc.get(), d2d, a.get(), b.get(), 1 << 20, nullptr)) << "overrun";
  ASSERT_ACL_OK(aclrtMemset(desc.get(), 64, 0, 64));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(desc.get(), d2d, nullptr)) << "never set";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(nullptr, d2d, nullptr));
  void* slot = a.get();
  const void* cslot = b.get();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(&slot, 16, 0, &cslot, 32, 0, d2d, nullptr))
      << "count past destMax";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(nullptr, 64, 0, &cslot, 32, 0, d2d, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(&slot, 64, 0, &cslot, 0, 0, d2d, nullptr));
  // A pointer that is bad when the copy runs fails the stream.
  void* bad = reinterpret_cast<void*>(uintptr_t{16});
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithOffset(&bad, 64, 0, &cslot, 32, 0, d2d, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(nullptr));
}

}  // namespace
}  // namespace cts
