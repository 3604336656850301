// Ascend C's pattern reductions for the sim: ReduceMax, ReduceMin, ReduceSum, ReduceMean, ReduceProd,
// ReduceAny, ReduceAll over a two-dimensional source, the pattern naming which axis goes
// (Pattern::Reduce::AR: each row of the first axis reduced to one value; RA: each column). Part of
// kernel_operator.h; the host tmp sizes are tiling/adv_reduce_tiling.h.
//
// srcShape is {first, last} (the real lengths). With srcInnerPad (the only layout Atlas A2 takes) each row
// of the source lies in the unified buffer padded to 32 bytes; without it the rows are packed. AR writes
// `first` results packed, RA writes `last`. Each result is computed in double from the source elements and
// rounded once (max/min/any/all are exact; sums and products may differ from the device's tree order by an
// ulp). sharedTmpBuffer is accepted and left untouched; elements past the results are left as they were.
#pragma once

#include <vector>

#include "npurt_kernel/adv_math.h"

namespace AscendC {

namespace Pattern {
namespace Reduce {
struct AR {
  static constexpr bool kReduceLast = true;
};
struct RA {
  static constexpr bool kReduceLast = false;
};
}  // namespace Reduce
}  // namespace Pattern

namespace npurt_detail {

enum class ReduceOp { kMax, kMin, kSum, kMean, kProd, kAny, kAll };

template <typename P>
constexpr bool kIsReducePattern =
    std::is_same<P, Pattern::Reduce::AR>::value || std::is_same<P, Pattern::Reduce::RA>::value;

template <typename T, typename P, ReduceOp op>
inline void ReducePatternRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[],
                             bool srcInnerPad, const char* api) {
  static_assert(kIsReducePattern<P>, "Reduce (pattern form): the pattern is Pattern::Reduce::AR or RA only");
  static_assert(kAdvFloat<T> || ((op == ReduceOp::kAny || op == ReduceOp::kAll) && std::is_same<T, uint8_t>::value),
                "Reduce (pattern form): T is half or float (ReduceAny / ReduceAll also uint8_t)");
  const uint32_t first = srcShape[0], last = srcShape[1];
  if (first == 0 || last == 0) Fail("%s: srcShape {%u, %u} has an empty axis", api, first, last);
  constexpr uint32_t kPer = 32 / sizeof(T);
  const uint32_t stride = srcInnerPad ? (last + kPer - 1) / kPer * kPer : last;
  const uint64_t n = uint64_t{first - 1} * stride + last;
  const uint32_t outs = P::kReduceLast ? first : last;
  if (n > src.GetSize() || outs > dst.GetSize()) {
    Fail("%s: srcShape {%u, %u} needs %llu source and %u destination elements, the tensors hold %u and %u", api,
         first, last, static_cast<unsigned long long>(n), outs, src.GetSize(), dst.GetSize());
  }
  CheckLocal(src.GetPhyAddr(), n * sizeof(T), api);
  CheckLocal(dst.GetPhyAddr(), uint64_t{outs} * sizeof(T), api);
  const uint32_t count = P::kReduceLast ? last : first;
  std::vector<T> out(outs);
  for (uint32_t o = 0; o < outs; ++o) {
    double acc = AdvLoad(src.GetPhyAddr()[P::kReduceLast ? uint64_t{o} * stride : o]);
    if constexpr (op == ReduceOp::kAny || op == ReduceOp::kAll) acc = acc != 0 ? 1 : 0;
    for (uint32_t k = 1; k < count; ++k) {
      const double v = AdvLoad(src.GetPhyAddr()[P::kReduceLast ? uint64_t{o} * stride + k : uint64_t{k} * stride + o]);
      if constexpr (op == ReduceOp::kMax) {
        acc = (v > acc || std::isnan(v)) && !std::isnan(acc) ? v : acc;
      } else if constexpr (op == ReduceOp::kMin) {
        acc = (v < acc || std::isnan(v)) && !std::isnan(acc) ? v : acc;
      } else if constexpr (op == ReduceOp::kSum || op == ReduceOp::kMean) {
        acc += v;
      } else if constexpr (op == ReduceOp::kProd) {
        acc *= v;
      } else if constexpr (op == ReduceOp::kAny) {
        acc = (acc != 0 || v != 0) ? 1 : 0;
      } else {
        acc = (acc != 0 && v != 0) ? 1 : 0;
      }
    }
    if constexpr (op == ReduceOp::kMean) acc /= count;
    out[o] = AdvStore<T>(acc);
  }
  for (uint32_t o = 0; o < outs; ++o) dst.GetPhyAddr()[o] = out[o];
}

}  // namespace npurt_detail

// Name<T, pattern, isReuseSource>(dst, src [, sharedTmpBuffer], srcShape, srcInnerPad).
#define NPURT_ADV_REDUCE(Name, op)                                                                          \
  template <class T, class pattern, bool isReuseSource = false>                                            \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],       \
                              bool srcInnerPad) {                                                           \
    (void)sharedTmpBuffer;                                                                                  \
    npurt_detail::ReducePatternRun<T, pattern, npurt_detail::ReduceOp::op>(dstTensor, srcTensor, srcShape,  \
                                                                           srcInnerPad, #Name);             \
  }                                                                                                         \
  template <class T, class pattern, bool isReuseSource = false>                                            \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
                              const uint32_t srcShape[], bool srcInnerPad) {                                \
    npurt_detail::ReducePatternRun<T, pattern, npurt_detail::ReduceOp::op>(dstTensor, srcTensor, srcShape,  \
                                                                           srcInnerPad, #Name);             \
  }
NPURT_ADV_REDUCE(ReduceMax, kMax)
NPURT_ADV_REDUCE(ReduceMin, kMin)
NPURT_ADV_REDUCE(ReduceSum, kSum)
NPURT_ADV_REDUCE(ReduceMean, kMean)
NPURT_ADV_REDUCE(ReduceProd, kProd)
NPURT_ADV_REDUCE(ReduceAny, kAny)
NPURT_ADV_REDUCE(ReduceAll, kAll)
#undef NPURT_ADV_REDUCE

}  // namespace AscendC
