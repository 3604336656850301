// Ascend C Cast in its level-0 (mask / repeat) form for the sim:
//   Cast<T, U, isSetMask>(dst, src, roundMode, mask[] or mask, repeatTimes, UnaryRepeatParams)
// A repeat covers 256 bytes of the wider of the two types (64 elements between half and float), so the
// mask counts elements of the wider type; each operand's blocks are its own 32-byte blocks (a half
// source of a half -> float repeat reads 4 blocks, srcRepStride 4 for contiguous data). Values and
// rounding as the count form (cast_reduce.h). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/cast_reduce.h"
#include "npurt_kernel/vector_level0.h"

namespace AscendC {

namespace npurt_detail {
// Nibble index of element k of repeat r of an int4 operand: 64 elements to a 32-byte block.
inline uint64_t Int4Offset(Stride s, uint32_t r, uint32_t k) {
  return uint64_t{r} * s.repeat * 64 + uint64_t{k / 64} * s.block * 64 + k % 64;
}
// Level-0 Cast with an int4b_t side (the mask counts elements of the half side, 128 a repeat). All of a
// repeat's sources are read before it writes.
template <typename T, typename U>
inline void CastInt4Level0(const LocalTensor<T>& dst, const LocalTensor<U>& src, const MaskPlan& p, Stride ds,
                           Stride ss, RoundMode mode) {
  CheckInt4Cast<T, U>();
  for (uint32_t r = 0; r < p.repeats; ++r) {
    uint8_t staged[256];
    uint64_t offs[128];
    uint32_t n = 0;
    for (uint32_t k = 0; k < p.per_repeat; ++k) {
      if (!Active(p, r, k)) continue;
      const uint64_t si = kIsInt4<U> ? Int4Offset(ss, r, k) : ElemOffset(ss, r, k, sizeof(U));
      const uint64_t di = kIsInt4<T> ? Int4Offset(ds, r, k) : ElemOffset(ds, r, k, sizeof(T));
      CheckLocal(reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) + (kIsInt4<U> ? si / 2 : si * sizeof(U)), 1, "Cast");
      CheckLocal(reinterpret_cast<const uint8_t*>(dst.GetPhyAddr()) + (kIsInt4<T> ? di / 2 : di * sizeof(T)), 1, "Cast");
      CastInt4Elem<T, U>(staged, n, src.GetPhyAddr(), si, mode);  // into staging slot n, as T
      offs[n++] = di;
    }
    for (uint32_t i = 0; i < n; ++i) {
      if constexpr (kIsInt4<T>) {
        PutInt4(dst.GetPhyAddr(), offs[i], GetInt4(staged, i));
      } else {
        dst.GetPhyAddr()[offs[i]] = reinterpret_cast<const T*>(staged)[i];
      }
    }
  }
}
}  // namespace npurt_detail

#define NPURT_ASCENDC_CAST_L0(MaskParam)                                                                       \
  template <typename T, typename U, bool isSetMask = true>                                                    \
  __aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, \
                              MaskParam, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {  \
    constexpr uint32_t kMaskBytes = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);                           \
    const npurt_detail::MaskArg m = npurt_detail::MaskOf(mask);                                               \
    const npurt_detail::MaskPlan p = npurt_detail::PlanMask(kMaskBytes, isSetMask, m.arr, m.continuous, repeatTimes, "Cast"); \
    const npurt_detail::Stride ds{repeatParams.dstBlkStride, repeatParams.dstRepStride},                      \
        ss{repeatParams.srcBlkStride, repeatParams.srcRepStride};                                             \
    if constexpr (npurt_detail::kIsInt4<T> || npurt_detail::kIsInt4<U>) {                                     \
      npurt_detail::CastInt4Level0<T, U>(dst, src, p, ds, ss, roundMode);                                     \
    }                                                                                                         \
    else {                                                                                                    \
      npurt_detail::CheckPlanned(dst.GetPhyAddr(), p, ds, "Cast");                                            \
      npurt_detail::CheckPlanned(src.GetPhyAddr(), p, ss, "Cast");                                            \
      npurt_detail::Level0Write<T, false>(p, dst, ds, [&](uint32_t r, uint32_t k) {                           \
        return npurt_detail::CastOne<T>(npurt_detail::SrcAt(src, ss, r, k), roundMode);                       \
      });                                                                                                     \
    }                                                                                                         \
  }
NPURT_ASCENDC_CAST_L0(const uint64_t mask[])
NPURT_ASCENDC_CAST_L0(const uint64_t mask)
#undef NPURT_ASCENDC_CAST_L0

}  // namespace AscendC
