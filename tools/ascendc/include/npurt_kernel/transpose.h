// Ascend C data-layout conversions of the unified buffer for the sim:
//   Transpose(dst, src)                             one 16 x 16 matrix of 16-bit elements, transposed
//   Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt)
//       TRANSPOSE_ND2ND_B16: the same 16 x 16 transpose (uint16_t on Atlas A2);
//       TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW: [N,C,H,W] <-> [N,H,W,C] (H * W * sizeof(T) a multiple
//       of 32 bytes; the temporary buffer must hold what the reference asks for; src and dst must not
//       overlap); TRANSPOSE_TYPE_NONE does nothing; the other TransposeTypes are not supported by the
//       API on this SoC and fail the kernel.
//   TransDataTo5HD(dstList, srcList, TransDataTo5HDParams)   (16-bit elements)
//       each repeat reads 16 source blocks (16 elements each: the rows of a 16 x 16 matrix) and writes
//       its columns to the 16 destination blocks; repeat r's blocks are r * srcRepStride /
//       r * dstRepStride blocks past the lists' addresses, except that a single repeat is already one
//       stride past them (the reference's rule for repeatTimes = 1). The 8- and 32-bit forms (half
//       blocks, pairs of blocks) are not modelled and fail at build time.
// Part of kernel_operator.h (through vector_level0.h).
#pragma once

#include <cstring>
#include <type_traits>

#include "npurt_kernel/vector_level0.h"

namespace AscendC {

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,  // [16, 16] of 16-bit elements
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
};

struct TransposeParamsExt {
  constexpr __aicore__ TransposeParamsExt() = default;
  constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                          const uint16_t wSizeIn, const TransposeType transposeTypeIn)
      : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

struct TransDataTo5HDParams {
  constexpr __aicore__ TransDataTo5HDParams() = default;
  constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                            const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                            const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;  // 8-bit elements only
  bool srcHighHalf = false;  // 8-bit elements only
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;  // 32-byte blocks
  uint16_t srcRepStride = 0;  // 32-byte blocks
};

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

namespace npurt_detail {

// The 16 x 16 transpose of 2-byte elements (src may be dst).
inline void Transpose16x16(void* dst, const void* src, const char* what) {
  CheckLocal(src, 16 * 16 * 2, what);
  CheckLocal(dst, 16 * 16 * 2, what);
  uint16_t m[16][16];
  std::memcpy(m, src, sizeof m);
  auto* d = static_cast<uint16_t*>(dst);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) d[j * 16 + i] = m[i][j];
  }
}

