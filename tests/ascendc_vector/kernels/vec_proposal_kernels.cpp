// Region proposals (npurt_kernel/proposal.h): ProposalConcat of scores and labels into proposals whose other
// elements come from GM, RpSort16 in place, MrgSort4 of four sorted lists (lengths from `lens`), GetMrgSortResult,
// ProposalExtract of the merged scores and labels.
#include "kernel_operator.h"

// 64 half proposals (8 elements each): props receives the sorted ones, merged the merge (64 proposals, the
// initial contents kept past the merge), extracted the merged scores then labels (2 x 64), counts 4 uint32_t.
extern "C" __global__ __aicore__ void vec_proposal(GM_ADDR scores, GM_ADDR labels, GM_ADDR props, GM_ADDR merged,
                                                   GM_ADDR extracted, GM_ADDR counts, uint32_t lens, uint32_t suspend) {
  constexpr uint32_t n = 64, pe = n * 8;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bl, bp, bm, be;
  pipe.InitBuffer(bs, n * 2);
  pipe.InitBuffer(bl, n * 2);
  pipe.InitBuffer(bp, pe * 2);
  pipe.InitBuffer(bm, pe * 2);
  pipe.InitBuffer(be, 2 * n * 2);
  AscendC::GlobalTensor<half> gs, gl, gp, gm, ge;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(scores), n);
  gl.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(labels), n);
  gp.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(props), pe);
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(merged), pe);
  ge.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(extracted), 2 * n);
  AscendC::LocalTensor<half> ls = bs.Get<half>(), ll = bl.Get<half>(), lp = bp.Get<half>(), lm = bm.Get<half>();
  AscendC::LocalTensor<half> le = be.Get<half>();
  AscendC::DataCopy(ls, gs, n);
  AscendC::DataCopy(ll, gl, n);
  AscendC::DataCopy(lp, gp, pe);
  AscendC::DataCopy(lm, gm, pe);
  AscendC::ProposalConcat(lp, ls, n / 16, 4);
  AscendC::ProposalConcat(lp, ll, n / 16, 5);
  AscendC::RpSort16(lp, lp, n / 16);
  AscendC::DataCopy(gp, lp, pe);
  const uint16_t lengths[4] = {static_cast<uint16_t>(lens & 0xff), static_cast<uint16_t>((lens >> 8) & 0xff),
                               static_cast<uint16_t>((lens >> 16) & 0xff), static_cast<uint16_t>(lens >> 24)};
  AscendC::MrgSortSrcList<half> lists(lp[0], lp[128], lp[256], lp[384]);
  AscendC::MrgSort4(lm, lists, AscendC::MrgSort4Info(lengths, suspend != 0, 15, 1));
  uint16_t c[4];
  AscendC::GetMrgSortResult(c[0], c[1], c[2], c[3]);
  for (int q = 0; q < 4; ++q) reinterpret_cast<__gm__ uint32_t*>(counts)[q] = c[q];
  AscendC::DataCopy(gm, lm, pe);
  AscendC::ProposalExtract(le, lm, n / 16, 4);
  AscendC::ProposalExtract(le[n], lm, n / 16, 5);
  AscendC::DataCopy(ge, le, 2 * n);
}
