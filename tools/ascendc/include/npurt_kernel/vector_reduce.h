// Ascend C reductions in their level-0 (mask / repeat) form for the sim (half and float):
//   WholeReduceSum / WholeReduceMax / WholeReduceMin   one result per repeat (RepeatReduceSum: WholeReduceSum
//                                                       with a continuous mask) (Max/Min with the element's
//                                                       index inside the repeat, laid out as ReduceOrder says)
//   BlockReduceSum / BlockReduceMax / BlockReduceMin   one result per 32-byte block: 8 per repeat
//   PairReduceSum                                      one result per pair of elements: half a repeat
//   ReduceSum / ReduceMax / ReduceMin (mask, repeatTimes, srcRepStride)   one result for all repeats
// Masks and strides as vector_mask.h describes. Sums add neighbours pairwise, as a binary tree over the
// lanes of a repeat (inactive lanes add 0), rounding every addition to the element type; half sums
// saturate at +-65504 instead of overflowing, as the API reference describes for BlockReduceSum.
// ReduceSum sums the repeat sums the same way, 128 (64) at a time, until one is left. Max/Min
// indices are those of the first extreme element. An output element whose inputs are all outside the
// mask (a block or pair of BlockReduce*/PairReduceSum) is left as it was. Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/vector_level0.h"

namespace AscendC {

// Where WholeReduceMax/Min put the value and the index of each repeat.
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

namespace npurt_detail {

template <typename T>
inline void CheckReduceType(const char* what) {
  if (!std::is_same<T, half>::value && !std::is_same<T, float>::value) Fail("%s: half or float only", what);
}

// a + b rounded to T; half saturates at the largest finite value.
template <typename T>
inline T AddRounded(T a, T b) {
  if constexpr (std::is_same<T, half>::value) {
    const double s = static_cast<double>(a) + static_cast<double>(b);  // exact for two halves
    if (s > 65504.0) return static_cast<half>(65504.0f);
    if (s < -65504.0) return static_cast<half>(-65504.0f);
    return static_cast<half>(s);
  } else {
    return static_cast<T>(a + b);
  }
}

// Pairwise (binary tree) sum of v[0 .. n), n a power of two; v is overwritten.
template <typename T>
inline T TreeSum(T* v, uint32_t n) {
  for (uint32_t w = n / 2; w > 0; w /= 2) {
    for (uint32_t j = 0; j < w; ++j) v[j] = AddRounded(v[2 * j], v[2 * j + 1]);
  }
  return v[0];
}

// The elements of repeat r of src: vals[k] (0 where inactive) and act[k]; returns how many are active.
template <typename T>
inline uint32_t ReadRepeat(const MaskPlan& p, const LocalTensor<T>& src, Stride s, uint32_t r, T* vals, bool* act) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < p.per_repeat; ++k) {
    act[k] = Active(p, r, k);
    vals[k] = act[k] ? SrcAt(src, s, r, k) : T(0);
    n += act[k] ? 1 : 0;
  }
  return n;
}

// Index of the first greatest (max) / least (!max) active element of vals[first .. first + n); -1 if none.
template <typename T>
inline int32_t Extreme(const T* vals, const bool* act, uint32_t first, uint32_t n, bool max) {
  int32_t best = -1;
  for (uint32_t k = first; k < first + n; ++k) {
    if (!act[k]) continue;
    const float v = static_cast<float>(vals[k]);
    if (best < 0 || (max ? v > static_cast<float>(vals[best]) : v < static_cast<float>(vals[best]))) {
      best = static_cast<int32_t>(k);
    }
  }
  return best;
}

template <typename T>
inline void WholeReduceSumImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool set_mask, MaskArg m,
                               int32_t repeat_times, int32_t dst_rep_stride, int32_t src_blk_stride,
                               int32_t src_rep_stride) {
  const char* what = "WholeReduceSum";
  CheckReduceType<T>(what);
  const MaskPlan p = PlanFor<T>(set_mask, m, repeat_times, what);
  const Stride ss{static_cast<uint32_t>(src_blk_stride), static_cast<uint32_t>(src_rep_stride)};
  CheckPlanned(src.GetPhyAddr(), p, ss, what);
  if (p.repeats > 0) CheckLocal(dst.GetPhyAddr(), (uint64_t{p.repeats - 1} * dst_rep_stride + 1) * sizeof(T), what);
  T vals[128];
  bool act[128];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    if (ReadRepeat(p, src, ss, r, vals, act) == 0) Fail("%s: the mask selects no element", what);
    dst.GetPhyAddr()[static_cast<uint64_t>(r) * dst_rep_stride] = TreeSum(vals, p.per_repeat);
  }
}

