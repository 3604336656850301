// Ascend C's sort library APIs for the sim: TopK (TopKInfo, TopkTiling, TopKMode) and the Atlas A2 form of
// the high-level Sort with its Concat / Extract companions. Part of kernel_operator.h; the host side is
// tiling/adv_sort_tiling.h.
//
// TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValue, dstIndex, src, srcIndex, finish[, tmp], k,
//     tiling, info, isLargest): for each of info.outter rows (info.inner elements, the first info.n of them
//     data) the k largest (isLargest) or smallest values, in that order, with their indices. Equal values keep
//     their order (lower position first); NaN counts as larger than every number. Row r's values go to
//     dstValue[r * kAlign ...] with kAlign = k rounded up to 32 bytes of T, its indices to
//     dstIndex[r * kAlign4 ...] with kAlign4 = k rounded up to 8; the padding after the k results is left
//     as it was. Indices: the element's position in the row, or (isInitIndex) srcIndex[position] (TOPK_NORMAL:
//     one index row shared by all rows; TOPK_NSMALL: outter * inner indices). With isHasfinish, a row whose
//     finish flag (bool) is set gets every index equal to n. TOPK_NSMALL needs inner == 32 and takes no
//     isHasfinish (refused when run). The sim needs no scratch space: tmp is accepted and left untouched.
// Concat(concat, src, tmp, repeatTimes)   the Atlas A2 form: concat becomes src (no data moved).
// Sort<T, isFullSort>(dst, concat, index, tmp, repeatTimes)   32 * repeatTimes (score, index) pairs into the
//     8-byte structures of Sort32 (npurt_kernel/sort.h), largest score first, equal scores in input order;
//     isFullSort sorts them all, otherwise each group of 32. tmp is left untouched.
// Extract(dstValue, dstIndex, sorted, repeatTimes)   32 * repeatTimes structures split back into scores and
//     indices.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/sort.h"

namespace AscendC {

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;
  int32_t n;
};

namespace npurt_detail {

template <typename T>
inline bool TopKBefore(T a, T b, bool largest) {
  const float fa = static_cast<float>(a), fb = static_cast<float>(b);
  return largest ? ScoreBefore(fa, fb) : ScoreBefore(-fa, -fb);
}

template <typename T, typename U>
inline void TopKRows(const LocalTensor<T>& dstValue, const LocalTensor<U>& dstIndex, const LocalTensor<T>& src,
                     const U* srcIndex, bool idxPerRow, const bool* finish, int32_t k, const TopKInfo& info,
                     bool isLargest) {
  constexpr const char* kApi = "TopK";
  if (info.outter < 1 || info.n < 1 || info.inner < info.n || k < 1 || k > info.n) {
    Fail("%s: outter %d, inner %d, n %d, k %d (need 1 <= k <= n <= inner, outter >= 1)", kApi, info.outter,
         info.inner, info.n, k);
  }
  const uint32_t rows = static_cast<uint32_t>(info.outter), inner = static_cast<uint32_t>(info.inner);
  const uint32_t kk = static_cast<uint32_t>(k);
  const uint32_t perBlock = 32 / sizeof(T);
  const uint32_t kAlign = (kk + perBlock - 1) / perBlock * perBlock, kAlign4 = (kk + 7) / 8 * 8;
  CheckLocal(src.GetPhyAddr(), uint64_t{rows} * inner * sizeof(T), kApi);
  CheckLocal(dstValue.GetPhyAddr(), (uint64_t{rows - 1} * kAlign + kk) * sizeof(T), kApi);
  CheckLocal(dstIndex.GetPhyAddr(), (uint64_t{rows - 1} * kAlign4 + kk) * sizeof(U), kApi);
  if (srcIndex != nullptr) CheckLocal(srcIndex, (idxPerRow ? uint64_t{rows} * inner : inner) * sizeof(U), kApi);
  if (finish != nullptr) CheckLocal(finish, rows, kApi);
  std::vector<uint32_t> order(static_cast<size_t>(info.n));
  for (uint32_t r = 0; r < rows; ++r) {
    const T* x = src.GetPhyAddr() + uint64_t{r} * inner;
    for (uint32_t j = 0; j < order.size(); ++j) order[j] = j;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return TopKBefore(x[a], x[b], isLargest); });
    const bool done = finish != nullptr && finish[r];
    for (uint32_t i = 0; i < kk; ++i) {
      const uint32_t j = order[i];
      dstValue.GetPhyAddr()[uint64_t{r} * kAlign + i] = x[j];
      U idx = static_cast<U>(j);
      if (srcIndex != nullptr) idx = srcIndex[(idxPerRow ? uint64_t{r} * inner : 0) + j];
      if (done) idx = static_cast<U>(info.n);
      dstIndex.GetPhyAddr()[uint64_t{r} * kAlign4 + i] = idx;
    }
  }
}

}  // namespace npurt_detail

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL, typename U>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<U>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<U>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
                            const int32_t k, const TopkTiling& tiling, const TopKInfo& topKInfo,
                            const bool isLargest = true) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "TopK: T must be half or float");
  static_assert(std::is_same<U, int32_t>::value || std::is_same<U, uint32_t>::value,
                "TopK: the index tensors hold int32_t");
  (void)tmpLocal;
  (void)tiling;
  if (topkMode == TopKMode::TOPK_NSMALL && topKInfo.inner != 32) {
    npurt_detail::Fail("TopK: TOPK_NSMALL needs inner == 32, got %d", topKInfo.inner);
  }
  // Refused when run, not at build time: kernels (the CANN sample among them) instantiate this form in a
  // branch they never take.
  if (topkMode == TopKMode::TOPK_NSMALL && isHasfinish) npurt_detail::Fail("TopK: TOPK_NSMALL takes no isHasfinish");
  npurt_detail::TopKRows(dstValueLocal, dstIndexLocal, srcLocal, isInitIndex ? srcIndexLocal.GetPhyAddr() : nullptr,
                         topkMode == TopKMode::TOPK_NSMALL, isHasfinish ? finishLocal.GetPhyAddr() : nullptr, k,
                         topKInfo, isLargest);
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL, typename U>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<U>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<U>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tiling,
                            const TopKInfo& topKInfo, const bool isLargest = true) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                          finishLocal, LocalTensor<uint8_t>(), k, tiling, topKInfo,
                                                          isLargest);
}

