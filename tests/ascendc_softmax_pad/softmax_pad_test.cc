// SoftMax, Pad and UnPad (kernel_operator.h, npurt_kernel/softmax_pad.h) on random data, with the tilings of
// the host tiling functions: every output element against the host's own computation (the same float
// operations), tails of the rows' 32-byte blocks, in-place use, half and float, and the mixed half/float
// SoftMax.
#include <acl/acl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "softmax_pad_kernels.h"
#include "tiling/tiling_api.h"

namespace {

class SoftmaxPadTest : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void SetUp() override { ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS); }
  // Device copies of host vectors (at least min_elems elements), freed after the test.
  void TearDown() override {
    for (void* p : buffers_) aclrtFree(p);
    aclrtDestroyStream(stream_);
  }
  template <typename T>
  void* Upload(const std::vector<T>& host, size_t min_elems = 0) {
    void* d = nullptr;
    const size_t bytes = std::max(host.size(), min_elems) * sizeof(T);
    EXPECT_EQ(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    buffers_.push_back(d);
    if (!host.empty()) {
      EXPECT_EQ(aclrtMemcpy(d, bytes, host.data(), host.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    return d;
  }
  template <typename T>
  std::vector<T> Download(void* d, size_t n) {
    std::vector<T> host(n);
    EXPECT_EQ(aclrtMemcpy(host.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return host;
  }
  aclrtStream stream_ = nullptr;
  std::vector<void*> buffers_;
  std::mt19937 rng_{20261205};
};

// One softmax case: T data, R max/sum, kind as SpSoftMax's.
template <typename T, typename R>
void CheckSoftMax(SoftmaxPadTest* t, int kind, uint32_t m, uint32_t k, bool with_tmp, bool in_place,
                  std::mt19937& rng, aclrtStream stream) {
  std::uniform_real_distribution<float> dist(-6.0f, 6.0f);
  std::vector<T> x(m * k);
  for (T& v : x) v = static_cast<T>(dist(rng));
  const uint32_t block = 32 / sizeof(R);
  const uint32_t tmp = AscendC::GetSoftMaxMinTmpSize(ge::Shape({m, k}), sizeof(R), false) + rng() % 4096;
  SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), sizeof(R), tmp, tiling);
  void* dx = t->Upload(x);
  void* dy = t->Upload(std::vector<T>(m * k));
  void* dmax = t->Upload(std::vector<R>(m * block));
  void* dsum = t->Upload(std::vector<R>(m * block));
  ASSERT_EQ(SpSoftMax(kind, stream, dx, dy, dmax, dsum, tiling, with_tmp ? tmp : 0, in_place ? 1 : 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  const auto y = t->Download<T>(dy, m * k);
  const auto mx = t->Download<R>(dmax, m * block);
  const auto sm = t->Download<R>(dsum, m * block);
  int bad = 0;
  for (uint32_t r = 0; r < m && bad < 5; ++r) {
    float rmax = static_cast<float>(x[r * k]);
    for (uint32_t i = 1; i < k; ++i) rmax = std::fmax(rmax, static_cast<float>(x[r * k + i]));
    float total = 0.0f;
    for (uint32_t i = 0; i < k; ++i) total += std::exp(static_cast<float>(x[r * k + i]) - rmax);
    for (uint32_t j = 0; j < block; ++j) {
      if (mx[r * block + j] != static_cast<R>(rmax) || sm[r * block + j] != static_cast<R>(total)) {
        ADD_FAILURE() << "row " << r << " block element " << j << ": max " << static_cast<float>(mx[r * block + j])
                      << " sum " << static_cast<float>(sm[r * block + j]) << ", expected " << rmax << ", " << total;
        ++bad;
      }
    }
    for (uint32_t i = 0; i < k; ++i) {
      const T want = static_cast<T>(std::exp(static_cast<float>(x[r * k + i]) - rmax) / total);
      if (y[r * k + i] != want && bad++ < 5) {
        ADD_FAILURE() << "[" << r << "][" << i << "] = " << static_cast<float>(y[r * k + i]) << ", expected "
                      << static_cast<float>(want);
      }
    }
  }
}

TEST_F(SoftmaxPadTest, SoftMaxFloatHalfAndMixed) {
  for (int i = 0; i < 6; ++i) {
    const uint32_t m = 1 + rng_() % 24, k = 8 * (1 + rng_() % 48);
    const bool tmp = i % 2 == 0, in_place = i % 3 == 0;
    CheckSoftMax<float, float>(this, 0, m, k, tmp, in_place, rng_, stream_);
    CheckSoftMax<_Float16, _Float16>(this, 1, m, k + 8 * (k / 8 % 2), tmp, in_place, rng_, stream_);
    CheckSoftMax<_Float16, float>(this, 2, m, k + 8 * (k / 8 % 2), tmp, in_place, rng_, stream_);
  }
}

TEST_F(SoftmaxPadTest, SoftMaxRefusesATooSmallTemporaryBuffer) {
  const uint32_t m = 4, k = 64;
  SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, 1 << 16, tiling);
  std::vector<float> x(m * k, 1.0f);
  void* dx = Upload(x);
  void* dy = Upload(std::vector<float>(m * k));
  void* dmax = Upload(std::vector<float>(m * 8));
  void* dsum = Upload(std::vector<float>(m * 8));
  ASSERT_EQ(SpSoftMax(0, stream_, dx, dy, dmax, dsum, tiling, 4 * k + 63, 0), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // the kernel fails: one row needs 4*k + 64 bytes
}

// Pad: [h, w] rows (w elements of which ori valid) to rows of w rounded up to 32 bytes, the rest padValue.
template <typename T>
void CheckPad(SoftmaxPadTest* t, int kind, uint32_t h, uint32_t w, uint32_t ori, bool in_place, std::mt19937& rng,
              aclrtStream stream) {
  const uint32_t aligned = (w * sizeof(T) + 31) / 32 * 32 / sizeof(T);
  std::vector<T> x(h * w);
  for (T& v : x) v = static_cast<T>(static_cast<int32_t>(rng() % 20000) - 10000);
  const int32_t pad_value = static_cast<int32_t>(rng() % 200) - 100;
  uint32_t max = 0, min = 0;
  AscendC::GetPadMaxMinTmpSize(ge::Shape({h, w}), sizeof(T), max, min);
  PadTiling tiling;
  AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ori}), min + rng() % (max - min + 1), sizeof(T), tiling);
  void* dx = t->Upload(x, h * aligned);
  void* dy = t->Upload(std::vector<T>(h * aligned));
  ASSERT_EQ(SpPad(kind, stream, dx, dy, tiling, pad_value, in_place ? 1 : 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  const auto y = t->Download<T>(dy, h * aligned);
  int bad = 0;
  for (uint32_t r = 0; r < h; ++r) {
    for (uint32_t c = 0; c < aligned; ++c) {
      const T want = c < ori ? x[r * w + c] : static_cast<T>(pad_value);
      if (y[r * aligned + c] != want && bad++ < 5) {
        ADD_FAILURE() << h << "x" << w << " (" << ori << " valid): [" << r << "][" << c << "] = "
                      << static_cast<double>(y[r * aligned + c]) << ", expected " << static_cast<double>(want);
      }
    }
  }
}

TEST_F(SoftmaxPadTest, PadFillsEachRowTo32Bytes) {
  for (int i = 0; i < 8; ++i) {
    const bool in_place = i % 2 == 1;
    const uint32_t h = 1 + rng_() % 40;
    // Unaligned widths (rows grow), and aligned widths with invalid columns (filled where they are).
    const uint32_t w16 = 1 + rng_() % 70, w32 = 1 + rng_() % 40;
    CheckPad<int16_t>(this, 0, h, w16, w16 % 16 ? w16 : w16 - 1 - rng_() % std::min(15u, w16 - 1 + (w16 == 1)),
                      in_place, rng_, stream_);
    CheckPad<float>(this, 1, h, w32, w32 % 8 ? w32 : w32 - 1 - rng_() % std::min(7u, w32 - 1 + (w32 == 1)),
                    in_place, rng_, stream_);
  }
}

TEST_F(SoftmaxPadTest, UnPadDropsTheRightColumns) {
  for (int i = 0; i < 6; ++i) {
    const uint32_t h = 1 + rng_() % 40, w = 16 * (1 + rng_() % 5), right = 1 + rng_() % 15;
    std::vector<_Float16> x(h * w);
    for (auto& v : x) v = static_cast<_Float16>(static_cast<float>(rng_() % 4096) / 8.0f - 256.0f);
    uint32_t max = 0, min = 0;
    AscendC::GetUnPadMaxMinTmpSize(*platform_ascendc::PlatformAscendCManager::GetInstance(), ge::Shape({h, w}), 2, max,
                                   min);
    UnPadTiling tiling;
    AscendC::UnPadTilingFunc(ge::Shape({h, w}), min + rng_() % (max - min + 1), 2, tiling);
    void* dx = Upload(x);
    void* dy = Upload(std::vector<_Float16>(h * (w - right)));
    ASSERT_EQ(SpUnPad(stream_, dx, dy, tiling, right), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const auto y = Download<_Float16>(dy, h * (w - right));
    for (uint32_t r = 0; r < h; ++r) {
      for (uint32_t c = 0; c < w - right; ++c) {
        ASSERT_EQ(y[r * (w - right) + c], x[r * w + c]) << h << "x" << w << " less " << right << ": [" << r << "]["
                                                        << c << "]";
      }
    }
  }
}

}  // namespace
