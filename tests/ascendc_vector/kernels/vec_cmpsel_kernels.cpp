// Test kernel of Compare / CompareScalar / Compares / Select: runs the one instruction a VecCase
// (vec_case.h, VecCmpSelOp) names, with its mask given the way the case says. dst holds bits (Compare)
// or elements (Select) and its initial contents on entry; sel is Select's selMask.
#include "kernel_operator.h"
#include "vec_case.h"
#include "vec_mask_forms.h"

namespace {

using AscendC::LocalTensor;

template <typename T>
__aicore__ inline void RunCmpSel(const VecCase& c, const LocalTensor<uint8_t>& d, const LocalTensor<T>& a,
                                 const LocalTensor<T>& b, const LocalTensor<uint8_t>& sel) {
  const uint8_t rep = static_cast<uint8_t>(c.repeat);
  const AscendC::BinaryRepeatParams bp(c.dst_blk, c.src0_blk, c.src1_blk, c.dst_rep, c.src0_rep, c.src1_rep);
  const AscendC::UnaryRepeatParams up(c.dst_blk, c.src0_blk, c.dst_rep, c.src0_rep);
  const auto mode = static_cast<AscendC::CMPMODE>(c.order);
  const T s = static_cast<T>(c.scalar);
  const LocalTensor<T> dt = d.ReinterpretCast<T>();
  const bool count_form = c.mask_form == kMaskCountForm;
  const uint32_t n = static_cast<uint32_t>(c.count);
  switch (c.op) {
    case kCsCompare:
      if (count_form) { AscendC::Compare(d, a, b, mode, n); return; }
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Compare<T, uint8_t, decltype(set)::value>(d, a, b, mode, m, rep, bp); });
      return;
    case kCsCompareScalar:
      if (count_form) { AscendC::CompareScalar(d, a, s, mode, n); return; }
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::CompareScalar<T, uint8_t, decltype(set)::value>(d, a, s, mode, m, rep, up); });
      return;
    case kCsCompares:
      if (count_form) { AscendC::Compares(d, a, s, mode, n); return; }
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Compares<T, uint8_t, decltype(set)::value>(d, a, s, mode, m, rep, up); });
      return;
    case kCsSelectTensor:
    case kCsSelectSpr: {
      const auto sm = c.op == kCsSelectSpr ? AscendC::SELMODE::VSEL_CMPMASK_SPR : AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE;
      if (count_form) { AscendC::Select(dt, sel, a, b, sm, n); return; }
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Select<T, uint8_t, decltype(set)::value>(dt, sel, a, b, sm, m, rep, bp); });
      return;
    }
    case kCsSelectScalar:
      if (count_form) { AscendC::Select(dt, sel, a, s, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, n); return; }
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) {
        AscendC::Select<T, uint8_t, decltype(set)::value>(dt, sel, a, s, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, m, rep, bp);
      });
      return;
    case kCsRegisterSelect: {
      // The register Compare runs on the first repeat of src0/src1 with every element; Select then uses
      // those bits for each repeat under the case's mask (register forms only).
      const uint64_t all[2] = {~0ull, sizeof(T) == 2 ? ~0ull : 0};
      AscendC::Compare(a, b, mode, all, bp);
      AscendC::LocalTensor<uint8_t> bits = sel;  // the register's bits, copied out for the host to check
      AscendC::GetCmpMask(bits);
      AscendC::SetCmpMask(bits);
      VecWithMask<T, uint64_t>(c, [&](auto, auto) { AscendC::Select<T, AscendC::SELMODE::VSEL_CMPMASK_SPR>(dt, a, b, rep, bp); });
      return;
    }
    default: trap();
  }
}

__aicore__ inline uint32_t CsBytes(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T>
__aicore__ inline void RunCmpSelCase(const VecCase& c, GM_ADDR src0, GM_ADDR src1, GM_ADDR sel, GM_ADDR dst) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bd, b0, b1, bs;
  // n_dst counts bytes here; n_src1 is also the selMask's byte count for the register case.
  pipe.InitBuffer(bd, CsBytes(c.n_dst));
  pipe.InitBuffer(b0, CsBytes(c.n_src0 * sizeof(T)));
  pipe.InitBuffer(b1, CsBytes(c.n_src1 * sizeof(T)));
  pipe.InitBuffer(bs, 4096);
  AscendC::GlobalTensor<uint8_t> gd, gs;
  AscendC::GlobalTensor<T> g0, g1;
  gd.SetGlobalBuffer((__gm__ uint8_t*)dst, c.n_dst);
  gs.SetGlobalBuffer((__gm__ uint8_t*)sel, 4096);
  g0.SetGlobalBuffer((__gm__ T*)src0, c.n_src0);
  g1.SetGlobalBuffer((__gm__ T*)src1, c.n_src1);
  LocalTensor<uint8_t> ld = bd.Get<uint8_t>(), ls = bs.Get<uint8_t>();
  LocalTensor<T> l0 = b0.Get<T>(), l1 = b1.Get<T>();
  AscendC::DataCopy(ld, gd, c.n_dst);
  AscendC::DataCopy(ls, gs, 4096);
  AscendC::DataCopy(l0, g0, c.n_src0);
  AscendC::DataCopy(l1, g1, c.n_src1);
  RunCmpSel<T>(c, ld, l0, l1, ls);
  AscendC::DataCopy(gd, ld, c.n_dst);
  AscendC::DataCopy(gs, ls, 4096);
}

}  // namespace

extern "C" __global__ __aicore__ void vec_cmpsel(GM_ADDR src0, GM_ADDR src1, GM_ADDR sel, GM_ADDR dst, GM_ADDR tc) {
  const VecCase c = *reinterpret_cast<const VecCase*>(tc);
  VecForDtype(c.dtype, [&](auto zero) {
    using T = decltype(zero);
    RunCmpSelCase<T>(c, src0, src1, sel, dst);
  });
}
