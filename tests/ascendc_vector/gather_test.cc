// GatherMask and Gather against host models. GatherMask: every built-in pattern and random user
// patterns, reduceMode false (repeatTimes repeats) and true (repeatTimes repeats of mask elements each),
// source block and repeat strides, user-pattern repeat strides (0: one pattern for every repeat), for
// half, float, int16, int32; dst starts random: the elements past rsvdCnt must keep their values.
// Gather: random byte offsets from a base, count form and level-0 forms with masks and repeat strides.
#include "aclrtlaunch_vec_gather.h"
#include "aclrtlaunch_vec_gather_elems.h"
#include "aclrtlaunch_vec_gatherb.h"
#include "vec_case.h"
#include "vec_model.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

bool GmPatternBit(uint32_t pattern, uint32_t k) {
  switch (pattern) {
    case 1: return k % 2 == 0;  // 0101...
    case 2: return k % 2 == 1;  // 1010...
    case 3: return k % 4 == 0;  // 0001 0001 ...: the first of every four
    case 4: return k % 4 == 1;
    case 5: return k % 4 == 2;
    case 6: return k % 4 == 3;
    default: return true;       // 7: all
  }
}

class GatherMaskTest : public VecTest {
 protected:
  template <typename T>
  void RunAndCheck(VecCase c, std::mt19937_64& rng) {
    using U = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
    c.dtype = DtypeOf<T>();
    // reduceMode false: c.repeat repeats of a whole 256 bytes; true (counter mode, as Atlas A2 runs it):
    // c.repeat repeats of c.count elements each, a repeat longer than 256 bytes going on at the block stride.
    const bool reduce = c.mask_form == kMaskCounterArg;
    const uint32_t reps = c.repeat, per = reduce ? static_cast<uint32_t>(c.count) : 256 / sizeof(T);
    uint64_t src_end = 0;
    for (uint32_t r = 0; r < reps; ++r) {
      for (uint32_t k = 0; k < per; ++k) src_end = std::max<uint64_t>(src_end, L0Offset<T>(c.src0_blk, c.src0_rep, r, k) + 1);
    }
    c.n_src0 = static_cast<uint32_t>(src_end);
    const uint32_t pattern_bytes = (reps - 1) * c.src1_rep * 32 + (per + 7) / 8 + 32;
    c.n_src1 = pattern_bytes / sizeof(U);
    c.n_dst = reps * per + 32;
    const std::vector<T> src = RandomValues<T>(c.n_src0, rng, -100, 100);
    std::vector<U> pattern(c.n_src1);
    for (auto& x : pattern) x = static_cast<U>(rng());
    const std::vector<T> dst0 = RandomValues<T>(c.n_dst, rng, -100, 100);
    DevMem ds(src.size() * sizeof(T)), dp(pattern.size() * sizeof(U)), dd(dst0.size() * sizeof(T)), dn(8),
        dc(sizeof(VecCase));
    CopyIn(ds, src.data(), src.size() * sizeof(T));
    CopyIn(dp, pattern.data(), pattern.size() * sizeof(U));
    CopyIn(dd, dst0.data(), dst0.size() * sizeof(T));
    CopyIn(dc, &c, sizeof c);
    ASSERT_EQ(aclrtlaunch_vec_gather(1, stream_, ds.get(), dp.get(), dd.get(), dn.get(), dc.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<T> got(dst0.size());
    uint64_t kept = 0;
    CopyOut(got.data(), dd, got.size() * sizeof(T));
    CopyOut(&kept, dn, 8);
    // The model: pick, in order, the elements whose pattern bit is 1.
    std::vector<T> want = dst0;
    const auto* pbytes = reinterpret_cast<const uint8_t*>(pattern.data());
    uint64_t n = 0;
    for (uint32_t r = 0; r < reps; ++r) {
      for (uint32_t k = 0; k < per; ++k) {
        const bool pick = c.order == 0 ? (pbytes[r * c.src1_rep * 32 + k / 8] >> (k % 8)) & 1 : GmPatternBit(c.order, k);
        if (pick) want[n++] = src[L0Offset<T>(c.src0_blk, c.src0_rep, r, k)];
      }
    }
    const std::string where = "dtype " + std::to_string(c.dtype) + " pattern " + std::to_string(c.order) +
                              " reduce " + std::to_string(c.mask_form == kMaskCounterArg) + " repeat " +
                              std::to_string(c.repeat) + " mask " + std::to_string(c.count);
    EXPECT_EQ(kept, n) << where;
    EXPECT_EQ(Mismatches(got, want), "") << where;
  }

  template <typename T>
  void RunAll(uint64_t seed) {
    std::mt19937_64 rng(seed);
    const uint32_t per = 256 / sizeof(T);
    for (uint32_t pattern = 0; pattern <= 7; ++pattern) {
      for (uint32_t form : {kMaskBits, kMaskCounterArg}) {
        for (int trial = 0; trial < 3; ++trial) {
          VecCase c{};
          c.order = pattern;
          c.mask_form = form;
          c.mask[0] = c.mask[1] = ~0ull;  // reduceMode false: every element of each repeat
          c.repeat = 1 + static_cast<uint32_t>(rng() % 4);
          c.count = 1 + rng() % (4 * per);
          const uint32_t blks[] = {1, 2, 1, 3}, reps[] = {8, 16, 9, 24};
          c.src0_blk = trial == 0 ? 1 : blks[rng() % 4];
          c.src0_rep = trial == 0 ? 8 : reps[rng() % 4];
          c.src1_rep = trial == 2 ? 0 : 1 + static_cast<uint32_t>(rng() % 2);
          RunAndCheck<T>(c, rng);
        }
      }
    }
  }
};

TEST_F(GatherMaskTest, Half) { RunAll<half>(41); }
TEST_F(GatherMaskTest, Float) { RunAll<float>(42); }
TEST_F(GatherMaskTest, Int16) { RunAll<int16_t>(43); }
TEST_F(GatherMaskTest, Int32) { RunAll<int32_t>(44); }


// Gather (element offsets in bytes from a base) in its count form and level-0 forms.
class GatherTest : public VecTest {
 protected:
  template <typename T>
  void RunAndCheck(VecCase c, std::mt19937_64& rng) {
    c.dtype = DtypeOf<T>();
    const L0Plan p = PlanOf<T>(c);
    c.n_src0 = 300;
    const uint64_t end = uint64_t{p.repeats} * p.per;
    c.n_src1 = static_cast<uint32_t>(end + 8);
    c.n_dst = L0Extent<T>(p, 1, c.dst_rep);
    c.order = 8 * sizeof(T);  // the base: 8 elements into src
    const std::vector<T> src = RandomValues<T>(c.n_src0, rng, -100, 100);
    std::vector<uint32_t> offsets(c.n_src1);
    for (auto& o : offsets) o = static_cast<uint32_t>(rng() % (c.n_src0 - 8)) * sizeof(T);
    const std::vector<T> dst0 = RandomValues<T>(c.n_dst, rng, -100, 100);
    DevMem ds(src.size() * sizeof(T)), dof(offsets.size() * 4), dd(dst0.size() * sizeof(T)), dc(sizeof(VecCase));
    CopyIn(ds, src.data(), src.size() * sizeof(T));
    CopyIn(dof, offsets.data(), offsets.size() * 4);
    CopyIn(dd, dst0.data(), dst0.size() * sizeof(T));
    CopyIn(dc, &c, sizeof c);
    ASSERT_EQ(aclrtlaunch_vec_gather_elems(1, stream_, ds.get(), dof.get(), dd.get(), dc.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<T> got(dst0.size());
    CopyOut(got.data(), dd, got.size() * sizeof(T));
    std::vector<T> want = dst0;
    for (uint32_t r = 0; r < p.repeats; ++r) {
      for (uint32_t k = 0; k < p.per; ++k) {
        if (p.Active(r, k)) want[L0Offset<T>(1, c.dst_rep, r, k)] = src[8 + offsets[r * p.per + k] / sizeof(T)];
      }
    }
    EXPECT_EQ(Mismatches(got, want), "") << "form " << c.mask_form << " repeat " << c.repeat << " count " << c.count;
  }

  template <typename T>
  void RunAll(uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (uint32_t form : {kMaskBits, kMaskContinuous, kMaskCountForm}) {
      for (int trial = 0; trial < 3; ++trial) {
        VecCase c = RandomCase<T>(0, form, rng, 1, false);
        if (form == kMaskCountForm) c.dst_rep = 8;  // the count form's output is contiguous
        RunAndCheck<T>(c, rng);
      }
    }
  }
};

TEST_F(GatherTest, Half) { RunAll<half>(81); }
TEST_F(GatherTest, Float) { RunAll<float>(82); }
TEST_F(GatherTest, Int32) { RunAll<int32_t>(83); }

// Gatherb: whole 32-byte blocks from random block offsets, 8 per repeat, to dst blocks
// r * dstRepStride + j * dstBlkStride (0 acting as 1); the other dst blocks keep their contents.
class GatherbTest : public VecTest {
 protected:
  template <typename T>
  void Run(uint32_t is16, uint64_t seed) {
    std::mt19937_64 rng(seed);
    struct Case {
      uint32_t repeat, blk, rep;
    };
    for (const Case& k : {Case{1, 1, 8}, Case{3, 1, 8}, Case{2, 0, 9}, Case{2, 2, 16}, Case{3, 1, 4}}) {
      const uint32_t per_blk = 32 / sizeof(T), src_blocks = 40;
      const uint32_t n_src = src_blocks * per_blk;
      const uint32_t blk = k.blk == 0 ? 1 : k.blk;
      const uint32_t n_dst = ((k.repeat - 1) * k.rep + 7 * blk + 2) * per_blk;
      const std::vector<T> src = RandomValues<T>(n_src, rng, 0, 60000);
      const std::vector<T> dst0 = RandomValues<T>(n_dst, rng, 0, 60000);
      std::vector<uint32_t> offsets(8 * k.repeat);
      for (auto& o : offsets) o = static_cast<uint32_t>(rng() % src_blocks) * 32;
      DevMem ds(n_src * sizeof(T)), dof(offsets.size() * 4), dd(n_dst * sizeof(T));
      CopyIn(ds, src.data(), n_src * sizeof(T));
      CopyIn(dof, offsets.data(), offsets.size() * 4);
      CopyIn(dd, dst0.data(), n_dst * sizeof(T));
      ASSERT_EQ(aclrtlaunch_vec_gatherb(1, stream_, ds.get(), dof.get(), dd.get(), is16, n_src, n_dst, k.repeat, k.blk,
                                        k.rep),
                ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
      std::vector<T> got(n_dst);
      CopyOut(got.data(), dd, n_dst * sizeof(T));
      std::vector<T> want = dst0;
      for (uint32_t r = 0; r < k.repeat; ++r) {
        for (uint32_t j = 0; j < 8; ++j) {
          const uint32_t from = offsets[r * 8 + j] / sizeof(T), to = (r * k.rep + j * blk) * per_blk;
          for (uint32_t e = 0; e < per_blk; ++e) want[to + e] = src[from + e];
        }
      }
      EXPECT_EQ(Mismatches(got, want), "") << "repeat " << k.repeat << " blk " << k.blk << " rep " << k.rep;
    }
  }
};

TEST_F(GatherbTest, Uint32) { Run<uint32_t>(0, 51); }
TEST_F(GatherbTest, Uint16) { Run<uint16_t>(1, 52); }

}  // namespace
}  // namespace vectest
