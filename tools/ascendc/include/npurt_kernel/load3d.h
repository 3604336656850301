// Load3D v2 (img2col) on the sim: LoadData(A2/B2 <- A1/B1, LoadData3DParamsV2 or LoadData3DParamsV2Pro) with
// SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary and SetLoadDataRepeat (one repeat only). Part of
// kernel_operator.h (through cube.h).
//
// The source in L1 is a feature map in NC1HWC0 (N = 1): C1 blocks of l1H x l1W positions of C0 elements
// (C0 = 32 bytes: 32 int8, 16 half/bfloat16, 8 float/int32). img2col makes the matrix X: row m is output
// position (m / Wout, m % Wout) of a filterH x filterW window (dilated, strided, padded by padList =
// {left, right, top, bottom} with padValue), column k is channel block k / C0 (c1 major, then the filter's
// row and column) and element k % C0 of it. A load takes rows [mStartPt, +mExtension) and columns
// [kStartPt, +kExtension) of X, whole 16-row fractals, into
//   L0A, not transposed: X in zZ (16 x C0 fractals, row-major fractals, rows inside);
//   L0A, enTranspose (16- and 32-bit): X^T in zZ (16 x C0 fractals; its rows past kExtension are left as
//     they were), which is A's layout when L1 holds A^T;
//   L0B (always transposed, 16- and 32-bit): X in zN (C0 x 16 fractals, row-major fractals, each stored
//     column by column; columns past kExtension are left as they were).
// Window positions outside the feature map read padValue (rows past the last output position continue the
// same arithmetic). What the sim does not model fails the kernel:
// channelSize not a multiple of C0, 8-bit operands on the transposing paths, fMatrixCtrl (the right matrix's
// registers), enSmallK, a repeat count above 1 (SetLoadDataRepeat), a read past twice the boundary.
// SetLoadDataBoundary(b) (bytes; 0: none, the default): a source byte at L1 offset o >= b is read from o - b, the
// L1 buffer's start onwards (the Atlas A2 cores; CANN's set_loaddata_boundary sample).
// LoadData3DParamsV2Pro packs the fields: extConfig [15:0] kExtension, [31:16] mExtension, [47:32] kStartPt,
// [63:48] mStartPt; filterConfig bytes strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH
// (low to high); the feature map and padding value always come from SetFmatrix / SetLoadDataPaddingValue.
#pragma once

#include <cstring>

#include "npurt_kernel/local_memory.h"

namespace AscendC {

constexpr int32_t PAD_SIZE = 4;

// Whether LoadData sets the feature-map registers (l1H, l1W, padList) and the padding value from its
// parameters (true) or uses what SetFmatrix / SetLoadDataPaddingValue set (false).
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

template <typename T>
struct LoadData3DParamsV2 {
  __aicore__ LoadData3DParamsV2() = default;
  __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn,
                                uint16_t channelSizeIn, uint16_t kExtensionIn, uint16_t mExtensionIn,
                                uint16_t kStartPtIn, uint16_t mStartPtIn, uint8_t strideWIn, uint8_t strideHIn,
                                uint8_t filterWIn, uint8_t filterHIn, uint8_t dilationFilterWIn,
                                uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn, T padValueIn,
                                bool filterSizeWIn = false, bool filterSizeHIn = false, bool fMatrixCtrlIn = false)
      : l1H(l1HIn),
        l1W(l1WIn),
        channelSize(channelSizeIn),
        kExtension(kExtensionIn),
        mExtension(mExtensionIn),
        kStartPt(kStartPtIn),
        mStartPt(mStartPtIn),
        strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        padValue(padValueIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn) {
    for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
  }

  uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};  // left, right, top, bottom
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;  // filterW + 256
  bool filterSizeH = false;  // filterH + 256
  bool fMatrixCtrl = false;
};

