// Test helpers for operators: host tensors of any supported dtype filled with seeded random data,
// conversions to double, and comparisons with per-dtype tolerances.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl_base_rt.h"

namespace npurt_test {

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  int32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ff;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return man ? NAN : (sign ? -INFINITY : INFINITY);
  const float v = std::ldexp(static_cast<float>(man | 0x400), exp - 25);
  return sign ? -v : v;
}

// Reference rounding: nearest even via the same bit trick used by hardware converters.
inline uint16_t FloatToHalf(float f) {
  if (std::isnan(f)) return 0x7e00;
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  float a = std::fabs(f);
  if (a >= 65520.0f) return sign | 0x7c00;
  if (a < std::ldexp(1.0f, -24) * 0.5f) return sign;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = std::max(e - 1, -14);
  const float q = std::nearbyint(std::ldexp(a, 10 - exp));  // mantissa with implicit bit, round-half-even
  float r = std::ldexp(q, exp - 10);
  // Re-encode r exactly.
  if (r >= 65520.0f) return sign | 0x7c00;
  int e2;
  std::frexp(r, &e2);
  int ex = e2 - 1;
  if (ex < -14) return sign | static_cast<uint16_t>(std::ldexp(r, 24));
  const uint16_t man = static_cast<uint16_t>(std::ldexp(r, 10 - ex)) & 0x3ff;
  return sign | static_cast<uint16_t>((ex + 15) << 10) | man;
}

inline float Bf16ToFloat(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

inline size_t Size(aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT: case ACL_INT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: return 2;
    case ACL_INT64: case ACL_DOUBLE: return 8;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    default: return 0;
  }
}

inline double Get(const void* p, aclDataType dt, size_t i) {
  switch (dt) {
    case ACL_FLOAT: return static_cast<const float*>(p)[i];
    case ACL_FLOAT16: return HalfToFloat(static_cast<const uint16_t*>(p)[i]);
    case ACL_BF16: return Bf16ToFloat(static_cast<const uint16_t*>(p)[i]);
    case ACL_INT32: return static_cast<const int32_t*>(p)[i];
    case ACL_INT64: return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case ACL_INT8: return static_cast<const int8_t*>(p)[i];
    case ACL_UINT8: return static_cast<const uint8_t*>(p)[i];
    case ACL_DOUBLE: return static_cast<const double*>(p)[i];
    default: return 0;
  }
}

inline void Put(void* p, aclDataType dt, size_t i, double v) {
  switch (dt) {
    case ACL_FLOAT: static_cast<float*>(p)[i] = static_cast<float>(v); break;
    case ACL_FLOAT16: static_cast<uint16_t*>(p)[i] = FloatToHalf(static_cast<float>(v)); break;
    case ACL_BF16: static_cast<uint16_t*>(p)[i] = FloatToBf16(static_cast<float>(v)); break;
    case ACL_INT32: static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
    case ACL_INT64: static_cast<int64_t*>(p)[i] = static_cast<int64_t>(v); break;
    case ACL_INT8: static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
    case ACL_UINT8: static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v); break;
    case ACL_DOUBLE: static_cast<double*>(p)[i] = v; break;
    default: break;
  }
}

struct HostTensor {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;

  HostTensor() = default;
  // At least one element of the widest type: GCC's -O3 -Wstringop-overflow cannot see that Put writes
  // no wider than `dt` and would reject a one-element 4-byte tensor.
  HostTensor(aclDataType dt, std::vector<int64_t> d) : dtype(dt), dims(std::move(d)) {
    bytes.resize(std::max<size_t>(sizeof(double), numel() * Size(dt)));
  }
  size_t numel() const {
    size_t n = 1;
    for (int64_t x : dims) n *= static_cast<size_t>(x);
    return n;
  }
  size_t nbytes() const { return numel() * Size(dtype); }
  double at(size_t i) const { return Get(bytes.data(), dtype, i); }
  void set(size_t i, double v) { Put(bytes.data(), dtype, i, v); }
  std::vector<double> values() const {
    std::vector<double> v(numel());
    for (size_t i = 0; i < v.size(); ++i) v[i] = at(i);
    return v;
  }
};

// Uniform random values in [lo, hi] (integers for integer types), bounded away from 0 when `nonzero`.
inline HostTensor Random(aclDataType dt, std::vector<int64_t> dims, std::mt19937& rng, double lo = -2.0,
                         double hi = 2.0, bool nonzero = false) {
  HostTensor t(dt, std::move(dims));
  std::uniform_real_distribution<double> u(lo, hi);
  const bool integer = dt == ACL_INT32 || dt == ACL_INT64 || dt == ACL_INT8 || dt == ACL_UINT8;
  for (size_t i = 0; i < t.numel(); ++i) {
    double v = u(rng);
    if (integer) v = std::round(v * (dt == ACL_INT8 || dt == ACL_UINT8 ? 1 : 10));
    if (nonzero && std::fabs(v) < (integer ? 1 : 0.25)) v = v < 0 ? -(integer ? 1 : 0.5) : (integer ? 1 : 0.5);
    t.set(i, v);
  }
  return t;
}

struct Tolerance {
  double rtol, atol;
};

inline Tolerance TolFor(aclDataType dt, double scale = 1.0) {
  switch (dt) {
    case ACL_FLOAT: return {1e-5 * scale, 1e-5 * scale};
    case ACL_FLOAT16: return {2e-3 * scale, 2e-3 * scale};
    case ACL_BF16: return {1.6e-2 * scale, 1.6e-2 * scale};
    default: return {0, 0};
  }
}

// Expects |got - want| <= atol + rtol * |want| element-wise (NaN must match NaN).
inline void ExpectClose(const HostTensor& got, const std::vector<double>& want, Tolerance tol, const std::string& what) {
  ASSERT_EQ(got.numel(), want.size()) << what;
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = got.at(i), w = want[i];
    if (std::isnan(w) && std::isnan(g)) continue;
    if (std::isinf(w) && g == w) continue;
    if (!(std::fabs(g - w) <= tol.atol + tol.rtol * std::fabs(w))) {
      if (++bad <= 5) ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << w;
    }
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << want.size() << " elements out of tolerance";
}

}  // namespace npurt_test
