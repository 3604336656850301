// Constant Matmul tilings on the sim: MatmulApiStaticTiling (global, as in CANN) and
// AscendC::GetMatmulApiTiling<A, B, C, BIAS>(MatmulConfig, l1Size), which a kernel passes to Matmul<..., MM_CFG>
// instead of a MatmulConfig. Part of lib/matmul_intf.h (through matmul_impl.h).
//
// The fields the result depends on follow CANN's GetMatmulApiTiling: cfg; baseM/N/K from the configuration's
// basicM/N/K; with singleCoreM/N/K all set, M = singleCoreM, N = singleCoreN, Ka = Kb = singleCoreK and the
// single-core shape, else those stay -1 (the kernel gives them with SetOrgShape / SetSingleShape / SetTail);
// iterateOrder from cfg.iterateOrder (0 when UNDEF); isBias from enableSetBias. The L1 factors (stepM, stepN,
// stepKa, stepKb, depthA1, depthB1) only schedule CANN's data movement: they are 1, 1, ceil(singleCoreK /
// baseK) (or 1) and the products CANN's formula gives for one buffer, not CANN's L1 search. A Matmul with such a
// tiling and a null TCubeTiling (REGIST_MATMUL_OBJ(..., (TCubeTiling*)nullptr)) initialises itself from it.
#pragma once

#include "npurt_kernel/matmul_types.h"

struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1;
  int32_t M = -1;
  int32_t N = -1;
  int32_t Ka = -1;
  int32_t Kb = -1;
  int32_t singleCoreM = -1;
  int32_t singleCoreN = -1;
  int32_t singleCoreK = -1;
  int32_t baseM = -1;
  int32_t baseN = -1;
  int32_t baseK = -1;
  int32_t depthA1 = -1;
  int32_t depthB1 = -1;
  int32_t stepM = -1;
  int32_t stepN = -1;
  int32_t isBias = -1;
  int32_t transLength = -1;
  int32_t iterateOrder = -1;
  int32_t shareMode = -1;
  int32_t shareL1Size = -1;
  int32_t shareL0CSize = -1;
  int32_t shareUbSize = -1;
  int32_t stepKa = -1;
  int32_t stepKb = -1;
  int32_t depthAL1CacheUB = -1;
  int32_t depthBL1CacheUB = -1;
  int32_t dbL0A = -1;
  int32_t dbL0B = -1;
  int32_t dbL0C = -1;
  int32_t ALayoutInfoB = -1;
  int32_t ALayoutInfoS = -1;
  int32_t ALayoutInfoN = -1;
  int32_t ALayoutInfoG = -1;
  int32_t ALayoutInfoD = -1;
  int32_t BLayoutInfoB = -1;
  int32_t BLayoutInfoS = -1;
  int32_t BLayoutInfoN = -1;
  int32_t BLayoutInfoG = -1;
  int32_t BLayoutInfoD = -1;
  int32_t CLayoutInfoB = -1;
  int32_t CLayoutInfoS1 = -1;
  int32_t CLayoutInfoN = -1;
  int32_t CLayoutInfoG = -1;
  int32_t CLayoutInfoS2 = -1;
  int32_t BatchNum = -1;
  int32_t mxTypePara = -1;
  MatmulConfig cfg = CFG_NORM;
};

namespace AscendC {

constexpr int32_t kNpurtL1Size = 512 * 1024;

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                              int32_t l1Size = kNpurtL1Size) {
  (void)l1Size;
  MatmulApiStaticTiling t;
  t.cfg = mmCFG;
  if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) return t;
  t.baseM = static_cast<int32_t>(mmCFG.basicM);
  t.baseN = static_cast<int32_t>(mmCFG.basicN);
  t.baseK = static_cast<int32_t>(mmCFG.basicK);
  t.isBias = mmCFG.enableSetBias ? 1 : 0;
  t.dbL0A = t.dbL0B = t.dbL0C = 1;
  if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) return t;
  t.M = t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
  t.N = t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
  t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  t.stepM = t.stepN = 1;
  t.stepKa = t.stepKb = (t.singleCoreK + t.baseK - 1) / t.baseK;
  t.depthA1 = t.stepKa * t.stepM;
  t.depthB1 = t.stepKb * t.stepN;
  t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
  t.shareMode = 0;
  t.shareL0CSize = t.baseM * t.baseN * 4;
  t.shareUbSize = 0;
  return t;
}

namespace npurt_detail {
// The MatmulConfig of a Matmul's MM_CFG: itself, or a constant tiling's cfg.
template <class Cfg>
constexpr const MatmulConfig& MatmulConfigOf(const Cfg& c) {
  if constexpr (std::is_same<Cfg, MatmulApiStaticTiling>::value) {
    return c.cfg;
  } else {
    return c;
  }
}
}  // namespace npurt_detail

}  // namespace AscendC
