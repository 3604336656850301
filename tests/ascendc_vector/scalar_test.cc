// The scalar-unit API (npurt_kernel/scalar.h) against host models on random words and floats, with the edge
// cases the documentation names (0 and -1 for the sign-bit run, words without a 0 or a 1 bit, ties for the
// rounding modes, float values between two halves for round-to-odd).
#include <cmath>
#include <limits>

#include "aclrtlaunch_vec_scalar_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

constexpr int kRow = 13;

uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
float BitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

int64_t RefSignRun(int64_t v) {
  if (v == 0 || v == -1) return -1;
  const uint64_t u = static_cast<uint64_t>(v);
  const uint64_t sign = u >> 63;
  int64_t n = 0;
  for (int bit = 62; bit >= 0 && ((u >> bit) & 1u) == sign; --bit) ++n;
  return n;
}
int64_t RefFirst(uint64_t v, unsigned want) {
  for (int bit = 0; bit < 64; ++bit) {
    if (((v >> bit) & 1u) == want) return bit;
  }
  return -1;
}
int64_t RefLeadingZeros(uint64_t v) {
  int64_t n = 0;
  for (int bit = 63; bit >= 0 && ((v >> bit) & 1u) == 0; --bit) ++n;
  return n;
}
int64_t Saturate(double r) {
  if (r <= static_cast<double>(std::numeric_limits<int32_t>::min())) return std::numeric_limits<int32_t>::min();
  if (r >= static_cast<double>(std::numeric_limits<int32_t>::max())) return std::numeric_limits<int32_t>::max();
  return static_cast<int64_t>(r);
}
// Round to odd by search: the finite halves just below and above f; f itself when exact, else the one
// whose last mantissa bit is 1.
uint16_t RefHalfOdd(float f) {
  if (f == 0.0f) return std::signbit(f) ? 0x8000 : 0;  // zeros keep their sign
  int lo = -1, hi = -1;
  double lo_v = -INFINITY, hi_v = INFINITY;
  for (int b = 0; b < 0x10000; ++b) {
    if ((b & 0x7c00) == 0x7c00) continue;  // inf / nan
    uint16_t bits = static_cast<uint16_t>(b);
    half h;
    std::memcpy(&h, &bits, sizeof h);
    const double v = static_cast<double>(h);
    if (v <= f && v > lo_v) lo_v = v, lo = b;
    if (v >= f && v < hi_v) hi_v = v, hi = b;
  }
  if (lo_v == static_cast<double>(f)) return static_cast<uint16_t>(lo);
  return static_cast<uint16_t>((lo & 1) != 0 ? lo : hi);
}
uint32_t RefBf16RoundTrip(float f) {
  const uint32_t b = FloatBits(f);
  return ((b + 0x7fffu + ((b >> 16) & 1u)) >> 16) << 16;
}

class ScalarApiTest : public VecTest {};

TEST_F(ScalarApiTest, BitCountsLeadingZerosSignRunsFirstBitsCastsAndBfloat16MatchTheHostModels) {
  std::mt19937_64 rng(20261205);
  std::vector<uint64_t> words = {0, ~uint64_t{0}, 0x0f00000000000000ull, uint64_t{1} << 63, 1, 0x8000000000000001ull};
  // Floats in the low word: ties, values between two halves, beyond int32's range, negative zero.
  const float specials[] = {2.5f, -2.5f, 0.5f, -0.5f, 3.5f, 1.0f / 3.0f, 1000.1f, -1000.1f, 3e9f, -3e9f, -0.0f};
  for (float f : specials) words.push_back((rng() & 0xffffffff00000000ull) | FloatBits(f));
  std::uniform_real_distribution<float> value(-60000.0f, 60000.0f);
  while (words.size() < 96) words.push_back((rng() & 0xffffffff00000000ull) | FloatBits(value(rng)));
  while (words.size() < 128) words.push_back(rng() >> (rng() % 64));  // every leading-zero count region
  const uint32_t n = static_cast<uint32_t>(words.size());

  DevMem in(n * sizeof(uint64_t)), out(n * kRow * sizeof(int64_t));
  CopyIn(in, words.data(), n * sizeof(uint64_t));
  ASSERT_EQ(aclrtlaunch_vec_scalar_api(1, stream_, in.get(), out.get(), n), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<int64_t> got(n * kRow);
  CopyOut(got.data(), out, got.size() * sizeof(int64_t));

  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t v = words[i];
    const float f = BitsFloat(static_cast<uint32_t>(v));
    const int64_t* r = &got[i * kRow];
    SCOPED_TRACE(testing::Message() << "word " << i << " = 0x" << std::hex << v << std::dec << ", float " << f);
    int64_t ones = 0;
    for (int bit = 0; bit < 64; ++bit) ones += (v >> bit) & 1u;
    EXPECT_EQ(r[0], ones);
    EXPECT_EQ(r[1], 64 - ones);
    EXPECT_EQ(r[2], RefLeadingZeros(v));
    EXPECT_EQ(r[3], RefSignRun(static_cast<int64_t>(v)));
    EXPECT_EQ(r[4], RefFirst(v, 1));
    EXPECT_EQ(r[5], RefFirst(v, 0));
    if (std::isnan(f)) continue;
    const double d = f;
    EXPECT_EQ(r[6], Saturate(std::round(d)));
    EXPECT_EQ(r[7], Saturate(std::floor(d)));
    EXPECT_EQ(r[8], Saturate(std::ceil(d)));
    EXPECT_EQ(r[9], Saturate(std::trunc(d)));
    EXPECT_EQ(r[10], Saturate(std::nearbyint(d)));
    if (std::fabs(f) < 65504.0f) EXPECT_EQ(r[11], RefHalfOdd(f));
    EXPECT_EQ(static_cast<uint32_t>(r[12]), RefBf16RoundTrip(f));
  }
  // The documented examples.
  EXPECT_EQ(got[2 * kRow + 3], 3);  // CountBitsCntSameAsSignBit(0x0f00000000000000)
  EXPECT_EQ(got[0 * kRow + 3], -1);
  EXPECT_EQ(got[1 * kRow + 3], -1);
  EXPECT_EQ(got[0 * kRow + 4], -1);  // no 1 bit in 0
  EXPECT_EQ(got[1 * kRow + 5], -1);  // no 0 bit in ~0
}

}  // namespace
}  // namespace vectest