namespace npurt_detail {

// The feature-map and padding registers SetFmatrix / SetLoadDataPaddingValue wrote, for the block that wrote them.
struct Load3dRegisters {
  const void* block = nullptr;
  uint16_t l1H = 0, l1W = 0;
  uint8_t pad[PAD_SIZE] = {0, 0, 0, 0};
  const void* padBlock = nullptr;
  uint64_t padValue = 0;  // bit for bit
  const void* boundaryBlock = nullptr;
  uint32_t boundary = 0;  // bytes of L1 after which a source read wraps to L1's start; 0: none
  const void* repeatBlock = nullptr;
  uint8_t repeatTime = 1;
};
inline thread_local Load3dRegisters g_load3d;

// Element offset of (row, col) in zZ (fr x fc fractals, colBlocks per row of fractals, rows inside) or
// zN (fractals in the same order, each stored column by column).
inline uint64_t ZzOffset(uint32_t row, uint32_t col, uint32_t fr, uint32_t fc, uint32_t colBlocks) {
  return ((static_cast<uint64_t>(row / fr) * colBlocks + col / fc) * fr + row % fr) * fc + col % fc;
}
inline uint64_t ZnOffset(uint32_t row, uint32_t col, uint32_t fr, uint32_t fc, uint32_t colBlocks) {
  return ((static_cast<uint64_t>(row / fr) * colBlocks + col / fc) * fc + col % fc) * fr + row % fr;
}

}  // namespace npurt_detail

__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[PAD_SIZE],
                                  const FmatrixMode& fmatrixMode) {
  using namespace npurt_detail;
  if (fmatrixMode != FmatrixMode::FMATRIX_LEFT) Fail("SetFmatrix: FMATRIX_RIGHT is not supported on the sim");
  g_load3d.block = g_state.block, g_load3d.l1H = l1H, g_load3d.l1W = l1W;
  for (int32_t i = 0; i < PAD_SIZE; ++i) g_load3d.pad[i] = padList[i];
}

template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "SetLoadDataPaddingValue: the value must fit 64 bits");
  npurt_detail::g_load3d.padBlock = npurt_detail::g_state.block;
  npurt_detail::g_load3d.padValue = 0;
  std::memcpy(&npurt_detail::g_load3d.padValue, &padValue, sizeof(T));
}

// The load's repeat register: repeatTime loads repeatStride apart. Only one repeat is modelled.
struct LoadDataRepeatParam {
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  __aicore__ LoadDataRepeatParam() = default;
  __aicore__ LoadDataRepeatParam(uint16_t stride, uint8_t time, uint8_t mode)
      : repeatStride(stride), repeatTime(time), repeatMode(mode) {}
};

__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& r) {
  npurt_detail::g_load3d.repeatBlock = npurt_detail::g_state.block;
  npurt_detail::g_load3d.repeatTime = r.repeatTime;
}

