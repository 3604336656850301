// The level-0 Cast against a host model: half <-> float (the mask counting 64 elements a repeat, each
// operand addressed in its own 32-byte blocks), float -> int32 in every integral round mode and int32 ->
// float, with every mask form, repeats and strides. dst starts random: elements outside the mask keep
// their values.
#include <cmath>

#include "aclrtlaunch_vec_cast.h"
#include "aclrtlaunch_vec_cast_int4.h"
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

// int4b_t: half -> int4 in every round mode (saturating to -8..7, the even element in the low nibble)
// and int4 -> half, count form and level-0 form (128 elements a repeat; int4 repeats 2 blocks apart when
// contiguous, or further), bytes past the operand keep their contents.
TEST_F(CastL0Test, Int4) {
  std::mt19937_64 rng(57);
  const uint32_t n = 512, extra = 32;
  const int modes[] = {0, 1, 2, 3, 4, 5};  // NONE RINT FLOOR CEIL ROUND TRUNC
  struct Form {
    uint32_t level0, int4_rep, half_rep;
  };
  for (const Form& f : {Form{0, 0, 0}, Form{1, 2, 8}, Form{1, 3, 9}}) {
    const uint32_t reps = n / 128;
    const uint32_t n_bytes = (f.level0 != 0 ? (reps - 1) * f.int4_rep * 32 + 64 : n / 2) + extra;
    const uint32_t n_half = (f.level0 != 0 ? (reps - 1) * f.half_rep * 16 + 128 : n) + 16;
    auto int4_at = [&](uint32_t i) -> uint64_t {  // nibble of element i
      return f.level0 != 0 ? uint64_t{i / 128} * f.int4_rep * 64 + i % 128 : i;
    };
    auto half_at = [&](uint32_t i) -> uint64_t { return f.level0 != 0 ? uint64_t{i / 128} * f.half_rep * 16 + i % 128 : i; };
    for (int mode : modes) {
      // half -> int4
      std::vector<half> h = RandomValues<half>(n_half, rng, -10, 10);
      h[half_at(0)] = half(2.5f);
      h[half_at(1)] = half(-2.5f);
      std::vector<uint8_t> b0(n_bytes);
      for (auto& x : b0) x = static_cast<uint8_t>(rng());
      DevMem dh(n_half * 2), db(n_bytes);
      CopyIn(dh, h.data(), n_half * 2);
      CopyIn(db, b0.data(), n_bytes);
      ASSERT_EQ(aclrtlaunch_vec_cast_int4(1, stream_, dh.get(), db.get(), 1, n, n_half, n_bytes, mode, f.level0,
                                          f.int4_rep, f.half_rep),
                ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
      std::vector<uint8_t> got(n_bytes), want = b0;
      CopyOut(got.data(), db, n_bytes);
      for (uint32_t i = 0; i < n; ++i) {
        const double v = static_cast<float>(h[half_at(i)]);
        double r = mode == 2 ? std::floor(v) : mode == 3 ? std::ceil(v) : mode == 4 ? std::round(v)
                   : mode == 5 ? std::trunc(v) : std::nearbyint(v);
        r = std::min(7.0, std::max(-8.0, r));
        const uint8_t nib = static_cast<uint8_t>(static_cast<int>(r)) & 0xF;
        const uint64_t at = int4_at(i);
        uint8_t& byte = want[at / 2];
        byte = at % 2 == 0 ? static_cast<uint8_t>((byte & 0xF0) | nib) : static_cast<uint8_t>((byte & 0x0F) | (nib << 4));
      }
      EXPECT_EQ(Mismatches(got, want), "") << "to int4, level0 " << f.level0 << " rep " << f.int4_rep << " mode " << mode;
    }
    // int4 -> half
    std::vector<uint8_t> b(n_bytes);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    const std::vector<half> h0 = RandomValues<half>(n_half, rng, -10, 10);
    DevMem dh(n_half * 2), db(n_bytes);
    CopyIn(dh, h0.data(), n_half * 2);
    CopyIn(db, b.data(), n_bytes);
    ASSERT_EQ(aclrtlaunch_vec_cast_int4(1, stream_, dh.get(), db.get(), 0, n, n_half, n_bytes, 0, f.level0, f.int4_rep,
                                        f.half_rep),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<half> got(n_half), want = h0;
    CopyOut(got.data(), dh, n_half * 2);
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t at = int4_at(i);
      int v = at % 2 == 0 ? (b[at / 2] & 0xF) : (b[at / 2] >> 4);
      if (v >= 8) v -= 16;
      want[half_at(i)] = static_cast<half>(static_cast<float>(v));
    }
    EXPECT_EQ(Mismatches(got, want), "") << "from int4, level0 " << f.level0 << " rep " << f.int4_rep;
  }
}

}  // namespace
}  // namespace vectest
