// Ascend C's library APIs Sum (row sums of the last axis), Select / SelectWithBytesMask (choose per
// element between a tensor and a scalar by a byte mask) and DropOut (keep or zero per element by a byte or
// bit mask) for the sim. Part of kernel_operator.h.
// sharedTmpBuffer is accepted and unused (the sim needs no scratch space; host sizes in
// tiling/adv_select_reduce_tiling.h).
#pragma once

#include "npurt_kernel/adv_math.h"

namespace AscendC {

// ---- Sum ------------------------------------------------------------------------------------------------
// src is outter rows of inner elements (inner * sizeof(T) a multiple of 32); dst[r] = the sum of the first
// n elements of row r, for r < outter (dst packed). The additions follow the vector unit's pairwise
// reduction (PairReduceSum repeated: neighbours added in pairs, an odd last element carried to the next
// round), each rounded to T, so half and float sums are the device's bit for bit.
struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};

namespace npurt_detail {
template <typename T>
inline T PairwiseSum(const T* row, uint32_t n, T* scratch) {
  if (n == 0) return T(0);
  for (uint32_t i = 0; i < n; ++i) scratch[i] = row[i];
  while (n > 1) {
    const uint32_t half_n = n / 2;
    for (uint32_t i = 0; i < half_n; ++i) {
      scratch[i] = AdvStore<T>(AdvLoad(scratch[2 * i]) + AdvLoad(scratch[2 * i + 1]));
    }
    if (n % 2 != 0) scratch[half_n] = scratch[n - 1];
    n = half_n + n % 2;
  }
  return scratch[0];
}
}  // namespace npurt_detail

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams) {
  static_assert(npurt_detail::kAdvFloat<T>, "Sum takes half or float tensors");
  static_assert(reduceDim == -1, "Sum reduces the last axis only (reduceDim = -1)");
  (void)sharedTmpBuffer;
  const SumParams& p = sumParams;
  if ((p.inner * sizeof(T)) % 32 != 0) {
    npurt_detail::Fail("Sum: inner = %u elements is not a multiple of 32 bytes", p.inner);
  }
  if (p.n == 0 || p.n > p.inner) npurt_detail::Fail("Sum: n = %u must be in [1, inner = %u]", p.n, p.inner);
  const uint64_t src_elems = uint64_t{p.outter} * p.inner;
  if (src_elems > srcTensor.GetSize() || p.outter > dstTensor.GetSize()) {
    npurt_detail::Fail("Sum: {outter %u, inner %u} needs %llu source and %u destination elements, the tensors hold "
                       "%u and %u",
                       p.outter, p.inner, static_cast<unsigned long long>(src_elems), p.outter, srcTensor.GetSize(),
                       dstTensor.GetSize());
  }
  npurt_detail::CheckLocal(srcTensor.GetPhyAddr(), src_elems * sizeof(T), "Sum");
  npurt_detail::CheckLocal(dstTensor.GetPhyAddr(), uint64_t{p.outter} * sizeof(T), "Sum");
  T* scratch = new T[p.n];
  for (uint32_t r = 0; r < p.outter; ++r) {
    dstTensor.GetPhyAddr()[r] = npurt_detail::PairwiseSum(srcTensor.GetPhyAddr() + uint64_t{r} * p.inner, p.n, scratch);
  }
  delete[] scratch;
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const SumParams& sumParams) {
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, LocalTensor<uint8_t>(), sumParams);
}

// ---- Select / SelectWithBytesMask ---------------------------------------------------------------------------
// dst[r][c] = mask[r][c] == 0 ? src0 : src1 (one of them a tensor, the other a scalar), over firstAxis rows
// of srcLastAxis elements; the mask's rows are maskLastAxis long (>= srcLastAxis, the rest ignored). The
// source rows are 32-byte multiples, the mask rows 32-byte multiples of at least 16 elements' granularity.
struct SelectWithBytesMaskShapeInfo {
  uint32_t firstAxis = 1;
  uint32_t srcLastAxis;
  uint32_t maskLastAxis;
};

