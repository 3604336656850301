// SoftmaxFlashV3 (npurt_kernel/adv_softmax_flashv3.h) against a host model of the documented steps (the
// library's group layout for the local means, computed in double): with and without isUpdate, separate and
// shared statistics tensors, the sample's shape and a wider one.
#include <cmath>
#include <memory>

#include "aclrtlaunch_adv_softmax_flashv3.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvSoftmaxFlashV3Test : public VecTest {};

struct FlashV3HostTiling {
  uint32_t m, k, loopCnt;
  float alpha;
  uint32_t update, shared;
};

// Per-row statistics repeated across the row's block of `per` elements.
std::vector<float> FlashV3RowBlocks(uint32_t m, uint32_t per, std::mt19937_64& rng, double lo, double hi) {
  const std::vector<float> v = RandomValues<float>(m, rng, lo, hi);
  std::vector<float> out(m * per);
  for (uint32_t i = 0; i < out.size(); ++i) out[i] = v[i / per];
  return out;
}

void RunFlashV3(aclrtStream stream, uint32_t m, uint32_t k, uint32_t loop, float alpha, bool update, bool shared,
                uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t n = m * k;
  const std::vector<half> x = RandomValues<half>(n, rng, 0, 10), em0 = RandomValues<half>(m * 16, rng, -1, 1);
  const std::vector<float> im = FlashV3RowBlocks(m, 8, rng, 3, 6), is = FlashV3RowBlocks(m, 8, rng, 1, 50);
  const std::vector<float> ix = FlashV3RowBlocks(m, 8, rng, 8, 60);
  const FlashV3HostTiling t{m, k, loop, alpha, update ? 1u : 0u, shared ? 1u : 0u};
  std::vector<std::unique_ptr<DevMem>> d;
  const size_t bytes[10] = {n * 2u, m * 32u, m * 32u, m * 32u, n * 2u, m * 32u, m * 32u, m * 32u, m * 32u, sizeof t};
  for (size_t b : bytes) d.push_back(std::make_unique<DevMem>(b));
  CopyIn(*d[0], x.data(), bytes[0]);
  CopyIn(*d[1], im.data(), bytes[1]);
  CopyIn(*d[2], is.data(), bytes[2]);
  CopyIn(*d[3], ix.data(), bytes[3]);
  CopyIn(*d[8], em0.data(), bytes[8]);
  CopyIn(*d[9], &t, sizeof t);
  ASSERT_EQ(aclrtlaunch_adv_softmax_flashv3(1, stream, d[0]->get(), d[1]->get(), d[2]->get(), d[3]->get(),
                                            d[4]->get(), d[5]->get(), d[6]->get(), d[7]->get(), d[8]->get(),
                                            d[9]->get()),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<half> got_y(n), got_em(m * 16), want_y(n), want_em = em0;
  std::vector<float> got_m(m * 8), got_s(m * 8), got_x(m * 8), want_m(m * 8), want_s(m * 8), want_x(m * 8);
  CopyOut(got_y.data(), *d[4], bytes[4]);
  CopyOut(got_m.data(), *d[5], bytes[5]);
  CopyOut(got_s.data(), *d[6], bytes[6]);
  CopyOut(got_x.data(), *d[7], bytes[7]);
  CopyOut(got_em.data(), *d[8], bytes[8]);
  const double a = static_cast<double>(alpha) / (1.0 - static_cast<double>(alpha));
  const uint32_t per = k / 8;
  for (uint32_t r = 0; r < m; ++r) {
    double local[8] = {};
    for (uint32_t c = 0; c < k; ++c) local[c < 512 ? c / 64 : (c % 64) / 8] += static_cast<double>(x[r * k + c]);
    double global = 0;
    for (double l : local) global += l / per;
    global /= 8;
    std::vector<double> xs(k);
    double row_max = -INFINITY;
    for (uint32_t c = 0; c < k; ++c) {
      xs[c] = static_cast<double>(x[r * k + c]) - (global - local[c / per] / per) * a;
      row_max = std::fmax(row_max, xs[c]);
    }
    const double in_mean = im[r * 8], in_max = ix[r * 8], in_sum = is[r * 8];
    const double mean = update ? (global + in_mean * (loop - 1)) / loop : global;
    const double shift_prev = (in_mean - mean) * a, shift_curr = (global - mean) * a;
    double mx = row_max + shift_curr;
    if (update) mx = std::fmax(mx, in_max + shift_prev);
    double total = 0;
    for (uint32_t c = 0; c < k; ++c) {
      const double e = std::exp(xs[c] - (mx - shift_curr));
      total += e;
      want_y[r * k + c] = static_cast<half>(e);
    }
    if (update) {
      const double em = std::exp(in_max - mx + shift_prev);
      total += em * in_sum;
      for (uint32_t j = 0; j < 16; ++j) want_em[r * 16 + j] = static_cast<half>(em);
    }
    for (uint32_t j = 0; j < 8; ++j) {
      want_m[r * 8 + j] = static_cast<float>(mean);
      want_x[r * 8 + j] = static_cast<float>(mx);
      want_s[r * 8 + j] = static_cast<float>(total);
    }
  }
  const std::string where = std::to_string(m) + "x" + std::to_string(k) + " update " + std::to_string(update) +
                            " shared " + std::to_string(shared);
  EXPECT_EQ(Mismatches(got_y, want_y, 1), "") << where;
  EXPECT_EQ(Mismatches(got_m, want_m, 1), "") << "mean " << where;
  EXPECT_EQ(Mismatches(got_x, want_x, 1), "") << "max " << where;
  EXPECT_EQ(Mismatches(got_s, want_s, 1), "") << "expSum " << where;
  EXPECT_EQ(Mismatches(got_em, want_em, 1), "") << "expMax " << where;
}

TEST_F(AdvSoftmaxFlashV3Test, MeanShiftedSoftmaxStep) {
  uint64_t seed = 1800;
  RunFlashV3(stream_, 8, 2048, 2, 0.9375f, true, true, ++seed);  // the sample's call
  RunFlashV3(stream_, 3, 512, 3, 0.5f, true, false, ++seed);
  RunFlashV3(stream_, 2, 1024, 1, 0.75f, false, false, ++seed);
  RunFlashV3(stream_, 5, 576, 4, 0.9f, false, true, ++seed);
}

}  // namespace
}  // namespace vectest
