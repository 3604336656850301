// The level-0 Cast against a host model: half <-> float (the mask counting 64 elements a repeat, each
// operand addressed in its own 32-byte blocks), float -> int32 in every integral round mode and int32 ->
// float, with every mask form, repeats and strides. dst starts random: elements outside the mask keep
// their values.
#include <cmath>

#include "aclrtlaunch_vec_cast.h"
#include "vec_case.h"
#include "vec_model.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

// RoundMode numbering (AscendC::RoundMode).
enum : uint32_t { kCastNone = 0, kCastRint, kCastFloor, kCastCeil, kCastRound, kCastTrunc };

template <typename D, typename S>
D CastModel(S v, uint32_t mode) {
  if constexpr (std::is_integral<D>::value) {
    const double x = static_cast<double>(v);
    double r = std::nearbyint(x);
    if (mode == kCastFloor) r = std::floor(x);
    if (mode == kCastCeil) r = std::ceil(x);
    if (mode == kCastRound) r = std::round(x);
    if (mode == kCastTrunc) r = std::trunc(x);
    return static_cast<D>(r);
  } else {
    return static_cast<D>(v);  // nearest even (RINT / NONE)
  }
}

class CastL0Test : public VecTest {
 protected:
  template <typename D, typename S>
  void RunAndCheck(VecCase c, std::mt19937_64& rng) {
    using Wide = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
    const L0Plan p = PlanOf<Wide>(c);  // the mask counts elements of the wider type
    // Each operand's offsets in its own blocks (L0Offset with its own element size).
    auto extent = [&](size_t bytes, uint32_t blk, uint32_t rep) {
      size_t max_off = 0;
      for (uint32_t r = 0; r < p.repeats; ++r) {
        for (uint32_t k = 0; k < p.per; ++k) {
          if (!p.Active(r, k)) continue;
          const size_t off = bytes == 2 ? L0Offset<uint16_t>(blk, rep, r, k) : L0Offset<uint32_t>(blk, rep, r, k);
          max_off = std::max(max_off, off);
        }
      }
      return static_cast<uint32_t>(max_off + 1 + 32 / bytes);
    };
    c.n_dst = extent(sizeof(D), c.dst_blk, c.dst_rep);
    c.n_src0 = extent(sizeof(S), c.src0_blk, c.src0_rep);
    const std::vector<S> src = RandomValues<S>(c.n_src0, rng, -1000, 1000);
    const std::vector<D> dst0 = RandomValues<D>(c.n_dst, rng, -1000, 1000);
    DevMem ds(src.size() * sizeof(S)), dd(dst0.size() * sizeof(D)), dc(sizeof(VecCase));
    CopyIn(ds, src.data(), src.size() * sizeof(S));
    CopyIn(dd, dst0.data(), dst0.size() * sizeof(D));
    CopyIn(dc, &c, sizeof c);
    ASSERT_EQ(aclrtlaunch_vec_cast(1, stream_, ds.get(), dd.get(), dc.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<D> got(dst0.size());
    CopyOut(got.data(), dd, got.size() * sizeof(D));
    std::vector<D> want = dst0;
    for (uint32_t r = 0; r < p.repeats; ++r) {
      for (uint32_t k = 0; k < p.per; ++k) {
        if (!p.Active(r, k)) continue;
        want[L0Offset<D>(c.dst_blk, c.dst_rep, r, k)] = CastModel<D>(src[L0Offset<S>(c.src0_blk, c.src0_rep, r, k)], c.order);
      }
    }
    EXPECT_NE(Mismatches(want, dst0), "") << "the case writes nothing";
    EXPECT_EQ(Mismatches(got, want), "") << "cast " << c.op << " mode " << c.order << " form " << c.mask_form
                                         << " repeat " << c.repeat << " count " << c.count;
  }

  template <typename D, typename S>
  void RunAll(uint32_t op, std::initializer_list<uint32_t> modes, uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (uint32_t mode : modes) {
      for (uint32_t form = kMaskBits; form <= kMaskCounterArg; ++form) {
        using Wide = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
        VecCase c = RandomCase<Wide>(op, form, rng, 1, false);
        c.order = mode;
        if (form == kMaskBits) {  // the contiguous layout of a half <-> float loop
          c.src0_blk = c.dst_blk = 1;
          c.src0_rep = 8 * sizeof(S) / sizeof(Wide);
          c.dst_rep = 8 * sizeof(D) / sizeof(Wide);
        }
        RunAndCheck<D, S>(c, rng);
      }
    }
  }
};

TEST_F(CastL0Test, FloatToHalf) { RunAll<half, float>(kCastF32ToF16, {kCastNone, kCastRint}, 51); }
TEST_F(CastL0Test, HalfToFloat) { RunAll<float, half>(kCastF16ToF32, {kCastNone}, 52); }
TEST_F(CastL0Test, FloatToInt32) {
  RunAll<int32_t, float>(kCastF32ToI32, {kCastRint, kCastFloor, kCastCeil, kCastRound, kCastTrunc}, 53);
}
TEST_F(CastL0Test, Int32ToFloat) { RunAll<float, int32_t>(kCastI32ToF32, {kCastNone}, 54); }

}  // namespace
}  // namespace vectest
