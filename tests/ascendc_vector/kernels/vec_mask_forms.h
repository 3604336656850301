// The test kernels' helpers. VecStage copies n elements of global memory into a unified-buffer tensor of
// its own. VecForDtype calls f with a value of the case's element type. VecWithMask
// calls an instruction with the mask form a VecCase names (vec_case.h):
// f(isSetMask as std::bool_constant, the mask argument), with the mask register set and restored around
// the register forms. Cont: the type of the instruction's continuous mask (uint64_t, or int32_t for the
// reductions).
#pragma once

#include "kernel_operator.h"
#include "vec_case.h"

template <typename T, typename Cont, typename F>
__aicore__ inline void VecWithMask(const VecCase& c, F f) {
  switch (c.mask_form) {
    case kMaskBits: f(std::true_type{}, static_cast<const uint64_t*>(c.mask)); break;
    case kMaskContinuous: f(std::true_type{}, static_cast<Cont>(c.count)); break;
    case kMaskRegister:
      AscendC::SetVectorMask<T>(c.mask[1], c.mask[0]);
      f(std::false_type{}, static_cast<Cont>(AscendC::MASK_PLACEHOLDER));
      AscendC::ResetMask();
      break;
    case kMaskCounterRegister:
      AscendC::SetMaskCount();
      AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, c.count);
      f(std::false_type{}, static_cast<Cont>(AscendC::MASK_PLACEHOLDER));
      AscendC::SetMaskNorm();
      AscendC::ResetMask();
      break;
    case kMaskCounterArg:
      AscendC::SetMaskCount();
      f(std::true_type{}, static_cast<Cont>(c.count));
      AscendC::SetMaskNorm();
      AscendC::ResetMask();
      break;
    default: trap();
  }
}

template <typename F>
__aicore__ inline void VecForDtype(uint32_t dtype, F f) {
  switch (dtype) {
    case kVecF16: f(half(0)); break;
    case kVecF32: f(0.0f); break;
    case kVecI16: f(int16_t(0)); break;
    case kVecI32: f(int32_t(0)); break;
    default: trap();
  }
}

using VecBuf = AscendC::TBuf<AscendC::TPosition::VECCALC>;

template <typename T>
__aicore__ inline AscendC::LocalTensor<T> VecStage(AscendC::TPipe& pipe, VecBuf& buf, GM_ADDR gm, uint32_t n) {
  pipe.InitBuffer(buf, (n * sizeof(T) + 31) / 32 * 32);
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm), n);
  AscendC::LocalTensor<T> l = buf.Get<T>();
  AscendC::DataCopy(l, g, n);
  return l;
}

template <typename T>
__aicore__ inline void VecUnstage(GM_ADDR gm, const AscendC::LocalTensor<T>& l, uint32_t n) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm), n);
  AscendC::DataCopy(g, l, n);
}