// Stores an index as the hardware does: in an element slot of T, bit for bit (uint16 / uint32).
template <typename T>
inline void PutIndex(T* slot, uint32_t index) {
  if constexpr (sizeof(T) == 2) {
    const uint16_t v = static_cast<uint16_t>(index);
    std::memcpy(slot, &v, 2);
  } else {
    std::memcpy(slot, &index, 4);
  }
}

template <typename T>
inline void WholeReduceExtremeImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool set_mask, MaskArg m,
                                   int32_t repeat_times, int32_t dst_rep_stride, int32_t src_blk_stride,
                                   int32_t src_rep_stride, ReduceOrder order, bool max, const char* what) {
  CheckReduceType<T>(what);
  const MaskPlan p = PlanFor<T>(set_mask, m, repeat_times, what);
  const Stride ss{static_cast<uint32_t>(src_blk_stride), static_cast<uint32_t>(src_rep_stride)};
  CheckPlanned(src.GetPhyAddr(), p, ss, what);
  // Bytes of one repeat's result: value and index, value only, or a uint32 index only.
  const uint64_t unit = order == ReduceOrder::ORDER_ONLY_VALUE ? sizeof(T) : order == ReduceOrder::ORDER_ONLY_INDEX ? 4 : 2 * sizeof(T);
  if (p.repeats > 0) CheckLocal(dst.GetPhyAddr(), (uint64_t{p.repeats - 1} * dst_rep_stride + 1) * unit, what);
  auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  T vals[128];
  bool act[128];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    ReadRepeat(p, src, ss, r, vals, act);
    const int32_t best = Extreme(vals, act, 0, p.per_repeat, max);
    if (best < 0) Fail("%s: the mask selects no element", what);
    T* slot = reinterpret_cast<T*>(out + static_cast<uint64_t>(r) * dst_rep_stride * unit);
    switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX: slot[0] = vals[best]; PutIndex(slot + 1, static_cast<uint32_t>(best)); break;
      case ReduceOrder::ORDER_INDEX_VALUE: PutIndex(slot, static_cast<uint32_t>(best)); slot[1] = vals[best]; break;
      case ReduceOrder::ORDER_ONLY_VALUE: slot[0] = vals[best]; break;
      default: {
        const uint32_t index = static_cast<uint32_t>(best);
        std::memcpy(slot, &index, 4);
      }
    }
  }
}

// kind: 0 sum, 1 max, 2 min over each group of `group` lanes (a block: BlockReduce*; two: PairReduceSum);
// group result g of repeat r goes to dst[r * dst_rep_elems + g].
template <typename T>
inline void GroupReduceImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool set_mask, MaskArg m,
                            int32_t repeat_times, uint32_t dst_rep_elems, int32_t src_blk_stride, int32_t src_rep_stride,
                            uint32_t group, int kind, const char* what) {
  CheckReduceType<T>(what);
  const MaskPlan p = PlanFor<T>(set_mask, m, repeat_times, what);
  const Stride ss{static_cast<uint32_t>(src_blk_stride), static_cast<uint32_t>(src_rep_stride)};
  CheckPlanned(src.GetPhyAddr(), p, ss, what);
  const uint32_t groups = p.per_repeat / group;
  if (p.repeats > 0) CheckLocal(dst.GetPhyAddr(), (uint64_t{p.repeats - 1} * dst_rep_elems + groups) * sizeof(T), what);
  T vals[128];
  bool act[128];
  T out[128];
  bool has[128];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    ReadRepeat(p, src, ss, r, vals, act);
    for (uint32_t g = 0; g < groups; ++g) {
      const int32_t best = kind == 0 ? -1 : Extreme(vals, act, g * group, group, kind == 1);
      has[g] = false;
      for (uint32_t j = 0; j < group; ++j) has[g] = has[g] || act[g * group + j];
      out[g] = kind == 0 ? TreeSum(vals + g * group, group) : best >= 0 ? vals[best] : T(0);
    }
    T* d = dst.GetPhyAddr() + static_cast<uint64_t>(r) * dst_rep_elems;
    for (uint32_t g = 0; g < groups; ++g) {
      if (has[g]) d[g] = out[g];
    }
  }
}

}  // namespace npurt_detail