namespace npurt_detail {
// Whether a mask element is non-zero. A bool mask is read as its byte (the vector unit converts the mask's
// bytes to half and compares with 0), so a byte of 2 or 7 counts as set, as on the device.
template <typename U>
inline bool MaskSet(const U* p) {
  if constexpr (std::is_same<U, half>::value) {
    return static_cast<float>(*p) != 0.0f;
  } else if constexpr (std::is_same<U, bool>::value) {
    uint8_t byte;
    std::memcpy(&byte, p, 1);
    return byte != 0;
  } else {
    return *p != U(0);
  }
}

// tensor_first: the tensor is src0 (mask 0 picks it), else src1 (mask != 0 picks it).
template <typename T, typename U>
inline void SelectBytes(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar, bool tensor_first,
                        const LocalTensor<U>& mask, const SelectWithBytesMaskShapeInfo& info) {
  static_assert(kAdvFloat<T>, "Select (bytes mask) takes half or float tensors");
  static_assert(std::is_same<U, bool>::value || std::is_same<U, uint8_t>::value || std::is_same<U, int8_t>::value ||
                    std::is_same<U, half>::value || std::is_same<U, uint16_t>::value ||
                    std::is_same<U, int16_t>::value,
                "Select: the mask is bool, uint8_t, int8_t, half, uint16_t or int16_t");
  const uint32_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
  if ((cols * sizeof(T)) % 32 != 0) Fail("Select: srcLastAxis = %u is not a multiple of 32 bytes", cols);
  if ((mcols * sizeof(U)) % 32 != 0 || mcols % 16 != 0) {
    Fail("Select: maskLastAxis = %u must be a multiple of 32 bytes and of 16 elements", mcols);
  }
  if (mcols < cols) Fail("Select: maskLastAxis %u is shorter than srcLastAxis %u", mcols, cols);
  const uint64_t n = uint64_t{rows} * cols, nm = uint64_t{rows} * mcols;
  if (n > src.GetSize() || n > dst.GetSize() || nm > mask.GetSize()) {
    Fail("Select: %u rows need %llu source/destination and %llu mask elements, the tensors hold %u, %u and %u", rows,
         static_cast<unsigned long long>(n), static_cast<unsigned long long>(nm), src.GetSize(), dst.GetSize(),
         mask.GetSize());
  }
  CheckLocal(src.GetPhyAddr(), n * sizeof(T), "Select");
  CheckLocal(dst.GetPhyAddr(), n * sizeof(T), "Select");
  CheckLocal(mask.GetPhyAddr(), nm * sizeof(U), "Select");
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const bool set = MaskSet(mask.GetPhyAddr() + uint64_t{r} * mcols + c);
      const T v = src.GetPhyAddr()[uint64_t{r} * cols + c];
      dst.GetPhyAddr()[uint64_t{r} * cols + c] = (set != tensor_first) ? v : scalar;
    }
  }
}
}  // namespace npurt_detail

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                           npurt_detail::NoDeduce<T> src1, const LocalTensor<U>& mask,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo& info) {
  (void)sharedTmpBuffer;
  npurt_detail::SelectBytes<T, U>(dst, src0, src1, true, mask, info);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, npurt_detail::NoDeduce<T> src0,
                                           const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo& info) {
  (void)sharedTmpBuffer;
  npurt_detail::SelectBytes<T, U>(dst, src1, src0, false, mask, info);
}
// Select: the library's newer name for the same two forms.
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, npurt_detail::NoDeduce<T> src1,
                              const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                              const SelectWithBytesMaskShapeInfo& info) {
  SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, npurt_detail::NoDeduce<T> src0, const LocalTensor<T>& src1,
                              const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                              const SelectWithBytesMaskShapeInfo& info) {
  SelectWithBytesMask<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info);
}

// ---- DropOut ---------------------------------------------------------------------------------------------
// firstAxis rows of srcLastAxis elements; the mask has firstAxis rows of maskLastAxis uint8_t. With
// maskLastAxis >= srcLastAxis each mask byte decides its element (byte mode, the row's extra bytes ignored);
// with fewer, each bit does (bit mode: bit b of byte j, least significant first, is element 8j + b of the
// row; maskLastAxis * 8 >= srcLastAxis). A kept element is src * (1 / keepProb) (the reciprocal in float, as
// the vector unit multiplies by it), a dropped one 0.
struct DropOutShapeInfo {
  uint32_t firstAxis = 1;
  uint32_t srcLastAxis;
  uint32_t maskLastAxis;
};

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb, const DropOutShapeInfo& info) {
  static_assert(npurt_detail::kAdvFloat<T>, "DropOut takes half or float tensors");
  static_assert(!isInitBitMode && dropOutMode == 0,
                "DropOut: only the default mode (byte or bit mask chosen from the shapes) is simulated");
  (void)sharedTmpBuffer;
  const uint32_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
  const bool bytes = mcols >= cols;
  if (!bytes && uint64_t{mcols} * 8 < cols) {
    npurt_detail::Fail("DropOut: a mask row of %u bytes covers neither %u elements' bytes nor their bits", mcols, cols);
  }
  if (!(keepProb > 0.0f)) npurt_detail::Fail("DropOut: keepProb %f is not positive", static_cast<double>(keepProb));
  const uint64_t n = uint64_t{rows} * cols, nm = uint64_t{rows} * mcols;
  if (n > srcLocal.GetSize() || n > dstLocal.GetSize() || nm > maskLocal.GetSize()) {
    npurt_detail::Fail("DropOut: %u rows need %llu source/destination and %llu mask elements, the tensors hold %u, %u "
                       "and %u",
                       rows, static_cast<unsigned long long>(n), static_cast<unsigned long long>(nm),
                       srcLocal.GetSize(), dstLocal.GetSize(), maskLocal.GetSize());
  }
  npurt_detail::CheckLocal(srcLocal.GetPhyAddr(), n * sizeof(T), "DropOut");
  npurt_detail::CheckLocal(dstLocal.GetPhyAddr(), n * sizeof(T), "DropOut");
  npurt_detail::CheckLocal(maskLocal.GetPhyAddr(), nm, "DropOut");
  const float scale = 1.0f / keepProb;
  const uint8_t* m = maskLocal.GetPhyAddr();
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint8_t* row = m + uint64_t{r} * mcols;
      const bool keep = bytes ? row[c] != 0 : ((row[c / 8] >> (c % 8)) & 1u) != 0;
      const uint64_t e = uint64_t{r} * cols + c;
      dstLocal.GetPhyAddr()[e] =
          keep ? npurt_detail::AdvStore<T>(static_cast<float>(npurt_detail::AdvLoad(srcLocal.GetPhyAddr()[e])) * scale)
               : T(0);
    }
  }
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const float keepProb,
                               const DropOutShapeInfo& info) {
  DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, LocalTensor<uint8_t>(), keepProb, info);
}

}  // namespace AscendC