__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue) {
  npurt_detail::g_load3d.boundaryBlock = npurt_detail::g_state.block;
  npurt_detail::g_load3d.boundary = boundaryValue;
}

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p) {
  using namespace npurt_detail;
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "LoadData(LoadData3DParamsV2): 8-, 16- and 32-bit elements on the sim (int4b_t is not supported)");
  constexpr uint32_t c0 = ONE_BLK_SIZE / sizeof(T);
  if (p.fMatrixCtrl) Fail("LoadData(LoadData3DParamsV2): fMatrixCtrl (the right matrix's registers) is not supported");
  if (p.enSmallK) Fail("LoadData(LoadData3DParamsV2): enSmallK is not supported (nor by the A2 cores)");
  if (g_load3d.repeatBlock == g_state.block && g_load3d.repeatTime > 1) {
    Fail("LoadData(LoadData3DParamsV2): SetLoadDataRepeat's repeatTime %u above 1 is not supported on the sim",
         g_load3d.repeatTime);
  }
  const uint32_t boundary = g_load3d.boundaryBlock == g_state.block ? g_load3d.boundary : 0u;
  uint32_t l1H = p.l1H, l1W = p.l1W;
  uint8_t pad[PAD_SIZE] = {p.padList[0], p.padList[1], p.padList[2], p.padList[3]};
  if constexpr (!defaultConfig.isSetFMatrix) {
    if (g_load3d.block != g_state.block) Fail("LoadData(LoadData3DParamsV2): isSetFMatrix false without SetFmatrix");
    l1H = g_load3d.l1H, l1W = g_load3d.l1W;
    for (int32_t i = 0; i < PAD_SIZE; ++i) pad[i] = g_load3d.pad[i];
  }
  T padValue = p.padValue;
  if constexpr (!defaultConfig.isSetPadding) {
    uint64_t bits = g_load3d.padBlock == g_state.block ? g_load3d.padValue : 0;
    std::memcpy(&padValue, &bits, sizeof(T));
  }
  const uint32_t fh = p.filterH + (p.filterSizeH ? 256u : 0u), fw = p.filterW + (p.filterSizeW ? 256u : 0u);
  // The instruction is a no-op when any extent is zero.
  if (l1H == 0 || l1W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0 || fh == 0 || fw == 0) {
    return;
  }
  if (p.channelSize % c0 != 0) {
    Fail("LoadData(LoadData3DParamsV2): channelSize %u that is not a multiple of C0 (%u) is not supported on the sim",
         p.channelSize, c0);
  }
  const bool toB = dst.GetPosition() == TPosition::B2;
  if (sizeof(T) == 1 && (toB || p.enTranspose)) {
    Fail("LoadData(LoadData3DParamsV2): 8-bit elements cannot be transposed (L0B, or enTranspose into L0A)");
  }
  if (p.strideH == 0 || p.strideW == 0) Fail("LoadData(LoadData3DParamsV2): strideH and strideW must be positive");
  const int64_t khd = static_cast<int64_t>(fh - 1) * p.dilationFilterH + 1;
  const int64_t kwd = static_cast<int64_t>(fw - 1) * p.dilationFilterW + 1;
  const int64_t wOut = (static_cast<int64_t>(l1W) + pad[0] + pad[1] - kwd) / p.strideW + 1;
  const int64_t hOut = (static_cast<int64_t>(l1H) + pad[2] + pad[3] - khd) / p.strideH + 1;
  if (wOut <= 0 || hOut <= 0) Fail("LoadData(LoadData3DParamsV2): the filter is larger than the padded feature map");
  const uint32_t c1 = p.channelSize / c0;
  const uint64_t kTotal = static_cast<uint64_t>(c1) * fh * fw * c0;
  const uint32_t m1 = (p.mExtension + 15u) / 16u;
  const uint32_t k1 = (p.kExtension + c0 - 1) / c0;
  const uint32_t rows = m1 * 16u;                                    // rows of X moved (whole fractals)
  const uint32_t cols = p.enTranspose || toB ? p.kExtension : k1 * c0;  // columns of X moved
  if (p.kStartPt + static_cast<uint64_t>(cols) > kTotal) {
    Fail("LoadData(LoadData3DParamsV2): columns [%u, +%u) pass the %llu of the feature map's img2col matrix",
         p.kStartPt, cols, static_cast<unsigned long long>(kTotal));
  }
  const T* s = src.GetPhyAddr();
  T* d = dst.GetPhyAddr();
  const uint64_t srcBytes = static_cast<uint64_t>(c1) * l1H * l1W * c0 * sizeof(T);
  const uint8_t* l1 = CubeBase(LocalMem::kL1);
  const uint64_t srcAt = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(s) - l1);
  if (boundary == 0 || srcAt + srcBytes <= boundary) {
    CheckLocal(s, srcBytes, "LoadData(LoadData3DParamsV2) source");
  } else if (srcAt + srcBytes > 2ull * boundary) {
    Fail("LoadData(LoadData3DParamsV2): the source [%llu, +%llu) passes twice SetLoadDataBoundary's %u bytes",
         static_cast<unsigned long long>(srcAt), static_cast<unsigned long long>(srcBytes), boundary);
  }
  // The destination's extent and element offsets.
  const uint32_t colsUp16 = (cols + 15u) / 16u;
  uint64_t dstElems = 0;
  if (toB) {
    dstElems = static_cast<uint64_t>(rows) * colsUp16 * 16u;
  } else if (p.enTranspose) {
    dstElems = static_cast<uint64_t>(colsUp16) * 16u * rows;
  } else {
    dstElems = static_cast<uint64_t>(rows) * cols;
  }
  CheckCube(d, dstElems * sizeof(T), toB ? LocalMem::kL0B : LocalMem::kL0A, "LoadData(LoadData3DParamsV2) destination");
  for (uint32_t r = 0; r < rows; ++r) {
    const int64_t m = static_cast<int64_t>(p.mStartPt) + r;
    const int64_t oh = m / wOut, ow = m % wOut;
    for (uint32_t c = 0; c < cols; ++c) {
      const uint64_t k = static_cast<uint64_t>(p.kStartPt) + c;
      const uint64_t blk = k / c0, win = blk % (static_cast<uint64_t>(fh) * fw);
      const uint64_t ch1 = blk / (static_cast<uint64_t>(fh) * fw);
      const int64_t ih = oh * p.strideH - pad[2] + static_cast<int64_t>(win / fw) * p.dilationFilterH;
      const int64_t iw = ow * p.strideW - pad[0] + static_cast<int64_t>(win % fw) * p.dilationFilterW;
      T v = padValue;
      if (ih >= 0 && ih < static_cast<int64_t>(l1H) && iw >= 0 && iw < static_cast<int64_t>(l1W)) {
        const uint64_t e = ((ch1 * l1H + static_cast<uint64_t>(ih)) * l1W + static_cast<uint64_t>(iw)) * c0 + k % c0;
        uint64_t byte = srcAt + e * sizeof(T);
        if (boundary != 0 && byte >= boundary) byte -= boundary;
        std::memcpy(static_cast<void*>(&v), l1 + byte, sizeof(T));
      }
      uint64_t off = 0;
      if (toB) {
        off = ZnOffset(r, c, c0, 16u, colsUp16);
      } else if (p.enTranspose) {
        off = ZzOffset(c, r, 16u, c0, rows / c0);
      } else {
        off = ZzOffset(r, c, 16u, c0, k1);
      }
      d[off] = v;
    }
  }
}

