// Ascend C data movement for the sim: DataCopy between global memory and the unified buffer (and within
// the unified buffer), contiguous, strided (DataCopyParams, 32-byte block units) and padded
// (DataCopyPad, byte-exact rows). The sim copies exactly the elements asked for; where the hardware
// moves whole 32-byte blocks the bytes past the request are left untouched. Copies to global memory are
// atomic while SetAtomicAdd/Max/Min is in force (atomic.h). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/atomic.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

struct DataCopyParams {
  uint16_t blockCount = 1;  // number of blocks (rows)
  uint16_t blockLen = 0;    // length of a block, in 32-byte units
  uint16_t srcStride = 0;   // gap between source blocks, in 32-byte units
  uint16_t dstStride = 0;   // gap between destination blocks, in 32-byte units
  __aicore__ DataCopyParams() = default;
  __aicore__ DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride, uint16_t dst_stride)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride) {}
};

// DataCopyPad: blockLen in bytes; the global-memory side's stride in bytes, the unified-buffer side's in
// 32-byte blocks (each unified-buffer row starts on a 32-byte boundary).
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  __aicore__ DataCopyExtParams() = default;
  __aicore__ DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src_stride, uint32_t dst_stride, uint32_t r)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride), rsv(r) {}
};

// The older DataCopyPad parameters (DataCopyPad with DataCopyParams, whose blockLen then counts bytes):
// paddingValue holds the pad's bit pattern in its low sizeof(T) bytes, as the hardware's pad register does.
struct DataCopyPadParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  uint64_t paddingValue = 0;
  __aicore__ DataCopyPadParams() = default;
  __aicore__ DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue = T(0);
  __aicore__ DataCopyPadExtParams() = default;
  __aicore__ DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

namespace npurt_detail {
inline void CopyBytes(void* dst, const void* src, uint64_t bytes) { std::memmove(dst, src, bytes); }
}  // namespace npurt_detail

// ---- contiguous ------------------------------------------------------------------------------------
// `count` elements (int4b_t: two a byte).
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  const uint64_t bytes = static_cast<uint64_t>(count) * npurt_detail::kElemBits<T> / 8;  // int4b_t: count / 2
  npurt_detail::CheckLocal(dst.GetPhyAddr(), bytes, "DataCopy(GM->UB)");
  npurt_detail::CheckGlobal(src.GetPhyAddr(), bytes, false, "DataCopy(GM->UB)");
  npurt_detail::CopyBytes(dst.GetPhyAddr(), src.GetPhyAddr(), bytes);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  const uint64_t bytes = static_cast<uint64_t>(count) * npurt_detail::kElemBits<T> / 8;
  npurt_detail::CheckLocal(src.GetPhyAddr(), bytes, "DataCopy(UB->GM)");
  npurt_detail::CheckGlobal(dst.GetPhyAddr(), bytes, true, "DataCopy(UB->GM)");
  npurt_detail::StoreGlobal(dst.GetPhyAddr(), src.GetPhyAddr(), bytes, "DataCopy(UB->GM)");
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  const uint64_t bytes = static_cast<uint64_t>(count) * npurt_detail::kElemBits<T> / 8;
  npurt_detail::CheckLocal(dst.GetPhyAddr(), bytes, "DataCopy(UB->UB)");
  npurt_detail::CheckLocal(src.GetPhyAddr(), bytes, "DataCopy(UB->UB)");
  npurt_detail::CopyBytes(dst.GetPhyAddr(), src.GetPhyAddr(), bytes);
}

// ---- strided (32-byte blocks) ------------------------------------------------------------------------
namespace npurt_detail {
template <typename D, typename S>
inline void CopyBlocks(D* dst, const S* src, const DataCopyParams& p, bool dst_local, bool src_local,
                       const char* what) {
  const uint64_t row = static_cast<uint64_t>(p.blockLen) * ONE_BLK_SIZE;
  auto* d = reinterpret_cast<uint8_t*>(dst);
  auto* s = reinterpret_cast<const uint8_t*>(src);
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* dr = d + i * (row + static_cast<uint64_t>(p.dstStride) * ONE_BLK_SIZE);
    const uint8_t* sr = s + i * (row + static_cast<uint64_t>(p.srcStride) * ONE_BLK_SIZE);
    if (dst_local) CheckLocal(dr, row, what); else CheckGlobal(dr, row, true, what);
    if (src_local) CheckLocal(sr, row, what); else CheckGlobal(sr, row, false, what);
    if (dst_local) CopyBytes(dr, sr, row); else StoreGlobal(dr, sr, row, what);
  }
}
}  // namespace npurt_detail

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  npurt_detail::CopyBlocks(dst.GetPhyAddr(), src.GetPhyAddr(), p, true, false, "DataCopy(GM->UB)");
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  npurt_detail::CopyBlocks(dst.GetPhyAddr(), src.GetPhyAddr(), p, false, true, "DataCopy(UB->GM)");
}
namespace npurt_detail {
template <typename T>  // L1 -> the bias table (C2, 64-byte units) or fixpipe buffer (128): npurt_kernel/cube_copy.h
void CopyToBiasTable(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p);
template <typename D, typename S>  // L1 half / bfloat16 -> the bias table as float (npurt_kernel/cube_copy.h)
void ConvertToBiasTable(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p);
}  // namespace npurt_detail
// L1 (C1) -> the bias table (C2) converting half or bfloat16 to float on the way, as the bias table holds
// float: blockLen counts 64-byte units of the source.
template <typename D, typename S, typename = std::enable_if_t<!std::is_same<D, S>::value>>
__aicore__ inline void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p) {
  static_assert(std::is_same<D, float>::value && (std::is_same<S, half>::value || std::is_same<S, bfloat16_t>::value),
                "DataCopy between local tensors of different types: only C1 half/bfloat16 -> C2 float");
  if (dst.GetPosition() != TPosition::C2) {
    npurt_detail::Fail("DataCopy(C1 -> C2) converting to float: the destination must be in C2 (the bias table)");
  }
  npurt_detail::ConvertToBiasTable(dst, src, p);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  if (dst.GetPosition() == TPosition::C2 || dst.GetPosition() == TPosition::C2PIPE2GM) {
    return npurt_detail::CopyToBiasTable(dst, src, p);
  }
  npurt_detail::CopyBlocks(dst.GetPhyAddr(), src.GetPhyAddr(), p, true, true, "DataCopy(UB->UB)");
}

