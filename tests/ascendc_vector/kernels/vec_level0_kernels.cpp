// Test kernel of the level-0 vector instructions: runs the one instruction a VecCase (vec_case.h) names,
// with its mask given the way the case says, on operands staged whole through the unified buffer.
#include "kernel_operator.h"
#include "vec_case.h"
#include "vec_mask_forms.h"

namespace {

using AscendC::LocalTensor;

template <typename T>
constexpr bool kVecIsInt = std::is_integral<T>::value;

// The count form (Op(dst, src..., count)) of the case's op; with the register form, isSetMask = false
// and the count in the mask register (counter mode). Returns false for an op without a count form.
template <typename T>
__aicore__ inline bool RunCountForm(const VecCase& c, const LocalTensor<T>& d, const LocalTensor<T>& a,
                                    const LocalTensor<T>& b) {
  const bool reg = c.mask_form == kMaskCountFormRegister;
  const int32_t n = reg ? 1 : static_cast<int32_t>(c.count);  // ignored with the register form
  if (reg) {
    AscendC::SetMaskCount();
    AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, c.count);
  }
  const T s = static_cast<T>(c.scalar);
  bool done = true;
  auto run = [&](auto set) {
    constexpr bool kSet = decltype(set)::value;
    switch (c.op) {
      case kVecAdd: AscendC::Add<T, kSet>(d, a, b, n); break;
      case kVecSub: AscendC::Sub<T, kSet>(d, a, b, n); break;
      case kVecMul: AscendC::Mul<T, kSet>(d, a, b, n); break;
      case kVecMax: AscendC::Max<T, kSet>(d, a, b, n); break;
      case kVecMin: AscendC::Min<T, kSet>(d, a, b, n); break;
      case kVecAdds: AscendC::Adds<T, kSet>(d, a, s, n); break;
      case kVecMuls: AscendC::Muls<T, kSet>(d, a, s, n); break;
      case kVecMaxs: AscendC::Maxs<T, kSet>(d, a, s, n); break;
      case kVecMins: AscendC::Mins<T, kSet>(d, a, s, n); break;
      case kVecAbs: AscendC::Abs<T, kSet>(d, a, n); break;
      case kVecRelu: AscendC::Relu<T, kSet>(d, a, n); break;
      case kVecDuplicate: AscendC::Duplicate<T, kSet>(d, s, n); break;
      case kVecAddRelu: AscendC::AddRelu<T, kSet>(d, a, b, n); break;
      case kVecSubRelu: AscendC::SubRelu<T, kSet>(d, a, b, n); break;
      default: done = false;
    }
  };
  if (reg) {
    run(std::false_type{});
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
  } else {
    run(std::true_type{});
  }
  return done;
}

