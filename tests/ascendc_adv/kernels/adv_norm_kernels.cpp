// Test kernels of DeepNorm and RmsNorm (npurt_kernel/adv_norm.h): operands staged through the unified buffer,
// the tiling the host computed (tiling/adv_norm_tiling.h) read from global memory, one call, results written
// back. with_tmp: the sharedTmpBuffer form, the scratch space taken with PopStackBuffer.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

template <typename Tiling>
__aicore__ inline Tiling ReadTiling(GM_ADDR gm) {
  Tiling t;
  auto* words = reinterpret_cast<uint32_t*>(&t);
  for (uint32_t i = 0; i < sizeof(Tiling) / 4; ++i) words[i] = reinterpret_cast<__gm__ uint32_t*>(gm)[i];
  return t;
}

template <typename T>
__aicore__ inline void DeepNormCase(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                    GM_ADDR var, GM_ADDR tiling_gm, float alpha, float eps, uint32_t with_tmp) {
  DeepNormTiling tiling = ReadTiling<DeepNormTiling>(tiling_gm);
  const uint32_t rows = tiling.bLength * tiling.sLength, n = rows * tiling.hLength;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bg, bga, bbe, by, bm, bv;
  AscendC::GlobalTensor<T> gx_, gg, gga, gbe, gy, gm, gv;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx_, x, n), lg = AdvStage(pipe, bg, gg, gx, n);
  LocalTensor<T> lga = AdvStage(pipe, bga, gga, gamma, tiling.hLength);
  LocalTensor<T> lbe = AdvStage(pipe, bbe, gbe, beta, tiling.hLength);
  LocalTensor<T> ly = AdvStage(pipe, by, gy, y, n), lm = AdvStage(pipe, bm, gm, mean, rows);
  LocalTensor<T> lv = AdvStage(pipe, bv, gv, var, rows);
  if (with_tmp != 0) {
    LocalTensor<uint8_t> tmp;
    AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::LCM>(tmp);
    AscendC::DeepNorm<T, false, false>(ly, lm, lv, lx, lg, lbe, lga, tmp, static_cast<T>(alpha), static_cast<T>(eps),
                                       tiling);
  } else {
    AscendC::DeepNorm<T>(ly, lm, lv, lx, lg, lbe, lga, static_cast<T>(alpha), static_cast<T>(eps), tiling);
  }
  AdvWriteBack(ly, gy, n);
  AdvWriteBack(lm, gm, rows);
  AdvWriteBack(lv, gv, rows);
}

template <typename T>
__aicore__ inline void RmsNormCase(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR tiling_gm, float eps,
                                   uint32_t with_tmp) {
  RmsNormTiling tiling = ReadTiling<RmsNormTiling>(tiling_gm);
  const uint32_t n = tiling.bLength * tiling.sLength * tiling.hLength;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bga, by;
  AscendC::GlobalTensor<T> gx_, gga, gy;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx_, x, n), lga = AdvStage(pipe, bga, gga, gamma, tiling.hLength);
  LocalTensor<T> ly = AdvStage(pipe, by, gy, y, n);
  if (with_tmp != 0) {
    LocalTensor<uint8_t> tmp;
    AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp);
    AscendC::RmsNorm<T, false>(ly, lx, lga, tmp, static_cast<T>(eps), tiling);
  } else {
    AscendC::RmsNorm(ly, lx, lga, static_cast<T>(eps), tiling);
  }
  AdvWriteBack(ly, gy, n);
}

}  // namespace

// DeepNorm of x, gx ([B, S, H] from the tiling) with gamma, beta ([H]); y, mean, var hold initial contents.
extern "C" __global__ __aicore__ void adv_deepnorm(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                   GM_ADDR mean, GM_ADDR var, GM_ADDR tiling, float alpha, float eps,
                                                   uint32_t is_half, uint32_t with_tmp) {
  if (is_half != 0) {
    DeepNormCase<half>(x, gx, gamma, beta, y, mean, var, tiling, alpha, eps, with_tmp);
  } else {
    DeepNormCase<float>(x, gx, gamma, beta, y, mean, var, tiling, alpha, eps, with_tmp);
  }
}

// RmsNorm of x ([B, S, H] from the tiling) with gamma ([H]) into y.
extern "C" __global__ __aicore__ void adv_rmsnorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR tiling, float eps,
                                                  uint32_t is_half, uint32_t with_tmp) {
  if (is_half != 0) {
    RmsNormCase<half>(x, gamma, y, tiling, eps, with_tmp);
  } else {
    RmsNormCase<float>(x, gamma, y, tiling, eps, with_tmp);
  }
}