// ---- padded (byte-exact rows) ------------------------------------------------------------------------
// SetPadValue: the value DataCopyPad (GM->UB) writes into the left and right padding when its
// DataCopyPadExtParams has isPad = false (isPad = true uses paddingValue instead). The padding register
// keeps the value for the rest of the block. `pos` names the copy's destination (VECIN, VECOUT or MAX,
// meaning either); they share the one register on this SoC.
template <typename T, TPosition pos = TPosition::MAX>
__aicore__ inline void SetPadValue(T paddingValue) {
  static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                "SetPadValue: the position must be VECIN, VECOUT or MAX (GM->UB copies)");
  static_assert(sizeof(T) <= 8, "SetPadValue: element types of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &paddingValue, sizeof(T));
  npurt_detail::g_state.pad_value = bits;
  npurt_detail::g_state.pad_value_set = true;
}

// With padding: each row gets leftPadding elements before and rightPadding after its blockLen bytes,
// filled with paddingValue (isPad) or the SetPadValue value (!isPad, when one was set; otherwise the
// hardware writes unspecified values, and the sim leaves those bytes as they were), and is then
// rounded up to 32 bytes.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                                   const DataCopyPadExtParams<T>& pad = {}) {
  if (p.blockCount == 0 || p.blockLen == 0) return;  // a NOP on this SoC, as the reference says
  const uint64_t ub_row = (static_cast<uint64_t>(p.blockLen) + pad.leftPadding * sizeof(T) +
                           pad.rightPadding * sizeof(T) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const bool fill = pad.isPad || npurt_detail::g_state.pad_value_set;
  T value = pad.paddingValue;
  if (!pad.isPad && npurt_detail::g_state.pad_value_set) {
    std::memcpy(&value, &npurt_detail::g_state.pad_value, sizeof(T));
  }
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* dr = d + i * (ub_row + static_cast<uint64_t>(p.dstStride) * ONE_BLK_SIZE);
    const uint8_t* sr = s + i * (static_cast<uint64_t>(p.blockLen) + p.srcStride);
    npurt_detail::CheckLocal(dr, ub_row, "DataCopyPad(GM->UB)");
    npurt_detail::CheckGlobal(sr, p.blockLen, false, "DataCopyPad(GM->UB)");
    T* row = reinterpret_cast<T*>(dr);
    if (fill) {
      for (uint32_t k = 0; k < pad.leftPadding; ++k) row[k] = value;
    }
    npurt_detail::CopyBytes(dr + pad.leftPadding * sizeof(T), sr, p.blockLen);
    if (fill) {
      T* tail = reinterpret_cast<T*>(dr + pad.leftPadding * sizeof(T) + p.blockLen);
      for (uint32_t k = 0; k < pad.rightPadding; ++k) tail[k] = value;
    }
  }
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
  const uint64_t ub_row = (static_cast<uint64_t>(p.blockLen) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* dr = d + i * (static_cast<uint64_t>(p.blockLen) + p.dstStride);
    const uint8_t* sr = s + i * (ub_row + static_cast<uint64_t>(p.srcStride) * ONE_BLK_SIZE);
    npurt_detail::CheckLocal(sr, p.blockLen, "DataCopyPad(UB->GM)");
    npurt_detail::CheckGlobal(dr, p.blockLen, true, "DataCopyPad(UB->GM)");
    npurt_detail::StoreGlobal(dr, sr, p.blockLen, "DataCopyPad(UB->GM)");
  }
}

// The DataCopyParams forms of DataCopyPad: blockLen in bytes, the strides as in DataCopyExtParams.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                   const DataCopyPadParams& pad) {
  DataCopyPadExtParams<T> ext(pad.isPad, pad.leftPadding, pad.rightPadding, T());
  std::memcpy(&ext.paddingValue, &pad.paddingValue, sizeof(T) < sizeof(uint64_t) ? sizeof(T) : sizeof(uint64_t));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0), ext);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

}  // namespace AscendC
#include "npurt_kernel/slice_copy.h"
