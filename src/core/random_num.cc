// aclrtRandomNumAsync: random numbers generated on the device with Philox4x32-10 (the counter-based
// generator the hardware uses: a 64-bit key from the seed and the 128-bit counter at
// randomCounterAddr, which the task advances by the blocks it consumed, so consecutive tasks continue
// the sequence and equal seed and counter reproduce it). Parameters given by address are read when
// the task executes.
#include <cmath>
#include <cstring>
#include <limits>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/builtin_tasks.h"
#include "core/memory_ops.h"
#include "core/stream.h"
#include "base/dtype.h"

namespace npurt::core {
namespace {

class Philox {
 public:
  Philox(uint64_t seed, const uint32_t counter[4])
      : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)},
        ctr_{counter[0], counter[1], counter[2], counter[3]} {}

  uint32_t Next() {
    if (used_ == 4) Refill();
    return out_[used_++];
  }
  // Uniform in [0, 1) with 24 random bits (exact in float).
  float NextUnit() { return static_cast<float>(Next() >> 8) * (1.0f / 16777216.0f); }
  uint64_t Next64() { return static_cast<uint64_t>(Next()) << 32 | Next(); }
  const uint32_t* counter() const { return ctr_; }

 private:
  void Refill() {
    uint32_t c[4] = {ctr_[0], ctr_[1], ctr_[2], ctr_[3]};
    uint32_t k[2] = {key_[0], key_[1]};
    for (int round = 0; round < 10; ++round) {
      const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c[0];
      const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c[2];
      const uint32_t n[4] = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
                             static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
      std::memcpy(c, n, sizeof c);
      k[0] += 0x9E3779B9u;
      k[1] += 0xBB67AE85u;
    }
    std::memcpy(out_, c, sizeof out_);
    used_ = 0;
    for (int i = 0; i < 4 && ++ctr_[i] == 0; ++i) {  // 128-bit increment
    }
  }

  uint32_t key_[2];
  uint32_t ctr_[4];
  uint32_t out_[4] = {};
  int used_ = 4;
};

// A parameter's bytes: the immediate value, or the memory its address names (read at execution).
uint64_t ParamBits(const aclrtRandomParaInfo& p) {
  uint64_t bits = 0;
  const size_t n = p.size < sizeof bits ? p.size : sizeof bits;
  if (p.isAddr != 0) {
    const void* addr = nullptr;
    std::memcpy(&addr, p.valueOrAddr, sizeof addr);
    std::memcpy(&bits, addr, n);
  } else {
    std::memcpy(&bits, p.valueOrAddr, n);
  }
  return bits;
}

// A float parameter stored as `dtype` (float, float16 or bf16).
float ParamFloat(const aclrtRandomParaInfo& p, int32_t dtype) {
  const uint64_t bits = ParamBits(p);
  if (dtype == ACL_FLOAT16) return npurt::HalfToFloat(static_cast<uint16_t>(bits));
  if (dtype == ACL_BF16) return npurt::Bf16ToFloat(static_cast<uint16_t>(bits));
  float f;
  const auto b32 = static_cast<uint32_t>(bits);
  std::memcpy(&f, &b32, sizeof f);
  return f;
}

void StoreFloat(void* out, size_t i, float v, int32_t dtype) {
  if (dtype == ACL_FLOAT16) {
    static_cast<uint16_t*>(out)[i] = npurt::FloatToHalf(v);
  } else if (dtype == ACL_BF16) {
    static_cast<uint16_t*>(out)[i] = npurt::FloatToBf16(v);
  } else {
    static_cast<float*>(out)[i] = v;
  }
}

float StandardNormal(Philox& g, bool truncated) {
  for (;;) {
    // Box-Muller on (0, 1]: 1 - u never takes the log of zero.
    const float u1 = 1.0f - g.NextUnit();
    const float u2 = g.NextUnit();
    const float z = std::sqrt(-2.0f * std::log(u1)) * std::cos(6.2831853f * u2);
    if (!truncated || std::fabs(z) <= 2.0f) return z;  // truncated: within two standard deviations
  }
}