template <typename T>
inline void TransDataTo5HDImpl(const uint64_t* dst_list, const uint64_t* src_list, const TransDataTo5HDParams& p) {
  static_assert(sizeof(T) == 2,
                "TransDataTo5HD: only 16-bit elements are modelled on the sim (the 8-bit half-block and 32-bit "
                "two-block layouts are not)");
  const char* what = "TransDataTo5HD";
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint64_t step = p.repeatTimes == 1 ? 1 : r;  // a single repeat starts one stride past the lists
    uint16_t m[16][16];
    for (int i = 0; i < 16; ++i) {
      const auto* s = reinterpret_cast<const uint8_t*>(src_list[i]) + step * p.srcRepStride * 32;
      CheckLocal(s, 32, what);
      std::memcpy(m[i], s, 32);
    }
    for (int j = 0; j < 16; ++j) {
      auto* d = reinterpret_cast<uint8_t*>(dst_list[j]) + step * p.dstRepStride * 32;
      CheckLocal(d, 32, what);
      uint16_t col[16];
      for (int i = 0; i < 16; ++i) col[i] = m[i][j];
      std::memcpy(d, col, 32);
    }
  }
}

}  // namespace npurt_detail

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value || std::is_same<T, half>::value,
                "Transpose: int16_t, uint16_t or half elements");
  npurt_detail::Transpose16x16(dst.GetPhyAddr(), src.GetPhyAddr(), "Transpose");
}

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& params) {
  const char* what = "Transpose";
  switch (params.transposeType) {
    case TransposeType::TRANSPOSE_TYPE_NONE:
      return;
    case TransposeType::TRANSPOSE_ND2ND_B16:
      if constexpr (std::is_same<T, uint16_t>::value) {
        npurt_detail::Transpose16x16(dst.GetPhyAddr(), src.GetPhyAddr(), what);
        return;
      } else {
        npurt_detail::Fail("Transpose: TRANSPOSE_ND2ND_B16 takes uint16_t elements on Atlas A2");
      }
    case TransposeType::TRANSPOSE_NCHW2NHWC:
    case TransposeType::TRANSPOSE_NHWC2NCHW: {
      static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Transpose: 8-, 16- or 32-bit elements");
      const bool to_nhwc = params.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
      const uint64_t n = params.nSize, c = params.cSize, hw = uint64_t{params.hSize} * params.wSize;
      if (c > 4095 || hw > 4095) npurt_detail::Fail("Transpose: cSize %llu or hSize * wSize %llu above 4095",
                                                    static_cast<unsigned long long>(c), static_cast<unsigned long long>(hw));
      if (hw * sizeof(T) % 32 != 0) {
        npurt_detail::Fail("Transpose: hSize * wSize * sizeof(T) = %llu bytes is not a multiple of 32",
                           static_cast<unsigned long long>(hw * sizeof(T)));
      }
      // The temporary buffer the reference asks for: (cSize + 2) (to NHWC) or (2 cSize + 1) (to NCHW)
      // blocks of h0 x w0 elements (h0 = 32 for 8-bit elements, else 16; w0 = 32 / sizeof(T)).
      const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
      const uint64_t need = (to_nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * sizeof(T);
      if (sharedTmpBuffer.GetSize() < need) {
        npurt_detail::Fail("Transpose: sharedTmpBuffer holds %llu bytes, %llu needed",
                           static_cast<unsigned long long>(sharedTmpBuffer.GetSize()), static_cast<unsigned long long>(need));
      }
      const uint64_t total = n * c * hw;
      npurt_detail::CheckLocal(src.GetPhyAddr(), total * sizeof(T), what);
      npurt_detail::CheckLocal(dst.GetPhyAddr(), total * sizeof(T), what);
      const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
      auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
      if (d < s + total * sizeof(T) && s < d + total * sizeof(T)) {
        npurt_detail::Fail("Transpose: NCHW <-> NHWC needs distinct source and destination");
      }
      for (uint64_t b = 0; b < n; ++b) {
        for (uint64_t ch = 0; ch < c; ++ch) {
          for (uint64_t x = 0; x < hw; ++x) {
            const uint64_t nchw = (b * c + ch) * hw + x, nhwc = (b * hw + x) * c + ch;
            const uint64_t from = to_nhwc ? nchw : nhwc, to = to_nhwc ? nhwc : nchw;
            std::memcpy(d + to * sizeof(T), s + from * sizeof(T), sizeof(T));
          }
        }
      }
      return;
    }
    default:
      npurt_detail::Fail("Transpose: TransposeType %d is not supported on Atlas A2", static_cast<int>(params.transposeType));
  }
}

template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
  npurt_detail::TransDataTo5HDImpl<T>(dstList, srcList, nchwconvParams);
}

// The lists as uint64_t tensors of 16 addresses each.
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                                      const TransDataTo5HDParams& nchwconvParams) {
  npurt_detail::CheckLocal(dst.GetPhyAddr(), 16 * 8, "TransDataTo5HD");
  npurt_detail::CheckLocal(src.GetPhyAddr(), 16 * 8, "TransDataTo5HD");
  npurt_detail::TransDataTo5HDImpl<T>(dst.GetPhyAddr(), src.GetPhyAddr(), nchwconvParams);
}

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = reinterpret_cast<uint64_t>(dstList[i].GetPhyAddr());
    s[i] = reinterpret_cast<uint64_t>(srcList[i].GetPhyAddr());
  }
  npurt_detail::TransDataTo5HDImpl<T>(d, s, nchwconvParams);
}

}  // namespace AscendC