template <typename T>
__aicore__ inline void RunOp(const VecCase& c, const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b) {
  const uint8_t rep = static_cast<uint8_t>(c.repeat);
  const AscendC::BinaryRepeatParams bp(c.dst_blk, c.src0_blk, c.src1_blk, c.dst_rep, c.src0_rep, c.src1_rep);
  const AscendC::UnaryRepeatParams up(c.dst_blk, c.src0_blk, c.dst_rep, c.src0_rep);
  const T s = static_cast<T>(c.scalar);
  if (c.mask_form == kMaskCountForm || c.mask_form == kMaskCountFormRegister) {
    if (!RunCountForm(c, d, a, b)) trap();  // the count-form cases cover the ops RunCountForm has
    return;
  }
#define VEC_BINARY(Name) VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Name<T, decltype(set)::value>(d, a, b, m, rep, bp); })
#define VEC_SCALAR(Name) VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Name<T, decltype(set)::value>(d, a, s, m, rep, up); })
#define VEC_UNARY(Name) VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Name<T, decltype(set)::value>(d, a, m, rep, up); })
  switch (c.op) {
    case kVecAdd: VEC_BINARY(Add); return;
    case kVecSub: VEC_BINARY(Sub); return;
    case kVecMul: VEC_BINARY(Mul); return;
    case kVecMax: VEC_BINARY(Max); return;
    case kVecMin: VEC_BINARY(Min); return;
    case kVecAdds: VEC_SCALAR(Adds); return;
    case kVecMuls: VEC_SCALAR(Muls); return;
    case kVecMaxs: VEC_SCALAR(Maxs); return;
    case kVecMins: VEC_SCALAR(Mins); return;
    case kVecAbs: VEC_UNARY(Abs); return;
    case kVecRelu: VEC_UNARY(Relu); return;
    case kVecDuplicate:
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) {
        AscendC::Duplicate<T, decltype(set)::value>(d, s, m, rep, static_cast<uint16_t>(c.dst_blk),
                                                    static_cast<uint8_t>(c.dst_rep));
      });
      return;
    case kVecAddRelu: VEC_BINARY(AddRelu); return;
    case kVecSubRelu: VEC_BINARY(SubRelu); return;
    case kVecCopy: {
      const AscendC::CopyRepeatParams cp(static_cast<uint16_t>(c.dst_blk), static_cast<uint16_t>(c.src0_blk),
                                         static_cast<uint16_t>(c.dst_rep), static_cast<uint16_t>(c.src0_rep));
      VecWithMask<T, uint64_t>(c, [&](auto set, auto m) { AscendC::Copy<T, decltype(set)::value>(d, a, m, rep, cp); });
      return;
    }
    default: break;
  }
  if constexpr (kVecIsInt<T>) {
    switch (c.op) {
      case kVecAnd: VEC_BINARY(And); return;
      case kVecOr: VEC_BINARY(Or); return;
      case kVecNot: VEC_UNARY(Not); return;
      default: break;
    }
  } else {
    switch (c.op) {
      case kVecDiv: VEC_BINARY(Div); return;
      case kVecMulAddDst: VEC_BINARY(MulAddDst); return;
      case kVecFusedMulAdd: VEC_BINARY(FusedMulAdd); return;
      case kVecFusedMulAddRelu: VEC_BINARY(FusedMulAddRelu); return;
      case kVecLeakyRelu: VEC_SCALAR(LeakyRelu); return;
      case kVecExp: VEC_UNARY(Exp); return;
      case kVecLn: VEC_UNARY(Ln); return;
      case kVecSqrt: VEC_UNARY(Sqrt); return;
      case kVecRsqrt: VEC_UNARY(Rsqrt); return;
      case kVecReciprocal: VEC_UNARY(Reciprocal); return;
      default: break;
    }
  }
#undef VEC_BINARY
#undef VEC_SCALAR
#undef VEC_UNARY
  trap();  // an operation the type does not have
}

// 32-byte aligned staging size.
__aicore__ inline uint32_t VecBytes(uint32_t n, uint32_t size) { return (n * size + 31) / 32 * 32; }

template <typename T>
__aicore__ inline void RunCase(const VecCase& c, GM_ADDR src0, GM_ADDR src1, GM_ADDR dst) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bd, b0, b1;
  pipe.InitBuffer(bd, VecBytes(c.n_dst, sizeof(T)));
  pipe.InitBuffer(b0, VecBytes(c.n_src0, sizeof(T)));
  pipe.InitBuffer(b1, VecBytes(c.n_src1, sizeof(T)));
  AscendC::GlobalTensor<T> gd, g0, g1;
  gd.SetGlobalBuffer((__gm__ T*)dst, c.n_dst);
  g0.SetGlobalBuffer((__gm__ T*)src0, c.n_src0);
  g1.SetGlobalBuffer((__gm__ T*)src1, c.n_src1);
  LocalTensor<T> ld = bd.Get<T>(), l0 = b0.Get<T>(), l1 = b1.Get<T>();
  AscendC::DataCopy(ld, gd, c.n_dst);
  AscendC::DataCopy(l0, g0, c.n_src0);
  AscendC::DataCopy(l1, g1, c.n_src1);
  RunOp<T>(c, ld, l0, l1);
  AscendC::DataCopy(gd, ld, c.n_dst);
}

}  // namespace

// dst holds the destination's initial contents on entry (elements outside the mask must survive).
extern "C" __global__ __aicore__ void vec_level0(GM_ADDR src0, GM_ADDR src1, GM_ADDR dst, GM_ADDR tc) {
  const VecCase c = *reinterpret_cast<const VecCase*>(tc);
  VecForDtype(c.dtype, [&](auto zero) {
    using T = decltype(zero);
    RunCase<T>(c, src0, src1, dst);
  });
}
