#include "hccl_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <bit>
#include <cmath>

namespace npurt_hccl_test {
namespace {

// aclInit once for the whole test program (every file's tests share it), with 8 simulated devices (the
// environment can still ask for more).
class AclEnv : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv("NPURT_SIM_DEVICE_COUNT", "8", 0);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  }
  void TearDown() override { aclFinalize(); }
};
const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new AclEnv);

float HalfToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}
uint16_t FloatToHalf(float f) {  // exact for the values the tests produce (small integers and halves)
  const uint32_t sign = std::signbit(f) ? 0x8000 : 0;
  f = std::fabs(f);
  if (f == 0) return static_cast<uint16_t>(sign);
  int e = 0;
  const float m = std::frexp(f, &e);  // f = m * 2^e, m in [0.5, 1)
  const uint32_t exp = static_cast<uint32_t>(e + 14);
  const uint32_t mant = static_cast<uint32_t>(std::lround((m * 2 - 1) * 1024));
  return static_cast<uint16_t>(sign | (exp << 10) | mant);
}
float Bf16ToFloat(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }
uint16_t FloatToBf16(float f) { return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16); }  // exact here

double Load(HcclDataType t, const uint8_t* p, size_t i) {
  switch (t) {
    case HCCL_DATA_TYPE_INT8: return reinterpret_cast<const int8_t*>(p)[i];
    case HCCL_DATA_TYPE_INT16: return reinterpret_cast<const int16_t*>(p)[i];
    case HCCL_DATA_TYPE_INT32: return reinterpret_cast<const int32_t*>(p)[i];
    case HCCL_DATA_TYPE_INT64: return static_cast<double>(reinterpret_cast<const int64_t*>(p)[i]);
    case HCCL_DATA_TYPE_UINT8: return reinterpret_cast<const uint8_t*>(p)[i];
    case HCCL_DATA_TYPE_UINT16: return reinterpret_cast<const uint16_t*>(p)[i];
    case HCCL_DATA_TYPE_UINT32: return reinterpret_cast<const uint32_t*>(p)[i];
    case HCCL_DATA_TYPE_UINT64: return static_cast<double>(reinterpret_cast<const uint64_t*>(p)[i]);
    case HCCL_DATA_TYPE_FP16: return HalfToFloat(reinterpret_cast<const uint16_t*>(p)[i]);
    case HCCL_DATA_TYPE_BFP16: return Bf16ToFloat(reinterpret_cast<const uint16_t*>(p)[i]);
    case HCCL_DATA_TYPE_FP32: return reinterpret_cast<const float*>(p)[i];
    case HCCL_DATA_TYPE_FP64: return reinterpret_cast<const double*>(p)[i];
    default: return 0;
  }
}

void Store(HcclDataType t, uint8_t* p, size_t i, double v) {
  switch (t) {
    case HCCL_DATA_TYPE_INT8: reinterpret_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
    case HCCL_DATA_TYPE_INT16: reinterpret_cast<int16_t*>(p)[i] = static_cast<int16_t>(v); break;
    case HCCL_DATA_TYPE_INT32: reinterpret_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
    case HCCL_DATA_TYPE_INT64: reinterpret_cast<int64_t*>(p)[i] = static_cast<int64_t>(v); break;
    case HCCL_DATA_TYPE_UINT8: reinterpret_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v); break;
    case HCCL_DATA_TYPE_UINT16: reinterpret_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(v); break;
    case HCCL_DATA_TYPE_UINT32: reinterpret_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(v); break;
    case HCCL_DATA_TYPE_UINT64: reinterpret_cast<uint64_t*>(p)[i] = static_cast<uint64_t>(v); break;
    case HCCL_DATA_TYPE_FP16: reinterpret_cast<uint16_t*>(p)[i] = FloatToHalf(static_cast<float>(v)); break;
    case HCCL_DATA_TYPE_BFP16: reinterpret_cast<uint16_t*>(p)[i] = FloatToBf16(static_cast<float>(v)); break;
    case HCCL_DATA_TYPE_FP32: reinterpret_cast<float*>(p)[i] = static_cast<float>(v); break;
    case HCCL_DATA_TYPE_FP64: reinterpret_cast<double*>(p)[i] = v; break;
    default: break;
  }
}

