// Test kernel of the level-0 Cast: the conversion a VecCase (vec_case.h, VecCastOp) names, with its
// mask given the way the case says, its round mode in `order`, src0 strides for the source.
#include "kernel_operator.h"
#include "vec_case.h"
#include "vec_mask_forms.h"

namespace {

template <typename D, typename S>
__aicore__ inline void RunCast(const VecCase& c, GM_ADDR src, GM_ADDR dst) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bd, bs;
  pipe.InitBuffer(bd, (c.n_dst * sizeof(D) + 31) / 32 * 32);
  pipe.InitBuffer(bs, (c.n_src0 * sizeof(S) + 31) / 32 * 32);
  AscendC::GlobalTensor<D> gd;
  AscendC::GlobalTensor<S> gs;
  gd.SetGlobalBuffer((__gm__ D*)dst, c.n_dst);
  gs.SetGlobalBuffer((__gm__ S*)src, c.n_src0);
  AscendC::LocalTensor<D> ld = bd.Get<D>();
  AscendC::LocalTensor<S> ls = bs.Get<S>();
  AscendC::DataCopy(ld, gd, c.n_dst);
  AscendC::DataCopy(ls, gs, c.n_src0);
  const AscendC::UnaryRepeatParams up(c.dst_blk, c.src0_blk, c.dst_rep, c.src0_rep);
  const auto mode = static_cast<AscendC::RoundMode>(c.order);
  // The mask forms count elements of the wider type.
  using Wide = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
  VecWithMask<Wide, uint64_t>(c, [&](auto set, auto m) {
    AscendC::Cast<D, S, decltype(set)::value>(ld, ls, mode, m, static_cast<uint8_t>(c.repeat), up);
  });
  AscendC::DataCopy(gd, ld, c.n_dst);
}

}  // namespace

extern "C" __global__ __aicore__ void vec_cast(GM_ADDR src, GM_ADDR dst, GM_ADDR tc) {
  const VecCase c = *reinterpret_cast<const VecCase*>(tc);
  switch (c.op) {
    case kCastF32ToF16: RunCast<half, float>(c, src, dst); break;
    case kCastF16ToF32: RunCast<float, half>(c, src, dst); break;
    case kCastF32ToI32: RunCast<int32_t, float>(c, src, dst); break;
    default: RunCast<float, int32_t>(c, src, dst); break;
  }
}

// half -> int4b_t (to_int4) or int4b_t -> half of n elements in round mode `mode`: the count form
// (level0 0) or the level-0 form with a continuous mask of 128 elements, n / 128 repeats, int4 repeats
// int4_rep blocks apart and half repeats half_rep blocks apart. The int4 side is n / 2 bytes (plus
// `extra` bytes staged, to show bytes past it stay).
extern "C" __global__ __aicore__ void vec_cast_int4(GM_ADDR half_gm, GM_ADDR int4_gm, uint32_t to_int4, uint32_t n,
                                                    uint32_t n_half, uint32_t n_bytes, uint32_t mode, uint32_t level0,
                                                    uint32_t int4_rep, uint32_t half_rep) {
  AscendC::TPipe pipe;
  VecBuf bh, bi;
  AscendC::LocalTensor<half> lh = VecStage<half>(pipe, bh, half_gm, n_half);
  AscendC::LocalTensor<int8_t> lb = VecStage<int8_t>(pipe, bi, int4_gm, n_bytes);
  AscendC::LocalTensor<AscendC::int4b_t> l4 = lb.ReinterpretCast<AscendC::int4b_t>();
  const auto rm = static_cast<AscendC::RoundMode>(mode);
  if (level0 == 0) {
    if (to_int4 != 0) AscendC::Cast(l4, lh, rm, n); else AscendC::Cast(lh, l4, rm, n);
  } else if (to_int4 != 0) {
    AscendC::Cast<AscendC::int4b_t, half>(l4, lh, rm, 128, static_cast<uint8_t>(n / 128),
                                          {1, 1, static_cast<uint8_t>(int4_rep), static_cast<uint8_t>(half_rep)});
  } else {
    AscendC::Cast<half, AscendC::int4b_t>(lh, l4, rm, 128, static_cast<uint8_t>(n / 128),
                                          {1, 1, static_cast<uint8_t>(half_rep), static_cast<uint8_t>(int4_rep)});
  }
  if (to_int4 != 0) VecUnstage(int4_gm, lb, n_bytes); else VecUnstage(half_gm, lh, n_half);
}
