// Sum, Select with a bytes mask and DropOut (npurt_kernel/adv_select_reduce.h) against host models: Sum's
// pairwise order (bit-exact in half and float), rows with n < inner, both tmp forms; Select with the tensor
// first or second, every mask type, mask rows longer than the source rows, under both names; DropOut's byte
// and bit masks; the pipe's event IDs.
#include <cstring>

#include "aclrtlaunch_adv_dropout.h"
#include "aclrtlaunch_adv_event_ids.h"
#include "aclrtlaunch_adv_select.h"
#include "aclrtlaunch_adv_sum.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvSelectReduceTest : public VecTest {};

// Neighbours added in pairs, an odd last element carried, until one is left; each addition rounded to T.
template <typename T>
T RefPairwiseSum(std::vector<T> v) {
  while (v.size() > 1) {
    std::vector<T> next;
    for (size_t i = 0; i + 1 < v.size(); i += 2) next.push_back(static_cast<T>(static_cast<float>(v[i]) + static_cast<float>(v[i + 1])));
    if (v.size() % 2 != 0) next.push_back(v.back());
    v.swap(next);
  }
  return v[0];
}

template <typename T>
void RunSum(aclrtStream stream, uint32_t outter, uint32_t n, uint32_t with_tmp, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
  const std::vector<T> src = RandomValues<T>(outter * inner, rng, -10, 10);
  const std::vector<T> dst0 = RandomValues<T>(outter + 16, rng, -10, 10);
  DevMem ds(src.size() * sizeof(T)), dd(dst0.size() * sizeof(T));
  CopyIn(ds, src.data(), src.size() * sizeof(T));
  CopyIn(dd, dst0.data(), dst0.size() * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_sum(1, stream, ds.get(), dd.get(), outter, inner, n, sizeof(T) == 2, with_tmp), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(dst0.size());
  CopyOut(got.data(), dd, got.size() * sizeof(T));
  std::vector<T> want = dst0;
  for (uint32_t r = 0; r < outter; ++r) {
    want[r] = RefPairwiseSum(std::vector<T>(src.begin() + r * inner, src.begin() + r * inner + n));
  }
  EXPECT_EQ(Mismatches(got, want), "") << "outter " << outter << " n " << n << " sizeof(T) " << sizeof(T);
}

TEST_F(AdvSelectReduceTest, SumAddsPairwiseRowByRow) {
  uint64_t seed = 10;
  for (uint32_t with_tmp = 0; with_tmp < 2; ++with_tmp) {
    RunSum<float>(stream_, 3, 32, with_tmp, ++seed);
    RunSum<float>(stream_, 7, 2023, with_tmp, ++seed);
    RunSum<float>(stream_, 1, 1, with_tmp, ++seed);
    RunSum<half>(stream_, 5, 3, with_tmp, ++seed);
    RunSum<half>(stream_, 4, 777, with_tmp, ++seed);
  }
}

TEST_F(AdvSelectReduceTest, SumRejectsAnUnalignedInner) {
  std::vector<float> src(64, 1.0f);
  DevMem ds(256), dd(256);
  CopyIn(ds, src.data(), 256);
  // inner = 12 floats is 48 bytes.
  ASSERT_EQ(aclrtlaunch_adv_sum(1, stream_, ds.get(), dd.get(), 2, 12, 12, 0, 0), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(RecentError().find("Sum"), std::string::npos) << RecentError();
}

template <typename T, typename M>
void RunSelect(aclrtStream stream, uint32_t rows, uint32_t cols, uint32_t mcols, uint32_t mask_type,
               uint32_t scalar_first, uint32_t new_name, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> src = RandomValues<T>(rows * cols, rng, -4, 4);
  std::vector<M> mask(rows * mcols);
  for (auto& m : mask) m = static_cast<M>((rng() % 3 == 0) ? 0 : ((rng() % 2) ? 1 : 7));
  if (mask_type == 1) {  // half masks: -0.0 counts as 0
    mask[0] = static_cast<M>(-0.0f);
  }
  const std::vector<T> dst0 = RandomValues<T>(rows * cols, rng, -4, 4);
  DevMem ds(src.size() * sizeof(T)), dm(mask.size() * sizeof(M)), dd(dst0.size() * sizeof(T));
  CopyIn(ds, src.data(), src.size() * sizeof(T));
  CopyIn(dm, mask.data(), mask.size() * sizeof(M));
  CopyIn(dd, dst0.data(), dst0.size() * sizeof(T));
  const float scalar = 1.234f;
  ASSERT_EQ(aclrtlaunch_adv_select(1, stream, ds.get(), dm.get(), dd.get(), rows, cols, mcols, sizeof(T) == 2,
                                   mask_type, scalar, scalar_first, new_name),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(dst0.size());
  CopyOut(got.data(), dd, got.size() * sizeof(T));
  std::vector<T> want(dst0.size());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const bool set = static_cast<float>(mask[r * mcols + c]) != 0.0f;
      // mask 0 picks src0, else src1; src0 is the tensor unless scalar_first.
      const bool pick_tensor = scalar_first ? set : !set;
      want[r * cols + c] = pick_tensor ? src[r * cols + c] : static_cast<T>(scalar);
    }
  }
  EXPECT_EQ(Mismatches(got, want), "") << "rows " << rows << " cols " << cols << " mcols " << mcols << " mask_type "
                                       << mask_type << " scalar_first " << scalar_first;
}

TEST_F(AdvSelectReduceTest, SelectWithBytesMaskBothOrdersAndMaskTypes) {
  uint64_t seed = 40;
  for (uint32_t scalar_first = 0; scalar_first < 2; ++scalar_first) {
    for (uint32_t new_name = 0; new_name < 2; ++new_name) {
      RunSelect<float, uint8_t>(stream_, 2, 32, 32, 0, scalar_first, new_name, ++seed);
      RunSelect<half, uint8_t>(stream_, 2, 16, 32, 0, scalar_first, new_name, ++seed);  // the documented example
      RunSelect<float, half>(stream_, 3, 24, 32, 1, scalar_first, new_name, ++seed);
      RunSelect<half, int16_t>(stream_, 4, 48, 64, 2, scalar_first, new_name, ++seed);
    }
  }
}

template <typename T>
void RunDropOut(aclrtStream stream, uint32_t rows, uint32_t cols, uint32_t mcols, float keep, uint32_t with_tmp,
                uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> src = RandomValues<T>(rows * cols, rng, -100, 100);
  std::vector<uint8_t> mask(rows * mcols);
  const bool bytes = mcols >= cols;
  for (auto& b : mask) b = static_cast<uint8_t>(bytes ? rng() % 2 : rng());
  DevMem ds(src.size() * sizeof(T)), dm(mask.size()), dd(src.size() * sizeof(T));
  CopyIn(ds, src.data(), src.size() * sizeof(T));
  CopyIn(dm, mask.data(), mask.size());
  ASSERT_EQ(aclrtlaunch_adv_dropout(1, stream, ds.get(), dm.get(), dd.get(), rows, cols, mcols, keep, sizeof(T) == 2,
                                    with_tmp),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(src.size());
  CopyOut(got.data(), dd, got.size() * sizeof(T));
  std::vector<T> want(src.size());
  const float scale = 1.0f / keep;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      // Byte mode: the byte; bit mode: bit c % 8 (least significant first) of byte c / 8 of the row.
      const uint8_t* row = mask.data() + r * mcols;
      const bool kept = bytes ? row[c] != 0 : ((row[c / 8] >> (c % 8)) & 1) != 0;
      want[r * cols + c] = kept ? static_cast<T>(static_cast<float>(src[r * cols + c]) * scale) : T(0);
    }
  }
  EXPECT_EQ(Mismatches(got, want), "") << "rows " << rows << " cols " << cols << " mcols " << mcols;
}