bool IsUnsigned(HcclDataType t) {
  return t == HCCL_DATA_TYPE_UINT8 || t == HCCL_DATA_TYPE_UINT16 || t == HCCL_DATA_TYPE_UINT32 || t == HCCL_DATA_TYPE_UINT64;
}

}  // namespace

size_t TypeSize(HcclDataType t) {
  switch (t) {
    case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: return 1;
    case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16: case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_BFP16: return 2;
    case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: case HCCL_DATA_TYPE_FP32: return 4;
    default: return 8;
  }
}

std::vector<uint8_t> RandomElements(HcclDataType t, size_t count, std::mt19937& rng, bool for_product) {
  std::vector<uint8_t> out(count * TypeSize(t));
  const int top = for_product ? 2 : 3;
  std::uniform_int_distribution<int> pick(IsUnsigned(t) ? 1 : -top, top);
  for (size_t i = 0; i < count; ++i) {
    int v = pick(rng);
    if (v == 0) v = 1;  // never zeros: a product would hide everything
    Store(t, out.data(), i, v);
  }
  return out;
}

std::vector<uint8_t> ReferenceReduce(HcclDataType t, HcclReduceOp op, const std::vector<std::vector<uint8_t>>& in) {
  const size_t count = in[0].size() / TypeSize(t);
  std::vector<uint8_t> out(in[0].size());
  for (size_t i = 0; i < count; ++i) {
    double acc = Load(t, in[0].data(), i);
    for (size_t r = 1; r < in.size(); ++r) {
      const double v = Load(t, in[r].data(), i);
      switch (op) {
        case HCCL_REDUCE_SUM: acc += v; break;
        case HCCL_REDUCE_PROD: acc *= v; break;
        case HCCL_REDUCE_MAX: acc = std::max(acc, v); break;
        default: acc = std::min(acc, v); break;
      }
    }
    Store(t, out.data(), i, acc);
  }
  return out;
}

DeviceBuffer::DeviceBuffer(size_t n, const std::vector<uint8_t>* init) : bytes(n) {
  EXPECT_EQ(aclrtMalloc(&ptr, std::max<size_t>(n, 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  if (init != nullptr && n != 0) {
    EXPECT_EQ(aclrtMemcpy(ptr, n, init->data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  } else if (n != 0) {
    EXPECT_EQ(aclrtMemset(ptr, n, 0x5a, n), ACL_SUCCESS);  // a marker, never zeros
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr != nullptr) aclrtFree(ptr);
}

std::vector<uint8_t> DeviceBuffer::Read(size_t n) const {
  n = std::min(n, bytes);
  std::vector<uint8_t> out(n);
  if (n != 0) {
    EXPECT_EQ(aclrtMemcpy(out.data(), n, ptr, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  }
  return out;
}

bool RunRanks(uint32_t n, const std::function<void(uint32_t, HcclComm, aclrtStream)>& body) {
  std::vector<int32_t> devices(n);
  for (uint32_t i = 0; i < n; ++i) {
    devices[i] = static_cast<int32_t>(i);
    EXPECT_EQ(aclrtSetDevice(devices[i]), ACL_SUCCESS);
  }
  std::vector<HcclComm> comms(n, nullptr);
  const HcclResult created = HcclCommInitAll(n, devices.data(), comms.data());
  EXPECT_EQ(created, HCCL_SUCCESS) << aclGetRecentErrMsg();
  if (created != HCCL_SUCCESS) return false;
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      EXPECT_EQ(aclrtSetDevice(devices[r]), ACL_SUCCESS);
      aclrtStream stream = nullptr;
      EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      body(r, comms[r], stream);
      (void)aclrtSynchronizeStreamWithTimeout(stream, 60000);  // fault tests leave their streams failed
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    });
  }
  for (auto& t : threads) t.join();
  for (uint32_t r = 0; r < n; ++r) EXPECT_EQ(HcclCommDestroy(comms[r]), HCCL_SUCCESS) << aclGetRecentErrMsg();
  return true;
}

}  // namespace npurt_hccl_test
