// Test kernel of SoftmaxFlashV3 (npurt_kernel/adv_softmax_flashv3.h): the parameters arrive in a tiling block
// copied word by word through uint32_t pointers (as CANN's samples copy theirs); inputs staged in the unified
// buffer, one call with separate or shared (in = out) statistics tensors, the outputs written back.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

struct FlashV3TestTiling {
  uint32_t m;
  uint32_t k;
  uint32_t loopCnt;
  float alpha;
  uint32_t update;
  uint32_t shared;
};

template <bool update>
__aicore__ inline void FlashV3Case(const FlashV3TestTiling& t, GM_ADDR x, GM_ADDR im, GM_ADDR is, GM_ADDR ix,
                                   GM_ADDR dst, GM_ADDR om, GM_ADDR os, GM_ADDR ox, GM_ADDR em) {
  const uint32_t n = t.m * t.k, r8 = t.m * 8, r16 = t.m * 16;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bim, bis, bix, bd, bom, bos, box, bem;
  AscendC::GlobalTensor<half> gx, gd, gem;
  AscendC::GlobalTensor<float> gim, gis, gix, gom, gos, gox;
  LocalTensor<half> lx = AdvStage(pipe, bx, gx, x, n), ld = AdvStage(pipe, bd, gd, dst, n);
  LocalTensor<half> lem = AdvStage(pipe, bem, gem, em, r16);
  LocalTensor<float> lim = AdvStage(pipe, bim, gim, im, r8), lis = AdvStage(pipe, bis, gis, is, r8);
  LocalTensor<float> lix = AdvStage(pipe, bix, gix, ix, r8), lom = AdvStage(pipe, bom, gom, om, r8);
  LocalTensor<float> los = AdvStage(pipe, bos, gos, os, r8), lox = AdvStage(pipe, box, gox, ox, r8);
  const AscendC::SoftMaxParams params = {t.m, t.k, t.m, t.k, t.loopCnt, 8, t.alpha};
  SoftMaxTiling tiling;
  if (t.shared != 0) {
    AscendC::SoftmaxFlashV3<half, float, update>(ld, lim, lis, lix, lx, lem, lim, lis, lix, tiling, params);
    AdvWriteBack(lim, gom, r8);
    AdvWriteBack(lis, gos, r8);
    AdvWriteBack(lix, gox, r8);
  } else {
    AscendC::SoftmaxFlashV3<half, float, update, false>(ld, lom, los, lox, lx, lem, lim, lis, lix,
                                                        LocalTensor<uint8_t>(), tiling, params);
    AdvWriteBack(lom, gom, r8);
    AdvWriteBack(los, gos, r8);
    AdvWriteBack(lox, gox, r8);
  }
  AdvWriteBack(ld, gd, n);
  AdvWriteBack(lem, gem, r16);
}

}  // namespace

extern "C" __global__ __aicore__ void adv_softmax_flashv3(GM_ADDR x, GM_ADDR im, GM_ADDR is, GM_ADDR ix, GM_ADDR dst,
                                                          GM_ADDR om, GM_ADDR os, GM_ADDR ox, GM_ADDR em,
                                                          GM_ADDR tiling_gm) {
  FlashV3TestTiling t;
  uint32_t* words = reinterpret_cast<uint32_t*>(&t);
  const auto* src = reinterpret_cast<__gm__ uint32_t*>(tiling_gm);
  for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) words[i] = src[i];
  if (t.update != 0) {
    FlashV3Case<true>(t, x, im, is, ix, dst, om, os, ox, em);
  } else {
    FlashV3Case<false>(t, x, im, is, ix, dst, om, os, ox, em);
  }
}
