// Test kernel of the level-0 reductions: runs the one reduction a VecCase (vec_case.h, VecReduceOp)
// names on src0, its mask given the way the case says, into dst (which holds its initial contents).
#include "kernel_operator.h"
#include "vec_case.h"
#include "vec_mask_forms.h"

namespace {

using AscendC::LocalTensor;

template <typename T>
__aicore__ inline void RunReduce(const VecCase& c, const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<T>& w) {
  const int32_t rep = static_cast<int32_t>(c.repeat);
  const int32_t dr = static_cast<int32_t>(c.dst_rep), sb = static_cast<int32_t>(c.src0_blk),
                sr = static_cast<int32_t>(c.src0_rep);
  const auto order = static_cast<AscendC::ReduceOrder>(c.order);
  VecWithMask<T, int32_t>(c, [&](auto set, auto m) {
    constexpr bool kSet = decltype(set)::value;
    using RT = AscendC::ReduceType;
    if (c.by_type != 0) {  // the same reductions under their ReduceType names (mask before repeatTime)
      switch (c.op) {
        case kRedWholeSum: AscendC::ReduceRepeat<RT::SUM, T, T, kSet>(d, s, m, rep, dr, sb, sr); break;
        case kRedWholeMax: AscendC::ReduceRepeat<RT::MAX, T, T, kSet>(d, s, m, rep, dr, sb, sr, order); break;
        case kRedWholeMin: AscendC::ReduceRepeat<RT::MIN, T, T, kSet>(d, s, m, rep, dr, sb, sr, order); break;
        case kRedBlockSum: AscendC::ReduceDataBlock<RT::SUM, T, T, kSet>(d, s, m, rep, dr, sb, sr); break;
        case kRedBlockMax: AscendC::ReduceDataBlock<RT::MAX, T, T, kSet>(d, s, m, rep, dr, sb, sr); break;
        case kRedBlockMin: AscendC::ReduceDataBlock<RT::MIN, T, T, kSet>(d, s, m, rep, dr, sb, sr); break;
        case kRedPairSum: AscendC::ReducePairElem<RT::SUM, T, T, kSet>(d, s, m, rep, dr, sb, sr); break;
        default: trap();
      }
      return;
    }
    switch (c.op) {
      case kRedWholeSum: AscendC::WholeReduceSum<T, kSet>(d, s, m, rep, dr, sb, sr); break;
      case kRedWholeMax: AscendC::WholeReduceMax<T, kSet>(d, s, m, rep, dr, sb, sr, order); break;
      case kRedWholeMin: AscendC::WholeReduceMin<T, kSet>(d, s, m, rep, dr, sb, sr, order); break;
      case kRedBlockSum: AscendC::BlockReduceSum<T, kSet>(d, s, rep, m, dr, sb, sr); break;
      case kRedBlockMax: AscendC::BlockReduceMax<T, kSet>(d, s, rep, m, dr, sb, sr); break;
      case kRedBlockMin: AscendC::BlockReduceMin<T, kSet>(d, s, rep, m, dr, sb, sr); break;
      case kRedPairSum: AscendC::PairReduceSum<T, kSet>(d, s, rep, m, dr, sb, sr); break;
      case kRedSum: AscendC::ReduceSum<T>(d, s, w, m, rep, sr); break;
      case kRedMax: AscendC::ReduceMax<T>(d, s, w, m, rep, sr, c.order != 0); break;
      case kRedMin: AscendC::ReduceMin<T>(d, s, w, m, rep, sr, c.order != 0); break;
      case kRedRepeatSum:
        if constexpr (std::is_same<decltype(m), int32_t>::value) {
          AscendC::RepeatReduceSum<T, kSet>(d, s, rep, m, 1, sb, dr, sr);
        } else {
          trap();  // no bit-mask form
        }
        break;
      default: trap();
    }
  });
}

__aicore__ inline uint32_t RedBytes(uint32_t n, uint32_t size) { return (n * size + 31) / 32 * 32; }

template <typename T>
__aicore__ inline void RunReduceCase(const VecCase& c, GM_ADDR src, GM_ADDR dst) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bd, bs, bw;
  pipe.InitBuffer(bd, RedBytes(c.n_dst, sizeof(T)));
  pipe.InitBuffer(bs, RedBytes(c.n_src0, sizeof(T)));
  pipe.InitBuffer(bw, 4096);
  AscendC::GlobalTensor<T> gd, gs;
  gd.SetGlobalBuffer((__gm__ T*)dst, c.n_dst);
  gs.SetGlobalBuffer((__gm__ T*)src, c.n_src0);
  LocalTensor<T> ld = bd.Get<T>(), ls = bs.Get<T>(), lw = bw.Get<T>();
  AscendC::DataCopy(ld, gd, c.n_dst);
  AscendC::DataCopy(ls, gs, c.n_src0);
  RunReduce<T>(c, ld, ls, lw);
  AscendC::DataCopy(gd, ld, c.n_dst);
}

}  // namespace

extern "C" __global__ __aicore__ void vec_reduce(GM_ADDR src, GM_ADDR dst, GM_ADDR tc) {
  const VecCase c = *reinterpret_cast<const VecCase*>(tc);
  if (c.dtype == kVecF16) {
    RunReduceCase<half>(c, src, dst);
  } else {
    RunReduceCase<float>(c, src, dst);
  }
}

// Count-form ReduceSum of n floats into out[0]; out[1] = GetReduceRepeatSumSpr<float>() after it.
extern "C" __global__ __aicore__ void vec_reduce_sum_spr(GM_ADDR src, GM_ADDR out, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd, bw;
  pipe.InitBuffer(bs, RedBytes(n, 4));
  pipe.InitBuffer(bd, 32);
  pipe.InitBuffer(bw, RedBytes(n, 4));
  AscendC::GlobalTensor<float> gs, gd;
  gs.SetGlobalBuffer((__gm__ float*)src, n);
  gd.SetGlobalBuffer((__gm__ float*)out, 8);
  LocalTensor<float> ls = bs.Get<float>(), ld = bd.Get<float>(), lw = bw.Get<float>();
  AscendC::DataCopy(ls, gs, n);
  AscendC::Duplicate(ld, 0.0f, 8);
  AscendC::ReduceSum<float>(ld, ls, lw, static_cast<int32_t>(n));
  ld.SetValue(1, AscendC::GetReduceRepeatSumSpr<float>());
  AscendC::DataCopy(gd, ld, 8);
}
