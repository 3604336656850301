// Ascend C Broadcast (high-level API) for the sim: dim 1 ([1] -> [n]) and dim 2 along axis 1
// ([m, 1] -> [m, k]) or axis 0 ([1, k] -> [m, k]), tensors dense in row-major order. The temporary
// buffer is not needed here and left untouched. Also spelled BroadCast. Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {
namespace npurt_detail {

template <typename T, int32_t dim, int32_t axis>
inline void BroadcastImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                          const uint32_t srcShape[dim]) {
  static_assert(dim == 1 || dim == 2, "Broadcast: dim 1 or 2 only");
  static_assert(axis == 0 || (dim == 2 && axis == 1), "Broadcast: axis 0 (dim 1, 2) or 1 (dim 2)");
  const uint32_t rows = dim == 1 ? 1 : dstShape[0];
  const uint32_t cols = dim == 1 ? dstShape[0] : dstShape[1];
  // The source keeps the broadcast axis at 1 and the other one equal to the destination's.
  const bool ok = dim == 1 ? srcShape[0] == 1
                           : (axis == 1 ? srcShape[0] == rows && srcShape[1] == 1 : srcShape[0] == 1 && srcShape[1] == cols);
  if (!ok) Fail("Broadcast: source shape does not broadcast to the destination along axis %d", axis);
  const uint64_t n_src = dim == 1 ? 1 : (axis == 1 ? rows : cols);
  CheckLocal(src.GetPhyAddr(), n_src * sizeof(T), "Broadcast");
  CheckLocal(dst.GetPhyAddr(), uint64_t{rows} * cols * sizeof(T), "Broadcast");
  const T* s = src.GetPhyAddr();
  T* d = dst.GetPhyAddr();
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) d[uint64_t{i} * cols + j] = dim == 1 ? s[0] : (axis == 1 ? s[i] : s[j]);
  }
}

}  // namespace npurt_detail

// With or without the caller's temporary buffer, under both spellings.
#define NPURT_ASCENDC_BROADCAST(Name)                                                                        \
  template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>                              \
  __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,               \
                              const uint32_t dstShape[dim], const uint32_t srcShape[dim],                   \
                              LocalTensor<uint8_t>& /*sharedTmpBuffer*/) {                                  \
    npurt_detail::BroadcastImpl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape);                      \
  }                                                                                                         \
  template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>                              \
  __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,               \
                              const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {                 \
    npurt_detail::BroadcastImpl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape);                      \
  }
NPURT_ASCENDC_BROADCAST(Broadcast)
NPURT_ASCENDC_BROADCAST(BroadCast)
#undef NPURT_ASCENDC_BROADCAST

}  // namespace AscendC