TEST_F(AdvSelectReduceTest, DropOutByteAndBitMasks) {
  uint64_t seed = 90;
  for (uint32_t with_tmp = 0; with_tmp < 2; ++with_tmp) {
    RunDropOut<float>(stream_, 4, 256, 32, 0.37f, with_tmp, ++seed);   // the sample: bits
    RunDropOut<float>(stream_, 3, 64, 64, 0.8f, with_tmp, ++seed);     // bytes
    RunDropOut<half>(stream_, 2, 32, 64, 0.5f, with_tmp, ++seed);      // bytes, longer mask rows
    RunDropOut<half>(stream_, 5, 48, 32, 0.9f, with_tmp, ++seed);      // bits, mask rows wider than needed
  }
}

TEST_F(AdvSelectReduceTest, PipeEventIdsServeSetFlagAndWaitFlag) {
  std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8};
  DevMem ds(32), dd(32);
  CopyIn(ds, src.data(), 32);
  ASSERT_EQ(aclrtlaunch_adv_event_ids(1, stream_, ds.get(), dd.get(), 8), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<float> got(8);
  CopyOut(got.data(), dd, 32);
  EXPECT_EQ(Mismatches(got, std::vector<float>{2, 3, 4, 5, 6, 7, 8, 9}), "");
}

TEST(AdvSelectReduceTiling, Sizes) {
  uint32_t maxv = 0, minv = 0;
  AscendC::GetSumMaxMinTmpSize(2023, 4, false, maxv, minv);
  EXPECT_GE(maxv, minv);
  AscendC::GetSelectMaxMinTmpSize(AscendC::TensorShape({2, 32}), AscendC::TensorShape({1}), 4,
                                  AscendC::TensorShape({2, 32}), 1, false, maxv, minv);
  EXPECT_GE(maxv, minv);
  EXPECT_GE(minv, 256u);
}

}  // namespace
}  // namespace vectest
