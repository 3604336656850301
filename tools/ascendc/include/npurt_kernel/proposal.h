// Region proposals on the sim: ProposalConcat, ProposalExtract, RpSort16, MrgSort4 and GetMrgSortResult (the
// API reference lists them for the Atlas inference cores). Part of kernel_operator.h.
//
// A region proposal is 8 elements of T (half or float): x1, y1, x2, y2, score, label and two reserved, the
// score element 4.
//   ProposalConcat(dst, src, repeatTimes, modeNumber)   each repeat writes 16 consecutive src elements into
//       element modeNumber (0..5) of 16 consecutive proposals, leaving their other elements as they were;
//   ProposalExtract(dst, src, repeatTimes, modeNumber)  the inverse: element modeNumber of 16 proposals into 16
//       consecutive dst elements;
//   RpSort16(dst, src, repeatTimes)                     each repeat sorts 16 proposals by score, largest first,
//       equal scores keeping their order (NaN above every number); dst may be src;
//   MrgSort4(dst, MrgSortSrcList, MrgSort4Info)         MrgSort (sort.h) over proposals: the lists validBit names,
//       largest score first, an equal score from the earlier list first, exhausted suspension and repeats alike;
//   GetMrgSortResult(n1, n2, n3, n4)                    how many structures of each list the block's last
//       MrgSort / MrgSort4 put out.
#pragma once

#include <algorithm>
#include <vector>

#include "npurt_kernel/sort.h"

namespace AscendC {

namespace npurt_detail {
constexpr uint32_t kProposalElems = 8;
constexpr uint32_t kProposalScore = 4;

template <typename T>
inline void CheckProposalType(int32_t modeNumber, const char* what) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                "ProposalConcat / ProposalExtract / RpSort16 / MrgSort4: half or float");
  if (modeNumber < 0 || modeNumber > 5) Fail("%s: modeNumber %d outside [0, 5]", what, modeNumber);
}
}  // namespace npurt_detail

template <typename T>
__aicore__ inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes,
                                      const int32_t modeNumber) {
  using namespace npurt_detail;
  CheckProposalType<T>(modeNumber, "ProposalConcat");
  const uint64_t n = repeatTimes > 0 ? static_cast<uint64_t>(repeatTimes) * 16u : 0u;
  CheckLocal(src.GetPhyAddr(), n * sizeof(T), "ProposalConcat (source)");
  CheckLocal(dst.GetPhyAddr(), n * kProposalElems * sizeof(T), "ProposalConcat (proposals)");
  const std::vector<T> in(src.GetPhyAddr(), src.GetPhyAddr() + n);
  for (uint64_t i = 0; i < n; ++i) dst.GetPhyAddr()[i * kProposalElems + modeNumber] = in[i];
}

template <typename T>
__aicore__ inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                       const int32_t repeatTimes, const int32_t modeNumber) {
  using namespace npurt_detail;
  CheckProposalType<T>(modeNumber, "ProposalExtract");
  const uint64_t n = repeatTimes > 0 ? static_cast<uint64_t>(repeatTimes) * 16u : 0u;
  CheckLocal(src.GetPhyAddr(), n * kProposalElems * sizeof(T), "ProposalExtract (proposals)");
  CheckLocal(dst.GetPhyAddr(), n * sizeof(T), "ProposalExtract (destination)");
  std::vector<T> out(n);
  for (uint64_t i = 0; i < n; ++i) out[i] = src.GetPhyAddr()[i * kProposalElems + modeNumber];
  std::copy(out.begin(), out.end(), dst.GetPhyAddr());
}

template <typename T>
__aicore__ inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes) {
  using namespace npurt_detail;
  CheckProposalType<T>(0, "RpSort16");
  for (int32_t r = 0; r < repeatTimes; ++r) {
    const T* s = src.GetPhyAddr() + static_cast<uint64_t>(r) * 16u * kProposalElems;
    T* d = dst.GetPhyAddr() + static_cast<uint64_t>(r) * 16u * kProposalElems;
    CheckLocal(s, 16u * kProposalElems * sizeof(T), "RpSort16 (source)");
    CheckLocal(d, 16u * kProposalElems * sizeof(T), "RpSort16 (destination)");
    const std::vector<T> in(s, s + 16u * kProposalElems);
    uint32_t order[16];
    for (uint32_t i = 0; i < 16; ++i) order[i] = i;
    std::stable_sort(order, order + 16, [&](uint32_t a, uint32_t b) {
      return ScoreBefore(static_cast<float>(in[a * kProposalElems + kProposalScore]),
                         static_cast<float>(in[b * kProposalElems + kProposalScore]));
    });
    for (uint32_t i = 0; i < 16; ++i) {
      std::copy(in.begin() + order[i] * kProposalElems, in.begin() + (order[i] + 1) * kProposalElems,
                d + i * kProposalElems);
    }
  }
}

template <typename T>
__aicore__ inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  using namespace npurt_detail;
  uint32_t sorted[4] = {0, 0, 0, 0};
  constexpr uint64_t bytes = kProposalElems * sizeof(T), scoreAt = kProposalScore * sizeof(T);
  if (params.ifExhaustedSuspension) {
    MrgSortRun<T, true>(dst, src, params.elementLengths, sorted, params.validBit, params.repeatTimes, bytes, scoreAt);
  } else {
    MrgSortRun<T, false>(dst, src, params.elementLengths, sorted, params.validBit, params.repeatTimes, bytes, scoreAt);
  }
}

__aicore__ inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                                        uint16_t& mrgSortList4) {
  const auto& r = npurt_detail::g_mrgsort;
  const bool mine = r.block == npurt_detail::g_state.block;
  mrgSortList1 = static_cast<uint16_t>(mine ? r.sorted[0] : 0);
  mrgSortList2 = static_cast<uint16_t>(mine ? r.sorted[1] : 0);
  mrgSortList3 = static_cast<uint16_t>(mine ? r.sorted[2] : 0);
  mrgSortList4 = static_cast<uint16_t>(mine ? r.sorted[3] : 0);
}

}  // namespace AscendC