template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concatLocal, const LocalTensor<T>& srcLocal,
                              const LocalTensor<T>& tmpLocal, const int32_t repeatTimes) {
  npurt_detail::CheckSortType<T>();
  (void)tmpLocal;
  (void)repeatTimes;
  concatLocal = srcLocal;
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dstLocal, const LocalTensor<T>& concatLocal,
                            const LocalTensor<uint32_t>& indexLocal, LocalTensor<T>& tmpLocal,
                            const int32_t repeatTimes) {
  npurt_detail::CheckSortType<T>();
  (void)tmpLocal;
  if (repeatTimes < 0) npurt_detail::Fail("Sort: repeatTimes %d", repeatTimes);
  const uint32_t n = 32u * static_cast<uint32_t>(repeatTimes);
  npurt_detail::CheckLocal(concatLocal.GetPhyAddr(), uint64_t{n} * sizeof(T), "Sort");
  npurt_detail::CheckLocal(indexLocal.GetPhyAddr(), uint64_t{n} * 4, "Sort");
  npurt_detail::CheckLocal(dstLocal.GetPhyAddr(), uint64_t{n} * npurt_detail::kSortStructBytes, "Sort");
  std::vector<T> scores(concatLocal.GetPhyAddr(), concatLocal.GetPhyAddr() + n);
  std::vector<uint32_t> idx(indexLocal.GetPhyAddr(), indexLocal.GetPhyAddr() + n);
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  const uint32_t group = isFullSort ? std::max<uint32_t>(n, 1) : 32;
  for (uint32_t g = 0; g < n; g += group) {
    std::stable_sort(order.begin() + g, order.begin() + g + group, [&](uint32_t a, uint32_t b) {
      return npurt_detail::ScoreBefore(static_cast<float>(scores[a]), static_cast<float>(scores[b]));
    });
  }
  auto* out = reinterpret_cast<uint8_t*>(dstLocal.GetPhyAddr());
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* s = out + uint64_t{i} * npurt_detail::kSortStructBytes;
    std::memcpy(s, &scores[order[i]], sizeof(T));
    std::memcpy(s + 4, &idx[order[i]], 4);
  }
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValueLocal, const LocalTensor<uint32_t>& dstIndexLocal,
                               const LocalTensor<T>& sortedLocal, const int32_t repeatTimes) {
  npurt_detail::CheckSortType<T>();
  if (repeatTimes < 0) npurt_detail::Fail("Extract: repeatTimes %d", repeatTimes);
  const uint32_t n = 32u * static_cast<uint32_t>(repeatTimes);
  const auto* in = reinterpret_cast<const uint8_t*>(sortedLocal.GetPhyAddr());
  npurt_detail::CheckLocal(in, uint64_t{n} * npurt_detail::kSortStructBytes, "Extract");
  npurt_detail::CheckLocal(dstValueLocal.GetPhyAddr(), uint64_t{n} * sizeof(T), "Extract");
  npurt_detail::CheckLocal(dstIndexLocal.GetPhyAddr(), uint64_t{n} * 4, "Extract");
  std::vector<uint8_t> copy(in, in + uint64_t{n} * npurt_detail::kSortStructBytes);
  for (uint32_t i = 0; i < n; ++i) {
    std::memcpy(dstValueLocal.GetPhyAddr() + i, copy.data() + uint64_t{i} * 8, sizeof(T));
    std::memcpy(dstIndexLocal.GetPhyAddr() + i, copy.data() + uint64_t{i} * 8 + 4, 4);
  }
}

}  // namespace AscendC