// ---- WholeReduce -------------------------------------------------------------------------------------
#define NPURT_ASCENDC_WHOLE_EXTREME(Name, is_max, MaskParam)                                                    \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskParam,                 \
                              const int32_t repeatTimes, const int32_t dstRepStride, const int32_t srcBlkStride, \
                              const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { \
    npurt_detail::WholeReduceExtremeImpl(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTimes,         \
                                         dstRepStride, srcBlkStride, srcRepStride, order, is_max, #Name);      \
  }
#define NPURT_ASCENDC_WHOLE_REDUCE(MaskParam)                                                                   \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskParam,       \
                                        const int32_t repeatTimes, const int32_t dstRepStride,                 \
                                        const int32_t srcBlkStride, const int32_t srcRepStride) {              \
    npurt_detail::WholeReduceSumImpl(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTimes, dstRepStride, \
                                     srcBlkStride, srcRepStride);                                              \
  }                                                                                                            \
  NPURT_ASCENDC_WHOLE_EXTREME(WholeReduceMax, true, MaskParam)                                                 \
  NPURT_ASCENDC_WHOLE_EXTREME(WholeReduceMin, false, MaskParam)
NPURT_ASCENDC_WHOLE_REDUCE(const uint64_t mask[])
NPURT_ASCENDC_WHOLE_REDUCE(const int32_t mask)
#undef NPURT_ASCENDC_WHOLE_REDUCE
#undef NPURT_ASCENDC_WHOLE_EXTREME

// WholeReduceSum with a continuous mask only (dstBlkStride unused, as the reference says).
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t /*dstBlkStride*/, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride) {
  npurt_detail::WholeReduceSumImpl(dst, src, isSetMask, npurt_detail::MaskOf(static_cast<uint64_t>(mask)), repeatTime,
                                   dstRepStride, srcBlkStride, srcRepStride);
}

