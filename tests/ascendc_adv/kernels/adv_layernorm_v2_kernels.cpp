// Test kernel of the rstd-output LayerNorm and of Normalize (npurt_kernel/adv_layernorm_v2.h): inputs (and the
// outputs' initial contents) staged in the unified buffer, LayerNorm then Normalize (from given mean and
// variance), every output written back.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

using LnV2Addr = GM_ADDR;
struct LnV2Gm {
  LnV2Addr x, gamma, beta, y, mean, rstd, nmean, nvar, ny, nrstd;
};

constexpr AscendC::LayerNormConfig kLnV2Plain = {false, false, false, true};
constexpr AscendC::LayerNormConfig kLnV2NoAffine = {true, true, false, true};
constexpr AscendC::NormalizeConfig kNormNoBeta = {AscendC::ReducePattern::AR, -1, true, false, false};

template <typename U, typename T>
__aicore__ inline void LnV2Case(const LnV2Gm& g, uint32_t a, uint32_t r, uint32_t pad, uint32_t mode) {
  const uint32_t n = a * pad;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bg, bb, by, bm, br, bnm, bnv, bny, bnr, bt;
  AscendC::GlobalTensor<T> gx, gy, gny;
  AscendC::GlobalTensor<U> gg, gb;
  AscendC::GlobalTensor<float> gm, gr, gnm, gnv, gnr;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, g.x, n), ly = AdvStage(pipe, by, gy, g.y, n);
  LocalTensor<T> lny = AdvStage(pipe, bny, gny, g.ny, n);
  LocalTensor<U> lg = AdvStage(pipe, bg, gg, g.gamma, r), lb = AdvStage(pipe, bb, gb, g.beta, r);
  LocalTensor<float> lm = AdvStage(pipe, bm, gm, g.mean, a), lr = AdvStage(pipe, br, gr, g.rstd, a);
  LocalTensor<float> lnm = AdvStage(pipe, bnm, gnm, g.nmean, a), lnv = AdvStage(pipe, bnv, gnv, g.nvar, a);
  LocalTensor<float> lnr = AdvStage(pipe, bnr, gnr, g.nrstd, a);
  const AscendC::LayerNormPara lp = {a, r, pad};
  const AscendC::NormalizePara np = {a, r, pad};
  LayerNormSeparateTiling tiling;
  const float eps = 0.0001f;
  if (mode == 0) {
    AscendC::LayerNorm<U, T, false, kLnV2Plain>(ly, lm, lr, lx, lg, lb, eps, lp, tiling);
    AscendC::Normalize<U, T>(lny, lnr, lnm, lnv, lx, lg, lb, eps, np);
  } else {
    pipe.InitBuffer(bt, 1024);
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    AscendC::LayerNorm<U, T, false, kLnV2NoAffine>(ly, lm, lr, lx, lg, lb, eps, tmp, lp, tiling);
    AscendC::Normalize<U, T, false, kNormNoBeta>(lny, lnr, lnm, lnv, lx, lg, lb, tmp, eps, np);
  }
  AdvWriteBack(ly, gy, n);
  AdvWriteBack(lny, gny, n);
  AdvWriteBack(lm, gm, a);
  AdvWriteBack(lr, gr, a);
  AdvWriteBack(lnr, gnr, a);
}

}  // namespace

// kind 0: float x and gamma / beta; 1: half and half; 2: half x, float gamma / beta. mode 0: plain configs;
// 1: LayerNorm without gamma and beta, Normalize without beta.
extern "C" __global__ __aicore__ void adv_layernorm_v2(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                       GM_ADDR mean, GM_ADDR rstd, GM_ADDR nmean, GM_ADDR nvar,
                                                       GM_ADDR ny, GM_ADDR nrstd, uint32_t a, uint32_t r,
                                                       uint32_t pad, uint32_t mode, uint32_t kind) {
  const LnV2Gm g{x, gamma, beta, y, mean, rstd, nmean, nvar, ny, nrstd};
  if (kind == 0) {
    LnV2Case<float, float>(g, a, r, pad, mode);
  } else if (kind == 1) {
    LnV2Case<half, half>(g, a, r, pad, mode);
  } else {
    LnV2Case<float, half>(g, a, r, pad, mode);
  }
}
