// Ascend C Sort32 and MrgSort for the sim (half and float scores, uint32_t indices). Part of
// kernel_operator.h.
//
// Sorted data is a list of 8-byte (score, index) structures: the score in the low bytes (a half score in
// the lowest 2, the 2 bytes after it left as they were), the uint32_t index in the high 4.
//   Sort32(dst, scores, indices, repeatTimes)   each repeat sorts 32 scores (and their indices) by score,
//       largest first; equal scores keep their order. NaN counts as larger than every number.
//   MrgSort<T, isExhaustedSuspension>(dst, MrgSortSrcList, elementCountList[4], sortedNum[4], validBit,
//       repeatTimes) and MrgSort(dst, MrgSortSrcList, MrgSort4Info)   merge the sorted lists that validBit
//       names (bit q: list q + 1; 0b11, 0b111 or 0b1111) into dst, largest score first, an equal score
//       taken from the earlier list first. With isExhaustedSuspension the merge stops when a list runs
//       out, and sortedNum[q] says how many structures of list q went to dst. repeatTimes > 1 merges
//       the next four lists each time (sources and dst move on by the four lists' length), which the
//       reference allows only for four contiguous lists of one length, validBit 0b1111 and no exhausted
//       suspension (otherwise the kernel fails); repeatTimes 0 does nothing.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {

template <typename T>
struct MrgSortSrcList {
  __aicore__ MrgSortSrcList() {}
  __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                            const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

struct MrgSort4Info {
  __aicore__ MrgSort4Info() {}
  __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
                          const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint16_t repeatTimes = 1;
};

namespace npurt_detail {

constexpr uint32_t kSortStructBytes = 8;

template <typename T>
inline void CheckSortType() {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "Sort32 / MrgSort: half or float scores");
}

// Score order: larger first, NaN above every number.
inline bool ScoreBefore(float a, float b) {
  if (std::isnan(a)) return !std::isnan(b);
  if (std::isnan(b)) return false;
  return a > b;
}

template <typename T>
inline float ScoreAt(const uint8_t* s) {
  T v;
  std::memcpy(&v, s, sizeof(T));
  return static_cast<float>(v);
}

}  // namespace npurt_detail

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTimes) {
  npurt_detail::CheckSortType<T>();
  if (repeatTimes < 0 || repeatTimes > 255) npurt_detail::Fail("Sort32: repeatTimes %d outside [0, 255]", repeatTimes);
  const uint64_t n = 32ull * static_cast<uint64_t>(repeatTimes);
  npurt_detail::CheckLocal(src0.GetPhyAddr(), n * sizeof(T), "Sort32");
  npurt_detail::CheckLocal(src1.GetPhyAddr(), n * 4, "Sort32");
  npurt_detail::CheckLocal(dst.GetPhyAddr(), n * npurt_detail::kSortStructBytes, "Sort32");
  auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (int32_t r = 0; r < repeatTimes; ++r) {
    T scores[32];
    uint32_t indices[32];
    uint8_t order[32];
    std::memcpy(scores, src0.GetPhyAddr() + 32 * r, sizeof scores);
    std::memcpy(indices, src1.GetPhyAddr() + 32 * r, sizeof indices);
    for (uint8_t i = 0; i < 32; ++i) order[i] = i;
    // Insertion sort: stable, so equal scores keep their order.
    for (int i = 1; i < 32; ++i) {
      const uint8_t cur = order[i];
      int j = i;
      while (j > 0 && npurt_detail::ScoreBefore(static_cast<float>(scores[cur]), static_cast<float>(scores[order[j - 1]]))) {
        order[j] = order[j - 1];
        --j;
      }
      order[j] = cur;
    }
    for (int i = 0; i < 32; ++i) {
      uint8_t* s = out + (32ull * r + i) * npurt_detail::kSortStructBytes;
      std::memcpy(s, &scores[order[i]], sizeof(T));
      std::memcpy(s + 4, &indices[order[i]], 4);
    }
  }
}

