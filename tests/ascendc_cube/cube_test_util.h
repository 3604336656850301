// Helpers of the cube tests: a device set up per test, device buffers, random data and the host reference
// GEMM (double accumulation) the kernels' results are checked against.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"

namespace cube_test {

class CubeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  static void TearDownTestSuite() { aclFinalize(); }
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : buffers_) aclrtFree(p);
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
  }
  // A device copy of `host` with `extra` bytes of zeros after it.
  template <typename T>
  void* Upload(const std::vector<T>& host, size_t extra = 64) {
    const size_t bytes = host.size() * sizeof(T);
    void* d = Alloc(bytes + extra);
    if (bytes != 0) {
      EXPECT_EQ(aclrtMemcpy(d, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    return d;
  }
  void* Alloc(size_t bytes) {
    void* d = nullptr;
    EXPECT_EQ(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(d, bytes, 0, bytes), ACL_SUCCESS);
    buffers_.push_back(d);
    return d;
  }
  template <typename T>
  std::vector<T> Download(const void* d, size_t n) {
    std::vector<T> out(n);
    EXPECT_EQ(aclrtMemcpy(out.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return out;
  }
  aclError Sync() { return aclrtSynchronizeStream(stream_); }

  aclrtStream stream_ = nullptr;
  std::vector<void*> buffers_;
};

// Host scalar types with the kernels' bit layouts.
inline uint16_t ToHalfBits(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline float FromHalfBits(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
inline uint16_t ToBf16Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
inline float FromBf16Bits(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Random values in [-1, 1) rounded to what the type holds (so the reference sees the kernel's inputs).
inline std::vector<float> RandomValues(size_t n, uint32_t seed, float (*round)(float)) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = round(dist(rng));
  return v;
}
inline float RoundHalf(float f) { return FromHalfBits(ToHalfBits(f)); }
inline float RoundBf16(float f) { return FromBf16Bits(ToBf16Bits(f)); }
inline float RoundNone(float f) { return f; }

inline std::vector<uint16_t> HalfBits(const std::vector<float>& v) {
  std::vector<uint16_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = ToHalfBits(v[i]);
  return out;
}
inline std::vector<uint16_t> Bf16Bits(const std::vector<float>& v) {
  std::vector<uint16_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = ToBf16Bits(v[i]);
  return out;
}

// n random values in [lo, hi] (int4 data: [-8, 7]).
inline std::vector<int8_t> RandomInt8(size_t n, uint32_t seed, int lo = -128, int hi = 127) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(dist(rng));
  return v;
}

// int4 values (-8..7) packed two a byte, the even-indexed one in the low nibble (AscendC::int4b_t's layout).
inline std::vector<uint8_t> PackInt4(const std::vector<int8_t>& v) {
  std::vector<uint8_t> out((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i) out[i / 2] |= static_cast<uint8_t>((v[i] & 0xF) << (i % 2 == 0 ? 0 : 4));
  return out;
}

// C[m][n] = sum_k A(i, k) B(k, j) (+ bias[j]); A is m x k (or k x m when transA), B k x n (or n x k when transB).
template <typename T>
std::vector<double> RefGemm(const std::vector<T>& a, const std::vector<T>& b, const std::vector<double>* bias, int m,
                            int n, int k, bool transA, bool transB) {
  std::vector<double> c(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double s = bias != nullptr ? (*bias)[j] : 0.0;
      for (int q = 0; q < k; ++q) {
        const double av =
            static_cast<double>(transA ? a[static_cast<size_t>(q) * m + i] : a[static_cast<size_t>(i) * k + q]);
        const double bv =
            static_cast<double>(transB ? b[static_cast<size_t>(j) * k + q] : b[static_cast<size_t>(q) * n + j]);
        s += av * bv;
      }
      c[static_cast<size_t>(i) * n + j] = s;
    }
  }
  return c;
}

// Relative error of `got` against `want` in the max norm (|got - want|_max / max(|want|_max, 1e-6)).
template <typename T>
double MaxRelError(const std::vector<T>& got, const std::vector<double>& want) {
  double err = 0, mag = 1e-6;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::fabs(static_cast<double>(got[i]) - want[i]));
    mag = std::max(mag, std::fabs(want[i]));
  }
  return err / mag;
}

}  // namespace cube_test
