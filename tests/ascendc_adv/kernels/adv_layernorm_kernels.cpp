// Test kernel of LayerNorm, LayerNormGrad and LayerNormGradBeta (npurt_kernel/adv_layernorm.h): inputs staged in
// the unified buffer, the three calls in a row (the grads reading LayerNorm's mean and variance), every output
// written back. The tilings carry the shape only.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

using LnAddr = GM_ADDR;
struct LnGm {
  LnAddr x, gamma, beta, dy, y, mean, var, pdx, res, pdg, pdb;
};

template <typename T>
__aicore__ inline void LayerNormCase(const LnGm& a, uint32_t b, uint32_t s, uint32_t h, uint32_t oh, bool tmp) {
  const uint32_t n = b * s * h, bs = b * s;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bg, bb, bd, by, bm, bv, bp, br, bpg, bpb, bt;
  AscendC::GlobalTensor<T> gx, gg, gb, gd, gy, gm, gv, gp, gr, gpg, gpb;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, a.x, n), lg = AdvStage(pipe, bg, gg, a.gamma, h);
  LocalTensor<T> lb = AdvStage(pipe, bb, gb, a.beta, h), ld = AdvStage(pipe, bd, gd, a.dy, n);
  LocalTensor<T> ly = AdvStage(pipe, by, gy, a.y, n), lm = AdvStage(pipe, bm, gm, a.mean, bs);
  LocalTensor<T> lv = AdvStage(pipe, bv, gv, a.var, bs), lp = AdvStage(pipe, bp, gp, a.pdx, n);
  LocalTensor<T> lr = AdvStage(pipe, br, gr, a.res, n), lpg = AdvStage(pipe, bpg, gpg, a.pdg, h);
  LocalTensor<T> lpb = AdvStage(pipe, bpb, gpb, a.pdb, h);
  LayerNormTiling t1;
  LayerNormGradTiling t2;
  LayerNormGradBetaTiling t3;
  t1.bLength = t2.bLength = t3.bLength = b;
  t1.sLength = t2.sLength = t3.sLength = s;
  t1.hLength = t2.hLength = t3.hLength = h;
  t1.originalHLength = t2.originalHLength = t3.originalHLength = oh;
  const T eps = static_cast<T>(0.0001f);
  if (tmp) {
    pipe.InitBuffer(bt, 1024);
    LocalTensor<uint8_t> lt = bt.Get<uint8_t>();
    AscendC::LayerNorm<T>(ly, lm, lv, lx, lg, lb, lt, eps, t1);
    AscendC::LayerNormGrad<T>(lp, lr, ld, lx, lv, lm, lg, lt, eps, t2);
    AscendC::LayerNormGradBeta<T>(lpg, lpb, lr, ld, lt, t3);
  } else {
    AscendC::LayerNorm<T, false>(ly, lm, lv, lx, lg, lb, eps, t1);
    AscendC::LayerNormGrad<T, false>(lp, lr, ld, lx, lv, lm, lg, eps, t2);
    AscendC::LayerNormGradBeta<T, false>(lpg, lpb, lr, ld, t3);
  }
  AdvWriteBack(ly, gy, n);
  AdvWriteBack(lm, gm, bs);
  AdvWriteBack(lv, gv, bs);
  AdvWriteBack(lp, gp, n);
  AdvWriteBack(lr, gr, n);
  AdvWriteBack(lpg, gpg, h);
  AdvWriteBack(lpb, gpb, h);
}

}  // namespace

extern "C" __global__ __aicore__ void adv_layernorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR dy, GM_ADDR y,
                                                    GM_ADDR mean, GM_ADDR var, GM_ADDR pdx, GM_ADDR res, GM_ADDR pdg,
                                                    GM_ADDR pdb, uint32_t b, uint32_t s, uint32_t h, uint32_t oh,
                                                    uint32_t is_half) {
  const LnGm a{x, gamma, beta, dy, y, mean, var, pdx, res, pdg, pdb};
  if (is_half != 0) {
    LayerNormCase<half>(a, b, s, h, oh, true);
  } else {
    LayerNormCase<float>(a, b, s, h, oh, (b & 1) != 0);
  }
}
