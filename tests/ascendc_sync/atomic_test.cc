// Atomic copies to global memory: 40 blocks combine their slices into the same addresses at once
// (SetAtomicAdd/Max/Min + DataCopy / DataCopyPad). Integer and integer-valued half/bfloat16 sums are exact:
// a lost update shows. Float sums are checked against the recursive-summation error bound.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sync_kernels.h"
#include "sync_test_util.h"

namespace ascendc_sync {
namespace {

using AtomicTest = SyncTest;
constexpr uint32_t kBlocks = 40;

using AtomicLauncher = int32_t (*)(uint32_t, void*, const void*, void*, uint32_t);

uint16_t Bf16FromFloat(float f) {  // exact for the small integers used here
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}
float FloatFromBf16(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Runs `launch` with random slices from `gen` into dst = `init`; returns dst.
template <typename T, typename Gen>
std::vector<T> RunAtomic(aclrtStream stream, AtomicLauncher launch, uint32_t n, Gen&& gen, const std::vector<T>& init,
                         std::vector<T>* src_out) {
  std::vector<T> src(kBlocks * n);
  for (auto& v : src) v = gen();
  DeviceBuffer s(src.size() * sizeof(T)), d(init.size() * sizeof(T));
  s.Write(src);
  d.Write(init);
  EXPECT_EQ(launch(kBlocks, stream, s.get(), d.get(), n), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  *src_out = src;
  return d.Read<T>(init.size());
}

// dst = init (from `gen`), every block's slice (from `gen`) combined into it; checks each element against
// the fold of the values as `value` reads them (exact: integers, integer-valued halves, maxima, minima).
template <typename T, typename Gen, typename Fold, typename Value>
void ExpectCombined(aclrtStream stream, AtomicLauncher launch, uint32_t n, Gen gen, Fold fold, Value value) {
  std::vector<T> init(n);
  for (auto& v : init) v = gen();
  std::vector<T> src;
  const std::vector<T> got = RunAtomic<T>(stream, launch, n, gen, init, &src);
  for (uint32_t i = 0; i < n; ++i) {
    auto want = value(init[i]);
    for (uint32_t b = 0; b < kBlocks; ++b) want = fold(want, value(src[b * n + i]));
    ASSERT_EQ(value(got[i]), want) << "element " << i;
  }
}

auto Sum = [](auto a, auto b) { return a + b; };
auto Larger = [](auto a, auto b) { return std::max(a, b); };
auto Smaller = [](auto a, auto b) { return std::min(a, b); };
auto AsInt64 = [](auto v) { return static_cast<int64_t>(v); };
auto AsFloat = [](auto v) { return static_cast<float>(v); };

template <typename T>
void ExpectExactIntegerAdd(aclrtStream stream, std::mt19937& rng, AtomicLauncher launch, int lo, int hi, uint32_t n) {
  std::uniform_int_distribution<int> d(lo, hi);
  ExpectCombined<T>(stream, launch, n, [&] { return static_cast<T>(d(rng)); }, Sum, AsInt64);
}

TEST_F(AtomicTest, AddInt32IsExact) { ExpectExactIntegerAdd<int32_t>(stream_, rng_, &AtomicAddS32, -100000, 100000, 1000); }
TEST_F(AtomicTest, AddInt16IsExact) { ExpectExactIntegerAdd<int16_t>(stream_, rng_, &AtomicAddS16, -300, 300, 777); }
TEST_F(AtomicTest, AddInt8IsExact) { ExpectExactIntegerAdd<int8_t>(stream_, rng_, &AtomicAddS8, -3, 3, 515); }

TEST_F(AtomicTest, AddFloatWithinTheSummationBound) {
  const uint32_t n = 1029;
  std::uniform_real_distribution<float> d(-10.0f, 10.0f);
  std::vector<float> init(n);
  for (auto& v : init) v = d(rng_);
  std::vector<float> src;
  const std::vector<float> got = RunAtomic<float>(stream_, &AtomicAddF32, n, [&] { return d(rng_); }, init, &src);
  for (uint32_t i = 0; i < n; ++i) {
    double want = init[i], abs_sum = std::fabs(init[i]);
    for (uint32_t b = 0; b < kBlocks; ++b) {
      want += src[b * n + i];
      abs_sum += std::fabs(src[b * n + i]);
    }
    ASSERT_NEAR(got[i], want, kBlocks * std::ldexp(abs_sum, -24)) << "element " << i;
  }
}

// Integer-valued halves and bfloat16s add exactly in any order: a lost update shows.
TEST_F(AtomicTest, AddHalfIsExactOnSmallIntegers) {
  std::uniform_int_distribution<int> d(-8, 8);
  ExpectCombined<_Float16>(stream_, &AtomicAddF16, 300, [&] { return static_cast<_Float16>(d(rng_)); }, Sum, AsFloat);
}

TEST_F(AtomicTest, AddBfloat16IsExactOnSmallIntegers) {
  std::uniform_int_distribution<int> d(-3, 3);
  ExpectCombined<uint16_t>(stream_, &AtomicAddBf16, 260, [&] { return Bf16FromFloat(static_cast<float>(d(rng_))); },
                           Sum, &FloatFromBf16);
}

TEST_F(AtomicTest, MaxFloatMinInt32MaxHalf) {
  std::uniform_real_distribution<float> f(-1e3f, 1e3f);
  ExpectCombined<float>(stream_, &AtomicMaxF32, 411, [&] { return f(rng_); }, Larger, AsFloat);
  std::uniform_int_distribution<int32_t> i(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  ExpectCombined<int32_t>(stream_, &AtomicMinS32, 411, [&] { return i(rng_); }, Smaller, AsInt64);
  std::uniform_real_distribution<float> h(-60000.0f, 60000.0f);
  ExpectCombined<_Float16>(stream_, &AtomicMaxF16, 411, [&] { return static_cast<_Float16>(h(rng_)); }, Larger,
                           AsFloat);
}

// DataCopyPad: a 13-float row (not whole 32-byte blocks); the floats after it stay as they were.
TEST_F(AtomicTest, PaddedCopyAddsExactlyTheRow) {
  const uint32_t n = 13;
  std::uniform_int_distribution<int> d(-50, 50);
  std::vector<float> init(n + 3);
  for (auto& v : init) v = static_cast<float>(d(rng_));
  std::vector<float> src(kBlocks * n);
  for (auto& v : src) v = static_cast<float>(d(rng_));
  DeviceBuffer s(src.size() * 4), dst(init.size() * 4);
  s.Write(src);
  dst.Write(init);
  ASSERT_EQ(AtomicAddPadF32(kBlocks, stream_, s.get(), dst.get(), n), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<float> got = dst.Read<float>(init.size());
  for (uint32_t i = 0; i < init.size(); ++i) {
    float want = init[i];
    if (i < n) {
      for (uint32_t b = 0; b < kBlocks; ++b) want += src[b * n + i];
    }
    ASSERT_EQ(got[i], want) << "element " << i;
  }
}

// Strided DataCopy (rows of one 32-byte block, a one-block gap): the gaps stay; after DisableDmaAtomic a
// copy overwrites again.
TEST_F(AtomicTest, StridedCopyAddsTheRowsAndAtomicsTurnOff) {
  const uint32_t rows = 5;
  std::uniform_int_distribution<int> d(-50, 50);
  std::vector<float> init(rows * 16), init2(8);
  for (auto& v : init) v = static_cast<float>(d(rng_));
  for (auto& v : init2) v = static_cast<float>(d(rng_));
  std::vector<float> src(kBlocks * rows * 8);
  for (auto& v : src) v = static_cast<float>(d(rng_));
  DeviceBuffer s(src.size() * 4), dst(init.size() * 4), dst2(32);
  s.Write(src);
  dst.Write(init);
  dst2.Write(init2);
  ASSERT_EQ(AtomicAddStridedF32(kBlocks, stream_, s.get(), dst.get(), rows, dst2.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << ErrorMessage();
  const std::vector<float> got = dst.Read<float>(init.size());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < 16; ++c) {
      float want = init[r * 16 + c];
      if (c < 8) {
        for (uint32_t b = 0; b < kBlocks; ++b) want += src[(b * rows + r) * 8 + c];
      }
      ASSERT_EQ(got[r * 16 + c], want) << "row " << r << " column " << c;
    }
  }
  const std::vector<float> got2 = dst2.Read<float>(8);
  for (uint32_t c = 0; c < 8; ++c) EXPECT_EQ(got2[c], src[c]) << "plain copy " << c;
}

}  // namespace
}  // namespace ascendc_sync
