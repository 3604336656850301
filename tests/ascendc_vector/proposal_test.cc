// Region proposals against a host model: random half scores with ties and labels concatenated into proposals
// (their other elements kept), sorted 16 at a time (equal scores keep their order), four lists merged (an equal
// score from the earlier list first; with exhausted suspension the merge stops at the first list to run out,
// GetMrgSortResult saying how far each went) and the merged scores and labels extracted.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "aclrtlaunch_vec_proposal.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

uint16_t HalfBits(float f) {
  const half h = static_cast<half>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
float HalfValue(uint16_t b) {
  half h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}

class ProposalTest : public VecTest {
 protected:
  void Run(const uint32_t lens[4], bool suspend, uint64_t seed) {
    constexpr uint32_t n = 64, pe = n * 8;
    std::mt19937_64 rng(seed);
    std::vector<uint16_t> scores(n), labels(n), props0(pe), merged0(pe);
    for (auto& s : scores) s = HalfBits(static_cast<float>(static_cast<int>(rng() % 17) - 8) / 2);  // ties
    for (auto& l : labels) l = static_cast<uint16_t>(rng() & 0x3bff);
    for (auto& v : props0) v = static_cast<uint16_t>(rng() & 0x3bff);
    for (auto& v : merged0) v = static_cast<uint16_t>(rng() & 0x3bff);
    DevMem ds(n * 2), dl(n * 2), dp(pe * 2), dm(pe * 2), de(4 * n), dc(16);
    CopyIn(ds, scores.data(), n * 2);
    CopyIn(dl, labels.data(), n * 2);
    CopyIn(dp, props0.data(), pe * 2);
    CopyIn(dm, merged0.data(), pe * 2);
    const uint32_t packed = lens[0] | lens[1] << 8 | lens[2] << 16 | lens[3] << 24;
    ASSERT_EQ(aclrtlaunch_vec_proposal(1, stream_, ds.get(), dl.get(), dp.get(), dm.get(), de.get(), dc.get(), packed,
                                       suspend ? 1 : 0),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<uint16_t> props(pe), merged(pe), extracted(2 * n);
    uint32_t counts[4];
    CopyOut(props.data(), dp, pe * 2);
    CopyOut(merged.data(), dm, pe * 2);
    CopyOut(extracted.data(), de, 4 * n);
    CopyOut(counts, dc, 16);

    // Concat then sort 16 at a time, stable, largest score first.
    std::vector<uint16_t> want = props0;
    for (uint32_t i = 0; i < n; ++i) want[i * 8 + 4] = scores[i], want[i * 8 + 5] = labels[i];
    const std::vector<uint16_t> concat = want;
    auto score = [](const std::vector<uint16_t>& p, uint32_t i) { return HalfValue(p[i * 8 + 4]); };
    for (uint32_t r = 0; r < n / 16; ++r) {
      std::vector<uint32_t> order(16);
      std::iota(order.begin(), order.end(), r * 16);
      std::stable_sort(order.begin(), order.end(),
                       [&](uint32_t a, uint32_t b) { return score(concat, a) > score(concat, b); });
      for (uint32_t i = 0; i < 16; ++i) {
        std::copy_n(concat.begin() + order[i] * 8, 8, want.begin() + (r * 16 + i) * 8);
      }
    }
    EXPECT_EQ(props, want);

    // Merge of lists q (16 proposals apart, lens[q] long).
    std::vector<uint16_t> wantMerged = merged0;
    uint32_t pos[4] = {0, 0, 0, 0}, out = 0;
    while (true) {
      int best = -1;
      bool exhausted = false;
      for (int q = 0; q < 4; ++q) {
        if (pos[q] == lens[q]) {
          exhausted = true;
          continue;
        }
        if (best < 0 || score(want, q * 16 + pos[q]) > score(want, best * 16 + pos[best])) best = q;
      }
      if (best < 0 || (suspend && exhausted)) break;
      std::copy_n(want.begin() + (best * 16 + pos[best]) * 8, 8, wantMerged.begin() + out * 8);
      ++pos[best], ++out;
    }
    EXPECT_EQ(merged, wantMerged);
    for (int q = 0; q < 4; ++q) EXPECT_EQ(counts[q], pos[q]) << "list " << q;
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(extracted[i], wantMerged[i * 8 + 4]) << i;
      EXPECT_EQ(extracted[n + i], wantMerged[i * 8 + 5]) << i;
    }
  }
};

TEST_F(ProposalTest, ConcatSortMergeExtract) {
  const uint32_t full[4] = {16, 16, 16, 16};
  Run(full, false, 1);
  const uint32_t uneven[4] = {16, 9, 16, 5};
  Run(uneven, false, 2);
  Run(uneven, true, 3);
}

}  // namespace
}  // namespace vectest