// ---- BlockReduce and PairReduceSum (repeat before mask, as the API has them) ------------------------------
// dstRepStride: BlockReduce* in 8-element units (one repeat's results), PairReduceSum in 128 bytes.
#define NPURT_ASCENDC_GROUP_REDUCE(Name, group_expr, rep_elems_expr, kind, MaskParam)                          \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes, \
                              MaskParam, const int32_t dstRepStride, const int32_t srcBlkStride,               \
                              const int32_t srcRepStride) {                                                    \
    npurt_detail::GroupReduceImpl(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTimes,                \
                                  static_cast<uint32_t>(dstRepStride) * (rep_elems_expr), srcBlkStride,        \
                                  srcRepStride, group_expr, kind, #Name);                                      \
  }
#define NPURT_ASCENDC_GROUP_REDUCES(MaskParam)                                                                \
  NPURT_ASCENDC_GROUP_REDUCE(BlockReduceSum, 32 / sizeof(T), 8, 0, MaskParam)                                 \
  NPURT_ASCENDC_GROUP_REDUCE(BlockReduceMax, 32 / sizeof(T), 8, 1, MaskParam)                                 \
  NPURT_ASCENDC_GROUP_REDUCE(BlockReduceMin, 32 / sizeof(T), 8, 2, MaskParam)                                 \
  NPURT_ASCENDC_GROUP_REDUCE(PairReduceSum, 2, 128 / sizeof(T), 0, MaskParam)
NPURT_ASCENDC_GROUP_REDUCES(const uint64_t mask[])
NPURT_ASCENDC_GROUP_REDUCES(const int32_t mask)
#undef NPURT_ASCENDC_GROUP_REDUCES
#undef NPURT_ASCENDC_GROUP_REDUCE

// ---- ReduceSum / ReduceMax / ReduceMin over repeats ------------------------------------------------------
namespace npurt_detail {

// kind 0: dst[0] = sum; 1/2: dst[0] = max/min, with calIndex dst[1] = its index (r * elements per repeat + k).
template <typename T>
inline void ReduceAllImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskArg m, int32_t repeat_times,
                          int32_t src_rep_stride, bool cal_index, int kind, const char* what) {
  CheckReduceType<T>(what);
  const MaskPlan p = PlanFor<T>(true, m, repeat_times, what);
  const Stride ss{1, static_cast<uint32_t>(src_rep_stride)};
  CheckPlanned(src.GetPhyAddr(), p, ss, what);
  CheckLocal(dst.GetPhyAddr(), (cal_index ? 2 : 1) * sizeof(T), what);
  T vals[128];
  bool act[128];
  if (kind == 0) {
    // Round 1: one sum per repeat; then the sums, per_repeat at a time, until one is left.
    T sums[256];
    uint32_t n = 0;
    for (uint32_t r = 0; r < p.repeats; ++r) {
      ReadRepeat(p, src, ss, r, vals, act);
      sums[n++] = TreeSum(vals, p.per_repeat);
    }
    while (n > 1) {
      uint32_t m2 = 0;
      for (uint32_t i = 0; i < n; i += p.per_repeat) {
        for (uint32_t k = 0; k < p.per_repeat; ++k) vals[k] = i + k < n ? sums[i + k] : T(0);
        sums[m2++] = TreeSum(vals, p.per_repeat);
      }
      n = m2;
    }
    dst.GetPhyAddr()[0] = n == 1 ? sums[0] : T(0);
    return;
  }
  bool found = false;
  T best{};
  uint32_t best_index = 0;
  for (uint32_t r = 0; r < p.repeats; ++r) {
    ReadRepeat(p, src, ss, r, vals, act);
    const int32_t k = Extreme(vals, act, 0, p.per_repeat, kind == 1);
    if (k < 0) continue;
    const float v = static_cast<float>(vals[k]);
    if (!found || (kind == 1 ? v > static_cast<float>(best) : v < static_cast<float>(best))) {
      best = vals[k];
      best_index = r * p.per_repeat + static_cast<uint32_t>(k);
      found = true;
    }
  }
  if (!found) Fail("%s: the mask selects no element", what);
  dst.GetPhyAddr()[0] = best;
  if (cal_index) PutIndex(dst.GetPhyAddr() + 1, best_index);
}

}  // namespace npurt_detail

#define NPURT_ASCENDC_REDUCE_ALL(MaskParam)                                                                         \
  template <typename T>                                                                                            \
  __aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/, \
                                   MaskParam, const int32_t repeatTimes, const int32_t srcRepStride) {             \
    npurt_detail::ReduceAllImpl(dst, src, npurt_detail::MaskOf(mask), repeatTimes, srcRepStride, false, 0, "ReduceSum"); \
  }                                                                                                                \
  template <typename T>                                                                                            \
  __aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/, \
                                   MaskParam, const int32_t repeatTimes, const int32_t srcRepStride, bool calIndex = 0) { \
    npurt_detail::ReduceAllImpl(dst, src, npurt_detail::MaskOf(mask), repeatTimes, srcRepStride, calIndex, 1, "ReduceMax"); \
  }                                                                                                                \
  template <typename T>                                                                                            \
  __aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/, \
                                   MaskParam, const int32_t repeatTimes, const int32_t srcRepStride, bool calIndex = 0) { \
    npurt_detail::ReduceAllImpl(dst, src, npurt_detail::MaskOf(mask), repeatTimes, srcRepStride, calIndex, 2, "ReduceMin"); \
  }
NPURT_ASCENDC_REDUCE_ALL(const uint64_t mask[])
NPURT_ASCENDC_REDUCE_ALL(const int32_t mask)
#undef NPURT_ASCENDC_REDUCE_ALL

}  // namespace AscendC
#include "npurt_kernel/reduce_by_type.h"
