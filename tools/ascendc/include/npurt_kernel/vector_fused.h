// Ascend C fused element-wise instructions for the sim, count and level-0 (BinaryRepeatParams) forms:
//   AddRelu      dst = max(src0 + src1, 0)
//   SubRelu      dst = max(src0 - src1, 0)
//   FusedMulAdd      dst = src0 * dst + src1
//   FusedMulAddRelu  dst = max(src0 * dst + src1, 0)   (also spelled MulAddRelu)
// Computed as the other vector instructions (half in float, rounded once; the multiply-add fused, one
// rounding in float). Masks, repeats and strides as vector_mask.h describes. Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/compare_select.h"

namespace AscendC {
namespace npurt_detail {

template <typename C>
inline C ReluOf(C v) {
  return v > C(0) ? v : C(0);
}

}  // namespace npurt_detail

#define NPURT_ASCENDC_FUSED(Name, expr)                                                                         \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              const int32_t& count) {                                                          \
    const int32_t n = npurt_detail::CountOf<isSetMask>(count, #Name);                                          \
    if (n < 0) npurt_detail::Fail("%s: negative element count %d", #Name, n);                                  \
    npurt_detail::MaskPlan p = npurt_detail::CountPlan(sizeof(T), static_cast<uint32_t>(n));                   \
    npurt_detail::Level0Ternary(dst, src0, src1, p, BinaryRepeatParams(),                                          \
                            [](auto a, auto b, auto d) { (void)d; return expr; }, #Name);                       \
  }                                                                                                            \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams& rp) { \
    npurt_detail::Level0Ternary(dst, src0, src1,                                                                   \
                            npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, #Name), rp, \
                            [](auto a, auto b, auto d) { (void)d; return expr; }, #Name);                       \
  }                                                                                                            \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              const uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& rp) {  \
    npurt_detail::Level0Ternary(dst, src0, src1,                                                                   \
                            npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, #Name), rp, \
                            [](auto a, auto b, auto d) { (void)d; return expr; }, #Name);                       \
  }
NPURT_ASCENDC_FUSED(AddRelu, npurt_detail::ReluOf(a + b))
NPURT_ASCENDC_FUSED(SubRelu, npurt_detail::ReluOf(a - b))
NPURT_ASCENDC_FUSED(FusedMulAdd, npurt_detail::MulAdd(a, d, b))
NPURT_ASCENDC_FUSED(FusedMulAddRelu, npurt_detail::ReluOf(npurt_detail::MulAdd(a, d, b)))
NPURT_ASCENDC_FUSED(MulAddRelu, npurt_detail::ReluOf(npurt_detail::MulAdd(a, d, b)))
#undef NPURT_ASCENDC_FUSED

}  // namespace AscendC