template <typename T>
void UniformInts(Philox& g, void* out, uint64_t n, uint64_t min_bits, uint64_t max_bits) {
  const auto lo = static_cast<T>(min_bits);
  const auto hi = static_cast<T>(max_bits);
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t r = sizeof(T) == 8 ? g.Next64() : g.Next();
    static_cast<T*>(out)[i] = static_cast<T>(static_cast<uint64_t>(lo) + r % range);
  }
}

// Element size of a type random numbers are generated in (fp16, bf16, fp32, 32- and 64-bit integers), 0 for
// the others.
size_t ElementSize(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT16: case ACL_BF16: case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_INT64:
    case ACL_UINT64: return DTypeSize(dtype);
    default: return 0;
  }
}

bool IsFloatType(int32_t dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

// Result bytes of `n` numbers.
uint64_t ResultBytes(const aclrtRandomNumTaskInfo& t, uint64_t n) {
  if (t.randomNumFuncParaInfo.funcType == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) return (n + 7) / 8;
  return n * ElementSize(t.dataType);
}

bool UniformRangeValid(const aclrtRandomNumTaskInfo& t, uint64_t lo, uint64_t hi) {
  switch (t.dataType) {
    case ACL_INT32: return static_cast<int32_t>(hi) > static_cast<int32_t>(lo);
    case ACL_INT64: return static_cast<int64_t>(hi) > static_cast<int64_t>(lo);
    case ACL_UINT32: return static_cast<uint32_t>(hi) > static_cast<uint32_t>(lo);
    case ACL_UINT64: return hi > lo;
    default: return true;
  }
}

int32_t RunRandom(void* arg) {
  const auto& t = *static_cast<aclrtRandomNumTaskInfo*>(arg);
  const uint64_t n = ParamBits(t.randomNum);
  if (!ResolveSpan(t.randomResultAddr, ResultBytes(t, n), "randomResultAddr").ok()) return ACL_ERROR_RT_PARAM_INVALID;
  uint32_t counter[4];
  std::memcpy(counter, t.randomCounterAddr, sizeof counter);
  Philox g(ParamBits(t.randomSeed), counter);
  const auto& info = t.randomNumFuncParaInfo;
  void* out = t.randomResultAddr;
  switch (info.funcType) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: {
      const float ratio = ParamFloat(info.paramInfo.dropoutBitmaskInfo.dropoutRation, t.dataType);
      auto* bytes = static_cast<uint8_t*>(out);
      std::memset(bytes, 0, (n + 7) / 8);
      // Bit i set: element i is kept (probability 1 - ratio).
      for (uint64_t i = 0; i < n; ++i) {
        if (g.NextUnit() >= ratio) bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      }
      break;
    }
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS: {
      const auto& u = info.paramInfo.uniformDisInfo;
      if (IsFloatType(t.dataType)) {
        const float lo = ParamFloat(u.min, t.dataType);
        const float hi = ParamFloat(u.max, t.dataType);
        for (uint64_t i = 0; i < n; ++i) StoreFloat(out, i, lo + (hi - lo) * g.NextUnit(), t.dataType);
        break;
      }
      const uint64_t lo = ParamBits(u.min);
      const uint64_t hi = ParamBits(u.max);
      if (!UniformRangeValid(t, lo, hi)) return ACL_ERROR_RT_PARAM_INVALID;
      if (t.dataType == ACL_INT32) UniformInts<int32_t>(g, out, n, lo, hi);
      if (t.dataType == ACL_UINT32) UniformInts<uint32_t>(g, out, n, lo, hi);
      if (t.dataType == ACL_INT64) UniformInts<int64_t>(g, out, n, lo, hi);
      if (t.dataType == ACL_UINT64) UniformInts<uint64_t>(g, out, n, lo, hi);
      break;
    }
    default: {
      const auto& nd = info.paramInfo.normalDisInfo;
      const float mean = ParamFloat(nd.mean, t.dataType);
      const float stddev = ParamFloat(nd.stddev, t.dataType);
      const bool truncated = info.funcType == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
      for (uint64_t i = 0; i < n; ++i) StoreFloat(out, i, mean + stddev * StandardNormal(g, truncated), t.dataType);
      break;
    }
  }
  std::memcpy(t.randomCounterAddr, g.counter(), sizeof counter);
  return 0;
}

