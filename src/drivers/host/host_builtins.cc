// The host-CPU built-ins (hal/builtins.h): element-wise reduce, Philox random numbers and the two copies
// whose operands are read from device memory when the task runs.
#include "drivers/host/host_builtins.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "base/dtype.h"

namespace npurt::drivers::host {
namespace {

// The parameter block of `d`, if it has the size of P.
template <typename P>
const P* Params(const hal::Dispatch& d, std::string* message) {
  if (d.params == nullptr || d.params_size != sizeof(P)) {
    *message = "built-in dispatched without its parameter block";
    return nullptr;
  }
  return static_cast<const P*>(d.params);
}

// --- reduce ----------------------------------------------------------------------------------------

// One element: integers saturate in saturation mode and wrap otherwise. Returns true if it overflowed.
template <typename T>
bool CombineInt(T* d, T s, hal::ReduceOp op, bool saturate) {
  switch (op) {
    case hal::ReduceOp::kSum: {
      T r;
      const bool over = __builtin_add_overflow(*d, s, &r);
      if (over && saturate) r = (s > 0) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
      *d = r;
      return over;
    }
    case hal::ReduceOp::kMax: *d = *d > s ? *d : s; return false;
    case hal::ReduceOp::kMin: *d = *d < s ? *d : s; return false;
    case hal::ReduceOp::kEqual: *d = *d == s ? 1 : 0; return false;
  }
  return false;
}

float CombineFloat(float d, float s, hal::ReduceOp op) {
  switch (op) {
    case hal::ReduceOp::kSum: return d + s;
    case hal::ReduceOp::kMax: return std::fmax(d, s);
    case hal::ReduceOp::kMin: return std::fmin(d, s);
    case hal::ReduceOp::kEqual: return d == s ? 1.0f : 0.0f;
  }
  return d;
}

struct ReduceRun {
  void* dst;
  const void* src;
  uint64_t count;
  hal::ReduceOp op;
  bool saturate;
};

template <typename T>
bool ReduceInts(const ReduceRun& a) {
  auto* d = static_cast<T*>(a.dst);
  const auto* s = static_cast<const T*>(a.src);
  bool over = false;
  for (uint64_t i = 0; i < a.count; ++i) over |= CombineInt<T>(&d[i], s[i], a.op, a.saturate);
  return over;
}

// Floats of storage type T (float, or a 16-bit encoding) computed in float and stored back: finite operands
// whose result lies beyond the type's range overflowed (to Inf, or clamped when saturating).
template <typename T, typename ToFloat, typename FromFloat>
bool ReduceFloats(const ReduceRun& a, float max_finite, ToFloat to_float, FromFloat from_float) {
  auto* d = static_cast<T*>(a.dst);
  const auto* s = static_cast<const T*>(a.src);
  bool over = false;
  for (uint64_t i = 0; i < a.count; ++i) {
    const float x = to_float(d[i]);
    const float y = to_float(s[i]);
    float r = CombineFloat(x, y, a.op);
    if (std::isfinite(x) && std::isfinite(y) && !(std::fabs(r) <= max_finite)) {
      over = true;
      if (a.saturate && !std::isnan(r)) r = std::copysign(max_finite, r);
    }
    d[i] = from_float(r);
  }
  return over;
}

class Reduce final : public hal::Executable {
 public:
  int32_t Run(hal::Dispatch& d, std::string* message) const override {
    const auto* p = Params<hal::ReduceParams>(d, message);
    if (p == nullptr || d.num_inputs != 1 || d.num_outputs != 1) {
      if (message->empty()) *message = "reduce takes one input and one output";
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    const ReduceRun a{d.outputs[0], d.inputs[0], p->count, p->op, d.saturate};
    bool over = false;
    switch (p->dtype) {
      case ACL_INT8: over = ReduceInts<int8_t>(a); break;
      case ACL_INT16: over = ReduceInts<int16_t>(a); break;
      case ACL_INT32: over = ReduceInts<int32_t>(a); break;
      case ACL_INT64: over = ReduceInts<int64_t>(a); break;
      case ACL_UINT8: over = ReduceInts<uint8_t>(a); break;
      case ACL_UINT16: over = ReduceInts<uint16_t>(a); break;
      case ACL_UINT32: over = ReduceInts<uint32_t>(a); break;
      case ACL_UINT64: over = ReduceInts<uint64_t>(a); break;
      case ACL_FLOAT:
        over = ReduceFloats<float>(a, std::numeric_limits<float>::max(), [](float v) { return v; },
                                   [](float v) { return v; });
        break;
      case ACL_FLOAT16: over = ReduceFloats<uint16_t>(a, 65504.0f, HalfToFloat, FloatToHalf); break;
      case ACL_BF16: over = ReduceFloats<uint16_t>(a, Bf16ToFloat(0x7f7f), Bf16ToFloat, FloatToBf16); break;
      default:
        *message = "reduce of data type " + std::to_string(p->dtype) + " is not supported";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (over && d.check_overflow) d.overflowed = 1;
    return 0;
  }
};

// --- random numbers --------------------------------------------------------------------------------

// Philox4x32-10, the counter-based generator the hardware uses: a 64-bit key from the seed and the
// 128-bit counter, which the task advances by the blocks it consumed, so consecutive tasks continue the
// sequence and equal seed and counter reproduce it.
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

bool IsFloatType(int32_t dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

// A float parameter stored as `dtype` (float, float16 or bf16).
float ParamFloat(const hal::RandomParam& p, int32_t dtype) {
  const uint64_t bits = hal::RandomParamBits(p);
  if (dtype == ACL_FLOAT16) return HalfToFloat(static_cast<uint16_t>(bits));
  if (dtype == ACL_BF16) return Bf16ToFloat(static_cast<uint16_t>(bits));
  float f;
  const auto b32 = static_cast<uint32_t>(bits);
  std::memcpy(&f, &b32, sizeof f);
  return f;
}

void StoreFloat(void* out, uint64_t i, float v, int32_t dtype) {
  if (dtype == ACL_FLOAT16) {
    static_cast<uint16_t*>(out)[i] = FloatToHalf(v);
  } else if (dtype == ACL_BF16) {
    static_cast<uint16_t*>(out)[i] = FloatToBf16(v);
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

class Random final : public hal::Executable {
 public:
  int32_t Run(hal::Dispatch& d, std::string* message) const override {
    const auto* p = Params<hal::RandomParams>(d, message);
    if (p == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    const hal::RandomParams& t = *p;
    const uint64_t n = hal::RandomParamBits(t.count);
    if (d.check_memory != nullptr) {
      std::string why = d.check_memory(t.result, hal::RandomResultBytes(t.function, t.dtype, n));
      if (!why.empty()) {
        *message = "random numbers: the result does not fit its memory: " + why;
        return ACL_ERROR_RT_PARAM_INVALID;
      }
    }
    uint32_t counter[4];
    std::memcpy(counter, t.counter, sizeof counter);
    Philox g(hal::RandomParamBits(t.seed), counter);
    void* out = t.result;
    switch (t.function) {
      case hal::RandomFunction::kDropoutBitmask: {
        const float ratio = ParamFloat(t.a, t.dtype);
        auto* bytes = static_cast<uint8_t*>(out);
        std::memset(bytes, 0, (n + 7) / 8);
        // Bit i set: element i is kept (probability 1 - ratio).
        for (uint64_t i = 0; i < n; ++i) {
          if (g.NextUnit() >= ratio) bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
        }
        break;
      }
      case hal::RandomFunction::kUniform: {
        if (IsFloatType(t.dtype)) {
          const float lo = ParamFloat(t.a, t.dtype);
          const float hi = ParamFloat(t.b, t.dtype);
          for (uint64_t i = 0; i < n; ++i) StoreFloat(out, i, lo + (hi - lo) * g.NextUnit(), t.dtype);
          break;
        }
        const uint64_t lo = hal::RandomParamBits(t.a);
        const uint64_t hi = hal::RandomParamBits(t.b);
        if (!hal::RandomUniformRangeValid(t.dtype, lo, hi)) {
          *message = "random numbers: the uniform range read from device memory is empty (max <= min)";
          return ACL_ERROR_RT_PARAM_INVALID;
        }
        if (t.dtype == ACL_INT32) UniformInts<int32_t>(g, out, n, lo, hi);
        if (t.dtype == ACL_UINT32) UniformInts<uint32_t>(g, out, n, lo, hi);
        if (t.dtype == ACL_INT64) UniformInts<int64_t>(g, out, n, lo, hi);
        if (t.dtype == ACL_UINT64) UniformInts<uint64_t>(g, out, n, lo, hi);
        break;
      }
      case hal::RandomFunction::kNormal:
      case hal::RandomFunction::kTruncatedNormal: {
        const float mean = ParamFloat(t.a, t.dtype);
        const float stddev = ParamFloat(t.b, t.dtype);
        const bool truncated = t.function == hal::RandomFunction::kTruncatedNormal;
        for (uint64_t i = 0; i < n; ++i) StoreFloat(out, i, mean + stddev * StandardNormal(g, truncated), t.dtype);
        break;
      }
    }
    std::memcpy(t.counter, g.counter(), sizeof counter);
    return 0;
  }
};

// --- copies with operands in device memory ---------------------------------------------------------

// "" if the range is device memory inside one allocation (or nobody asked to check), else why not.
std::string CheckRange(const hal::Dispatch& d, const void* p, uint64_t size) {
  if (p == nullptr) return "a null address";
  return d.check_memory != nullptr ? d.check_memory(p, size) : std::string();
}

class DescriptorCopy final : public hal::Executable {
 public:
  int32_t Run(hal::Dispatch& d, std::string* message) const override {
    if (d.num_inputs != 1 || d.inputs[0] == nullptr) {
      *message = "descriptor copy dispatched without its descriptor";
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    hal::CopyDescriptor c;
    std::memcpy(&c, d.inputs[0], sizeof c);
    if (c.magic != hal::kCopyDescriptorMagic) {
      *message = "the copy descriptor was overwritten before the copy ran (no aclrtSetMemcpyDesc magic)";
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    std::memmove(c.dst, c.src, c.count);
    return 0;
  }
};

class IndirectCopy final : public hal::Executable {
 public:
  int32_t Run(hal::Dispatch& d, std::string* message) const override {
    const auto* p = Params<hal::IndirectCopyParams>(d, message);
    if (p == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
    auto* dst = static_cast<uint8_t*>(__atomic_load_n(p->dst_slot, __ATOMIC_ACQUIRE));
    const auto* src = static_cast<const uint8_t*>(__atomic_load_n(p->src_slot, __ATOMIC_ACQUIRE));
    // The pointers are data of the stream: check them now, as a DMA engine would fault.
    const std::string bad_dst = dst == nullptr ? "a null address" : CheckRange(d, dst + p->dst_offset, p->count);
    const std::string bad_src = src == nullptr ? "a null address" : CheckRange(d, src + p->src_offset, p->count);
    if (!bad_dst.empty() || !bad_src.empty()) {
      *message = "copy with offsets: " + (bad_dst.empty() ? "the source is " + bad_src : "the destination is " + bad_dst);
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    std::memmove(dst + p->dst_offset, src + p->src_offset, p->count);
    return 0;
  }
};

}  // namespace

const hal::Executable* Builtin(hal::Builtin which) {
  static const Reduce reduce;
  static const Random random;
  static const DescriptorCopy descriptor_copy;
  static const IndirectCopy indirect_copy;
  switch (which) {
    case hal::Builtin::kReduce: return &reduce;
    case hal::Builtin::kRandom: return &random;
    case hal::Builtin::kDescriptorCopy: return &descriptor_copy;
    case hal::Builtin::kIndirectCopy: return &indirect_copy;
    case hal::Builtin::kCount: break;
  }
  return nullptr;
}

}  // namespace npurt::drivers::host