namespace npurt_detail {
// One merge of the lists at src[q] (len[q] structures; nullptr: not taking part) into out.
// Structures of `bytes` bytes with the score `scoreAt` bytes in (MrgSort: 8 and 0; MrgSort4's region proposals:
// 8 elements, the score the fifth).
template <typename T, bool isExhaustedSuspension>
inline void MergeOnce(uint8_t* out, const uint8_t* const src_in[4], const uint32_t len[4], int count,
                      uint32_t sortedNum[4], uint64_t bytes = kSortStructBytes, uint64_t scoreAt = 0) {
  const uint8_t* src[4] = {src_in[0], src_in[1], src_in[2], src_in[3]};
  uint32_t pos[4] = {};
  uint64_t total = 0;
  for (int q = 0; q < count; ++q) {
    if (src[q] == nullptr) continue;
    CheckLocal(src[q], uint64_t{len[q]} * bytes, "MrgSort");
    total += len[q];
  }
  CheckLocal(out, total * bytes, "MrgSort");
  // The merged list goes straight to dst unless dst overlaps a source; then it is built aside first.
  const uint64_t out_bytes = total * bytes;
  bool overlap = false;
  for (int q = 0; q < count; ++q) {
    if (src[q] != nullptr && src[q] < out + out_bytes && out < src[q] + uint64_t{len[q]} * bytes) overlap = true;
  }
  uint8_t* tmp = out;
  if (overlap) {
    tmp = static_cast<uint8_t*>(std::malloc(out_bytes + 1));
    if (tmp == nullptr) Fail("MrgSort: out of host memory");
  }
  uint64_t written = 0;
  while (true) {
    int best = -1;
    bool exhausted = false;
    for (int q = 0; q < count; ++q) {
      if (src[q] == nullptr) continue;
      if (pos[q] == len[q]) {
        exhausted = true;
        continue;
      }
      if (best < 0 || ScoreBefore(ScoreAt<T>(src[q] + pos[q] * bytes + scoreAt),
                                  ScoreAt<T>(src[best] + pos[best] * bytes + scoreAt))) {
        best = q;
      }
    }
    if (best < 0 || (isExhaustedSuspension && exhausted)) break;
    std::memcpy(tmp + written * bytes, src[best] + pos[best] * bytes, bytes);
    ++pos[best];
    ++written;
  }
  if (overlap) {
    std::memcpy(out, tmp, written * bytes);
    std::free(tmp);
  }
  for (int q = 0; q < 4; ++q) sortedNum[q] = pos[q];
}
}  // namespace npurt_detail

namespace npurt_detail {
// The counts of the block's last merge (GetMrgSortResult).
struct MrgSortResultRegister {
  const void* block = nullptr;
  uint32_t sorted[4] = {0, 0, 0, 0};
};
inline thread_local MrgSortResultRegister g_mrgsort;

template <typename T, bool isExhaustedSuspension>
inline void MrgSortRun(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                       const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                       const int32_t repeatTimes, uint64_t bytes, uint64_t scoreAt) {
  CheckSortType<T>();
  if (repeatTimes < 0 || repeatTimes > 255) npurt_detail::Fail("MrgSort: repeatTimes %d outside [0, 255]", repeatTimes);
  if (validBit != 0x3 && validBit != 0x7 && validBit != 0xf) {
    npurt_detail::Fail("MrgSort: validBit 0x%x is not 0b11, 0b111 or 0b1111", validBit);
  }
  const LocalTensor<T>* lists[4] = {&sortList.src1, &sortList.src2, &sortList.src3, &sortList.src4};
  const uint8_t* src[4] = {};
  uint32_t len[4] = {};
  int count = 0;
  for (int q = 0; q < 4; ++q) {
    if (((validBit >> q) & 1) == 0) continue;
    count = q + 1;
    src[q] = reinterpret_cast<const uint8_t*>(lists[q]->GetPhyAddr());
    len[q] = elementCountList[q];
  }
  if (repeatTimes > 1) {
    bool ok = validBit == 0xf && !isExhaustedSuspension;
    for (int q = 1; q < 4 && ok; ++q) ok = len[q] == len[0] && src[q] == src[0] + uint64_t{len[0]} * bytes * q;
    if (!ok) {
      npurt_detail::Fail("MrgSort: repeatTimes %d needs four contiguous lists of one length, validBit 0b1111 and "
                         "no exhausted suspension", repeatTimes);
    }
  }
  auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (int32_t r = 0; r < repeatTimes; ++r) {
    const uint64_t step = static_cast<uint64_t>(r) * 4 * len[0] * bytes;  // repeat r: the next four lists
    const uint8_t* s[4] = {};
    for (int q = 0; q < 4; ++q) s[q] = src[q] == nullptr ? nullptr : src[q] + step;
    MergeOnce<T, isExhaustedSuspension>(out + step, s, len, count, sortedNum, bytes, scoreAt);
  }
  g_mrgsort.block = g_state.block;
  for (int q = 0; q < 4; ++q) g_mrgsort.sorted[q] = repeatTimes > 0 ? sortedNum[q] : 0;
}
}  // namespace npurt_detail

template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTimes) {
  npurt_detail::MrgSortRun<T, isExhaustedSuspension>(dst, sortList, elementCountList, sortedNum, validBit,
                                                     repeatTimes, npurt_detail::kSortStructBytes, 0);
}

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& srcLocal, const MrgSort4Info& params) {
  uint32_t sorted[4];
  if (params.ifExhaustedSuspension) {
    MrgSort<T, true>(dst, srcLocal, params.elementLengths, sorted, params.validBit, params.repeatTimes);
  } else {
    MrgSort<T, false>(dst, srcLocal, params.elementLengths, sorted, params.validBit, params.repeatTimes);
  }
}

}  // namespace AscendC
