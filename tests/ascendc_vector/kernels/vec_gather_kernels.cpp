// Test kernel of GatherMask: a VecCase (vec_case.h) with order = the built-in pattern (1..7, 0: the user
// pattern in `pattern`), mask_form kMaskBits = reduceMode false (repeat = repeatTimes), kMaskCounterArg =
// reduceMode true (count = mask), src0_blk / src0_rep / src1_rep the GatherMaskParams strides. dst holds its
// initial contents; cnt[0] receives rsvdCnt.
#include "kernel_operator.h"
#include "vec_case.h"
#include "vec_mask_forms.h"

namespace {

template <typename T>
__aicore__ inline void RunGather(const VecCase& c, GM_ADDR src0, GM_ADDR pattern, GM_ADDR dst, GM_ADDR cnt) {
  using U = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
  AscendC::TPipe pipe;
  VecBuf bd, b0, bp;
  AscendC::LocalTensor<T> ld = VecStage<T>(pipe, bd, dst, c.n_dst), l0 = VecStage<T>(pipe, b0, src0, c.n_src0);
  AscendC::LocalTensor<U> lp = VecStage<U>(pipe, bp, pattern, c.n_src1);
  const bool reduce = c.mask_form == kMaskCounterArg;
  const AscendC::GatherMaskParams params(static_cast<uint8_t>(c.src0_blk), static_cast<uint16_t>(c.repeat),
                                         static_cast<uint16_t>(c.src0_rep), static_cast<uint8_t>(c.src1_rep));
  uint64_t kept = 0;
  if (c.order == 0) {
    AscendC::GatherMask(ld, l0, lp, reduce, static_cast<uint32_t>(c.count), params, kept);
  } else {
    AscendC::GatherMask(ld, l0, static_cast<uint8_t>(c.order), reduce, static_cast<uint32_t>(c.count), params, kept);
  }
  VecUnstage(dst, ld, c.n_dst);
  *reinterpret_cast<__gm__ uint64_t*>(cnt) = kept;
}

}  // namespace

extern "C" __global__ __aicore__ void vec_gather(GM_ADDR src0, GM_ADDR pattern, GM_ADDR dst, GM_ADDR cnt, GM_ADDR tc) {
  const VecCase c = *reinterpret_cast<const VecCase*>(tc);
  VecForDtype(c.dtype, [&](auto zero) {
    using T = decltype(zero);
    RunGather<T>(c, src0, pattern, dst, cnt);
  });
}

// Gather: count form (mask_form kMaskCountForm, count elements) or level-0 (kMaskBits / kMaskContinuous,
// repeat, dst_rep), byte base offset in `order`; offsets holds n_src1 uint32 byte offsets.
template <typename T>
__aicore__ inline void RunGatherElems(const VecCase& c, GM_ADDR src, GM_ADDR offsets, GM_ADDR dst) {
  AscendC::TPipe pipe;
  VecBuf bd, bs, bo;
  AscendC::LocalTensor<T> ld = VecStage<T>(pipe, bd, dst, c.n_dst), ls = VecStage<T>(pipe, bs, src, c.n_src0);
  AscendC::LocalTensor<uint32_t> lo = VecStage<uint32_t>(pipe, bo, offsets, c.n_src1);
  if (c.mask_form == kMaskCountForm) {
    AscendC::Gather(ld, ls, lo, c.order, static_cast<uint32_t>(c.count));
  } else if (c.mask_form == kMaskBits) {
    AscendC::Gather(ld, ls, lo, c.order, static_cast<const uint64_t*>(c.mask), static_cast<uint8_t>(c.repeat),
                    static_cast<uint16_t>(c.dst_rep));
  } else {
    AscendC::Gather(ld, ls, lo, c.order, c.count, static_cast<uint8_t>(c.repeat), static_cast<uint16_t>(c.dst_rep));
  }
  VecUnstage(dst, ld, c.n_dst);
}

extern "C" __global__ __aicore__ void vec_gather_elems(GM_ADDR src, GM_ADDR offsets, GM_ADDR dst, GM_ADDR tc) {
  const VecCase c = *reinterpret_cast<const VecCase*>(tc);
  VecForDtype(c.dtype, [&](auto zero) {
    using T = decltype(zero);
    RunGatherElems<T>(c, src, offsets, dst);
  });
}

// Gatherb of uint32 (is16 0) or uint16 blocks: src (n_src elements), offsets (8 * repeat byte offsets),
// dst (n_dst elements, holding its initial contents), GatherRepeatParams(dst_blk, dst_rep).
extern "C" __global__ __aicore__ void vec_gatherb(GM_ADDR src, GM_ADDR offsets, GM_ADDR dst, uint32_t is16,
                                                  uint32_t n_src, uint32_t n_dst, uint32_t repeat, uint32_t dst_blk,
                                                  uint32_t dst_rep) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    AscendC::TPipe pipe;
    VecBuf bs, bo, bd;
    AscendC::LocalTensor<T> ls = VecStage<T>(pipe, bs, src, n_src), ld = VecStage<T>(pipe, bd, dst, n_dst);
    AscendC::LocalTensor<uint32_t> lo = VecStage<uint32_t>(pipe, bo, offsets, 8 * repeat);
    AscendC::Gatherb<T>(ld, ls, lo, static_cast<uint8_t>(repeat),
                        AscendC::GatherRepeatParams(static_cast<uint8_t>(dst_blk), static_cast<uint8_t>(dst_rep)));
    VecUnstage(dst, ld, n_dst);
  };
  if (is16 != 0) run(uint16_t(0)); else run(uint32_t(0));
}