Status CheckParam(const aclrtRandomParaInfo& p, const char* what) {
  if (p.size == 0 || p.size > 8) return Err(ACL_ERROR_INVALID_PARAM, "{}.size {} is not 1..8 bytes", what, p.size);
  if (p.isAddr == 0) return Status::Ok();
  const void* addr = nullptr;
  std::memcpy(&addr, p.valueOrAddr, sizeof addr);
  return ResolveSpan(addr, p.size, what).status();
}

}  // namespace

Status SubmitRandomNum(Stream* stream, const aclrtRandomNumTaskInfo& info) {
  const int32_t type = RawEnum(info.randomNumFuncParaInfo.funcType);  // any value may come in (RawEnum)
  const int32_t dtype = info.dataType;
  if (type < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK || type > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS) {
    return Err(ACL_ERROR_INVALID_PARAM, "random function type {} is not an aclrtRandomNumFuncType", type);
  }
  const bool uniform = type == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  if (!(IsFloatType(dtype) || (uniform && ElementSize(dtype) != 0))) {
    return Err(ACL_ERROR_INVALID_PARAM, "data type {} is not supported by this random function (float, float16, bf16{})",
               dtype, uniform ? ", int32, int64, uint32, uint64" : "");
  }
  if (info.randomResultAddr == nullptr || info.randomCounterAddr == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "randomResultAddr and randomCounterAddr must not be null");
  }
  NPURT_RETURN_IF_ERROR(ResolveSpan(info.randomCounterAddr, 16, "randomCounterAddr").status());
  NPURT_RETURN_IF_ERROR(CheckParam(info.randomSeed, "randomSeed"));
  NPURT_RETURN_IF_ERROR(CheckParam(info.randomNum, "randomNum"));
  const auto& p = info.randomNumFuncParaInfo.paramInfo;
  if (type == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    NPURT_RETURN_IF_ERROR(CheckParam(p.dropoutBitmaskInfo.dropoutRation, "dropoutRation"));
  } else if (uniform) {
    NPURT_RETURN_IF_ERROR(CheckParam(p.uniformDisInfo.min, "min"));
    NPURT_RETURN_IF_ERROR(CheckParam(p.uniformDisInfo.max, "max"));
    if (p.uniformDisInfo.min.isAddr == 0 && p.uniformDisInfo.max.isAddr == 0 &&
        !UniformRangeValid(info, ParamBits(p.uniformDisInfo.min), ParamBits(p.uniformDisInfo.max))) {
      return Err(ACL_ERROR_INVALID_PARAM, "uniform range is empty: max must be greater than min");
    }
  } else {
    NPURT_RETURN_IF_ERROR(CheckParam(p.normalDisInfo.mean, "mean"));
    NPURT_RETURN_IF_ERROR(CheckParam(p.normalDisInfo.stddev, "stddev"));
  }
  if (info.randomNum.isAddr == 0) {
    const uint64_t n = ParamBits(info.randomNum);
    if (n == 0) return Err(ACL_ERROR_INVALID_PARAM, "randomNum is 0");
    NPURT_RETURN_IF_ERROR(ResolveSpan(info.randomResultAddr, ResultBytes(info, n), "randomResultAddr").status());
  }
  SubmitCompute(stream, &RunRandom, new aclrtRandomNumTaskInfo(info));
  return Status::Ok();
}

}  // namespace npurt::core
