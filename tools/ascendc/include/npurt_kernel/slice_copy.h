// Ascend C's slice DataCopy for the sim: DataCopy(dst, src, dstSliceInfo[], srcSliceInfo[], dimValue)
// between global memory and the unified buffer copies the elements a slice description picks from the
// source to the places the destination's description picks, in order. Per dimension (0 innermost, each
// row shapeValue elements long, so an element's offset is sum(index_d * prod of the inner shapeValues)):
//   dimension 0: segments of burstLen 32-byte blocks of elements, the first at startIndex, each next one
//   `stride` elements after the previous one's end, up to endIndex (inclusive; a segment is cut there);
//   outer dimensions: single indices (burstLen must be 1), startIndex, then every (stride + 1)-th, up to
//   endIndex.
// Both sides must pick the same number of elements, else the kernel fails. Part of kernel_operator.h
// (through data_copy.h).
#pragma once

#include <vector>

#include "npurt_kernel/atomic.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

constexpr int32_t K_MAX_DIM = 8;

struct SliceInfo {
  __aicore__ SliceInfo() {}
  __aicore__ SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
                       const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
      : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn), shapeValue(shapeValueIn) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = ONE_BLK_SIZE - 1;
  uint32_t stride = 0;
  uint32_t burstLen = ONE_BLK_SIZE;  // dimension 0: 32-byte blocks a segment; outer dimensions: 1
  uint32_t shapeValue = 0;
};

namespace npurt_detail {

// The element offsets a slice description picks, in order (outer dimensions first).
template <typename T>
inline std::vector<uint64_t> SliceOffsets(const SliceInfo* info, uint32_t dims, const char* what) {
  if (dims == 0 || dims > static_cast<uint32_t>(K_MAX_DIM)) Fail("%s: dimValue %u outside [1, %d]", what, dims, K_MAX_DIM);
  std::vector<uint64_t> offs = {0};
  uint64_t pitch = 1;
  std::vector<uint64_t> pitches(dims);
  for (uint32_t d = 0; d < dims; ++d) {
    pitches[d] = pitch;
    pitch *= info[d].shapeValue;
  }
  // Build from the outermost dimension in.
  for (int32_t d = static_cast<int32_t>(dims) - 1; d >= 0; --d) {
    const SliceInfo& s = info[d];
    std::vector<uint64_t> idx;
    if (s.endIndex >= s.shapeValue && s.shapeValue != 0) {
      Fail("%s: dimension %d ends at %u, past its %u elements", what, d, s.endIndex, s.shapeValue);
    }
    if (d == 0) {
      const uint64_t seg = uint64_t{s.burstLen} * ONE_BLK_SIZE / sizeof(T);
      if (seg == 0) Fail("%s: burstLen 0", what);
      for (uint64_t start = s.startIndex; start <= s.endIndex; start += seg + s.stride) {
        for (uint64_t i = start; i < start + seg && i <= s.endIndex; ++i) idx.push_back(i);
      }
    } else {
      if (s.burstLen != 1) Fail("%s: dimension %d has burstLen %u (outer dimensions take 1)", what, d, s.burstLen);
      for (uint64_t i = s.startIndex; i <= s.endIndex; i += uint64_t{s.stride} + 1) idx.push_back(i);
    }
    std::vector<uint64_t> next;
    next.reserve(offs.size() * idx.size());
    for (uint64_t o : offs) {
      for (uint64_t i : idx) next.push_back(o + i * pitches[d]);
    }
    offs.swap(next);
  }
  return offs;
}

template <typename T>
inline void SliceCopy(T* dst, bool dst_local, const T* src, bool src_local, const SliceInfo* dst_info,
                      const SliceInfo* src_info, uint32_t dims, const char* what) {
  const std::vector<uint64_t> d = SliceOffsets<T>(dst_info, dims, what), s = SliceOffsets<T>(src_info, dims, what);
  if (d.size() != s.size()) {
    Fail("%s: the source slice picks %llu elements, the destination slice %llu", what,
         static_cast<unsigned long long>(s.size()), static_cast<unsigned long long>(d.size()));
  }
  for (size_t i = 0; i < d.size(); ++i) {
    const T* sp = src + s[i];
    T* dp = dst + d[i];
    if (src_local) CheckLocal(sp, sizeof(T), what); else CheckGlobal(sp, sizeof(T), false, what);
    if (dst_local) {
      CheckLocal(dp, sizeof(T), what);
      std::memcpy(dp, sp, sizeof(T));
    } else {
      CheckGlobal(dp, sizeof(T), true, what);
      StoreGlobal(dp, sp, sizeof(T), what);
    }
  }
}

}  // namespace npurt_detail

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  npurt_detail::SliceCopy(dst.GetPhyAddr(), true, src.GetPhyAddr(), false, dstSliceInfo, srcSliceInfo, dimValue,
                          "DataCopy(GM->UB, slices)");
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  npurt_detail::SliceCopy(dst.GetPhyAddr(), false, src.GetPhyAddr(), true, dstSliceInfo, srcSliceInfo, dimValue,
                          "DataCopy(UB->GM, slices)");
}

}  // namespace AscendC