struct LoadData3DParamsV2Pro {
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0x10101010101ull;
};

namespace npurt_detail {
inline constexpr IsResetLoad3dConfig kLoad3dFromRegisters = {false, false};
}  // namespace npurt_detail

// The packed form of Load3D v2: the feature map, its padding and the padding value from the registers.
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p) {
  LoadData3DParamsV2<T> q;
  q.channelSize = p.channelSize;
  q.kExtension = static_cast<uint16_t>(p.extConfig);
  q.mExtension = static_cast<uint16_t>(p.extConfig >> 16);
  q.kStartPt = static_cast<uint16_t>(p.extConfig >> 32);
  q.mStartPt = static_cast<uint16_t>(p.extConfig >> 48);
  q.strideW = static_cast<uint8_t>(p.filterConfig);
  q.strideH = static_cast<uint8_t>(p.filterConfig >> 8);
  q.filterW = static_cast<uint8_t>(p.filterConfig >> 16);
  q.filterH = static_cast<uint8_t>(p.filterConfig >> 24);
  q.dilationFilterW = static_cast<uint8_t>(p.filterConfig >> 32);
  q.dilationFilterH = static_cast<uint8_t>(p.filterConfig >> 40);
  q.enTranspose = p.enTranspose;
  q.enSmallK = p.enSmallK;
  q.filterSizeW = p.filterSizeW;
  q.filterSizeH = p.filterSizeH;
  q.fMatrixCtrl = p.fMatrixCtrl;
  LoadData<T, npurt_detail::kLoad3dFromRegisters>(dst, src, q);
}

}  // namespace AscendC
