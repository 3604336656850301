// Test kernels of WelfordUpdate and WelfordFinalize (npurt_kernel/adv_welford.h): inputs staged in the unified
// buffer, one call, the outputs written back. Reciprocals come as their denominators.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

constexpr AscendC::WelfordUpdateConfig kWelfordInplace = {true};

template <typename T>
__aicore__ inline void WelfordUpdateCase(GM_ADDR x, GM_ADDR im, GM_ADDR iv, GM_ADDR om, GM_ADDR ov, uint32_t rn,
                                         uint32_t ab, uint32_t abc, uint32_t n_den, uint32_t inplace) {
  const uint32_t n = rn * ab;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bm, bv, bom, bov, bt;
  AscendC::GlobalTensor<T> gx;
  AscendC::GlobalTensor<float> gm, gv, gom, gov;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, n);
  LocalTensor<float> lm = AdvStage(pipe, bm, gm, im, n), lv = AdvStage(pipe, bv, gv, iv, n);
  LocalTensor<float> lom = AdvStage(pipe, bom, gom, om, n), lov = AdvStage(pipe, bov, gov, ov, n);
  const AscendC::WelfordUpdateParam para = {rn, ab, abc, 1.0f / static_cast<float>(n_den)};
  if (inplace != 0) {
    pipe.InitBuffer(bt, 1024);
    AscendC::WelfordUpdate<T, float, false, kWelfordInplace>(lom, lov, lm, lv, lx, bt.Get<uint8_t>(), para);
  } else {
    AscendC::WelfordUpdate<T, float>(lom, lov, lm, lv, lx, para);
  }
  AdvWriteBack(lom, gom, n);
  AdvWriteBack(lov, gov, n);
}

}  // namespace

extern "C" __global__ __aicore__ void adv_welford_update(GM_ADDR x, GM_ADDR im, GM_ADDR iv, GM_ADDR om, GM_ADDR ov,
                                                         uint32_t rn, uint32_t ab, uint32_t abc, uint32_t n_den,
                                                         uint32_t inplace, uint32_t is_half) {
  if (is_half != 0) {
    WelfordUpdateCase<half>(x, im, iv, om, ov, rn, ab, abc, n_den, inplace);
  } else {
    WelfordUpdateCase<float>(x, im, iv, om, ov, rn, ab, abc, n_den, inplace);
  }
}

// mode 0: no counts (abRec = 1 / ab); 1: with counts; 2: head / tail coefficients. rRec = 1 / r_den.
extern "C" __global__ __aicore__ void adv_welford_finalize(GM_ADDR m, GM_ADDR v, GM_ADDR counts, GM_ADDR om,
                                                           GM_ADDR ov, uint32_t rn, uint32_t ab, uint32_t head,
                                                           uint32_t head_len, uint32_t tail, uint32_t tail_len,
                                                           uint32_t r_den, uint32_t mode) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bm, bv, bc, bom, bov, bt;
  AscendC::GlobalTensor<float> gm, gv, gom, gov;
  AscendC::GlobalTensor<int32_t> gc;
  LocalTensor<float> lm = AdvStage(pipe, bm, gm, m, ab), lv = AdvStage(pipe, bv, gv, v, ab);
  LocalTensor<int32_t> lc = AdvStage(pipe, bc, gc, counts, ab);
  LocalTensor<float> lom = AdvStage(pipe, bom, gom, om, 8), lov = AdvStage(pipe, bov, gov, ov, 8);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  AscendC::WelfordFinalizePara para = {rn,       ab, head, head_len, tail, tail_len, 1.0f / static_cast<float>(ab),
                                       1.0f / static_cast<float>(r_den)};
  if (mode == 1) {
    AscendC::WelfordFinalize<false>(lom, lov, lm, lv, lc, tmp, para);
  } else {
    AscendC::WelfordFinalize<false>(lom, lov, lm, lv, tmp, para);
  }
  AdvWriteBack(lom, gom, 8);
  AdvWriteBack(lov, gov, 8);
}
