// Helpers of the Ascend C vector tests: ACL set up once per program, a device and stream per test,
// device buffers, random inputs and bit-level comparisons of half / float / integer results.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"

namespace vectest {

using half = _Float16;

// Device 0 and a stream per test.
class VecTest : public testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  aclrtStream stream_ = nullptr;
};

// A device allocation freed at scope exit.
class DevMem {
 public:
  explicit DevMem(size_t bytes);
  ~DevMem();
  DevMem(const DevMem&) = delete;
  DevMem& operator=(const DevMem&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
};

void CopyIn(const DevMem& dst, const void* src, size_t bytes);
void CopyOut(void* dst, const DevMem& src, size_t bytes);

// Uniform values in [lo, hi) of T (integers: whole numbers in the range).
template <typename T>
std::vector<T> RandomValues(size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) {
    const double d = u(rng);
    if constexpr (std::is_integral<T>::value) {
      x = static_cast<T>(static_cast<int64_t>(d));
    } else {
      x = static_cast<T>(d);
    }
  }
  return v;
}

// The bits of a value (for exact comparisons and ulp distances).
template <typename T>
uint64_t Bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// Distance in units in the last place between two finite floats of the same sign region (bit patterns
// compared as sign-magnitude integers).
template <typename T>
uint64_t UlpDistance(T a, T b) {
  auto key = [](T v) -> int64_t {
    const uint64_t bits = Bits(v);
    const uint64_t sign = 1ull << (8 * sizeof(T) - 1);
    return (bits & sign) ? -static_cast<int64_t>(bits & ~sign) : static_cast<int64_t>(bits);
  };
  const int64_t d = key(a) - key(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

// "index: got X want Y" for the first `limit` mismatches of two vectors (bit-exact or within `ulps`).
template <typename T>
std::string Mismatches(const std::vector<T>& got, const std::vector<T>& want, uint64_t ulps = 0, int limit = 8) {
  std::string out;
  int shown = 0;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const bool same = Bits(got[i]) == Bits(want[i]);
    if (same) continue;
    if constexpr (!std::is_integral<T>::value) {
      if (ulps != 0 && UlpDistance(got[i], want[i]) <= ulps) continue;
    }
    if (shown++ < limit) {
      out += std::to_string(i) + ": got " + std::to_string(static_cast<double>(got[i])) + " want " +
             std::to_string(static_cast<double>(want[i])) + "\n";
    }
  }
  if (shown > limit) out += "... " + std::to_string(shown) + " mismatches\n";
  return out;
}

// The recent ACL error message ("" if none).
std::string RecentError();

}  // namespace vectest
