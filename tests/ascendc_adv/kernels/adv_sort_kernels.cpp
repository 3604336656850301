// Test kernels of TopK and the high-level Sort / Concat / Extract (npurt_kernel/adv_sort.h): inputs staged in
// the unified buffer, one call, the outputs written back.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TopKMode;

template <typename T, bool initIndex, bool hasFinish, TopKMode mode>
__aicore__ inline void TopKCase(GM_ADDR x, GM_ADDR idx, GM_ADDR fin, GM_ADDR dv, GM_ADDR di, uint32_t outter,
                                uint32_t inner, uint32_t n, uint32_t k, bool largest, bool with_tmp) {
  const uint32_t kv = (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T)), ki = (k + 7) / 8 * 8;
  const uint32_t idx_n = mode == TopKMode::TOPK_NSMALL ? outter * inner : inner;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bi, bf, bv, bd, bt;
  AscendC::GlobalTensor<T> gx, gv;
  AscendC::GlobalTensor<int32_t> gi, gd;
  AscendC::GlobalTensor<bool> gf;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, outter * inner), lv = AdvStage(pipe, bv, gv, dv, outter * kv);
  LocalTensor<int32_t> li = AdvStage(pipe, bi, gi, idx, idx_n), ld = AdvStage(pipe, bd, gd, di, outter * ki);
  LocalTensor<bool> lf = AdvStage(pipe, bf, gf, fin, outter);
  AscendC::TopKInfo info;
  info.outter = static_cast<int32_t>(outter);
  info.inner = static_cast<int32_t>(inner);
  info.n = static_cast<int32_t>(n);
  TopkTiling tiling;
  if (with_tmp) {
    pipe.InitBuffer(bt, 4096);
    AscendC::TopK<T, initIndex, hasFinish, false, mode>(lv, ld, lx, li, lf, bt.Get<uint8_t>(), k, tiling, info,
                                                        largest);
  } else {
    AscendC::TopK<T, initIndex, hasFinish, false, mode>(lv, ld, lx, li, lf, k, tiling, info, largest);
  }
  AdvWriteBack(lv, gv, outter * kv);
  AdvWriteBack(ld, gd, outter * ki);
}

template <typename T>
__aicore__ inline void TopKModes(GM_ADDR x, GM_ADDR idx, GM_ADDR fin, GM_ADDR dv, GM_ADDR di, uint32_t outter,
                                 uint32_t inner, uint32_t n, uint32_t k, uint32_t mode, bool largest) {
  if (mode == 0) {
    TopKCase<T, false, false, TopKMode::TOPK_NORMAL>(x, idx, fin, dv, di, outter, inner, n, k, largest, false);
  } else if (mode == 1) {
    TopKCase<T, true, true, TopKMode::TOPK_NORMAL>(x, idx, fin, dv, di, outter, inner, n, k, largest, true);
  } else {
    TopKCase<T, true, false, TopKMode::TOPK_NSMALL>(x, idx, fin, dv, di, outter, inner, n, k, largest, true);
  }
}

template <typename T>
__aicore__ inline void SortCase(GM_ADDR x, GM_ADDR idx, GM_ADDR dv, GM_ADDR di, uint32_t n, bool full) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bi, bv, bd, bs, bt;
  AscendC::GlobalTensor<T> gx, gv;
  AscendC::GlobalTensor<uint32_t> gi, gd;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, n), lv = AdvStage(pipe, bv, gv, dv, n);
  LocalTensor<uint32_t> li = AdvStage(pipe, bi, gi, idx, n), ld = AdvStage(pipe, bd, gd, di, n);
  pipe.InitBuffer(bs, n * 8);
  pipe.InitBuffer(bt, n * 8);
  LocalTensor<T> sorted = bs.Get<T>(), tmp = bt.Get<T>(), concat;
  AscendC::Concat(concat, lx, tmp, static_cast<int32_t>(n / 16));
  if (full) {
    AscendC::Sort<T, true>(sorted, concat, li, tmp, static_cast<int32_t>(n / 32));
  } else {
    AscendC::Sort<T, false>(sorted, concat, li, tmp, static_cast<int32_t>(n / 32));
  }
  AscendC::Extract(lv, ld, sorted, static_cast<int32_t>(n / 32));
  AdvWriteBack(lv, gv, n);
  AdvWriteBack(ld, gd, n);
}

}  // namespace

// mode 0: TOPK_NORMAL, positions as indices; 1: TOPK_NORMAL with srcIndex and finish flags (and a tmp
// buffer); 2: TOPK_NSMALL with srcIndex.
extern "C" __global__ __aicore__ void adv_topk(GM_ADDR x, GM_ADDR idx, GM_ADDR fin, GM_ADDR dv, GM_ADDR di,
                                               uint32_t outter, uint32_t inner, uint32_t n, uint32_t k,
                                               uint32_t mode, uint32_t largest, uint32_t is_half) {
  if (is_half != 0) {
    TopKModes<half>(x, idx, fin, dv, di, outter, inner, n, k, mode, largest != 0);
  } else {
    TopKModes<float>(x, idx, fin, dv, di, outter, inner, n, k, mode, largest != 0);
  }
}

extern "C" __global__ __aicore__ void adv_sort_full(GM_ADDR x, GM_ADDR idx, GM_ADDR dv, GM_ADDR di, uint32_t n,
                                                    uint32_t full, uint32_t is_half) {
  if (is_half != 0) {
    SortCase<half>(x, idx, dv, di, n, full != 0);
  } else {
    SortCase<float>(x, idx, dv, di, n, full != 0);
  }
}
