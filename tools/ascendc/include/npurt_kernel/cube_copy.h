// The cube unit's data movement for the sim: DataCopy GM -> A1/B1 with ND-to-NZ conversion (Nd2NzParams),
// LoadData L1 -> L0A/L0B in 512-byte fractals (LoadData2DParams), DataCopy CO1 -> CO2 in fractals
// (DataCopyEnhancedParams) and BroadCastVecToMM UB -> CO1. The plain DataCopy forms (count, DataCopyParams)
// reach the cube positions through data_copy.h. Part of kernel_operator.h.
//
// Layouts (C0 = 32 bytes of elements: 16 half/bfloat16, 8 float, 32 int8, 64 int4b_t):
//   NZ in L1: the matrix in columns of C0 elements; column block c starts dstNzC0Stride 32-byte blocks after
//     block c-1, and inside it row r is dstNzNStride blocks after row r-1 (the usual NZ has dstNzNStride 1
//     and dstNzC0Stride = the rows, aligned to 16): 16 x C0 fractals, ordered down the columns.
//   LoadData moves whole fractals (16 rows of 32 bytes), which is how the NZ matrix in L1 becomes the
//   layouts Mmad reads (npurt_kernel/mmad.h).
#pragma once

#include "npurt_kernel/data_copy.h"

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 1;              // matrices
  uint16_t nValue = 0;             // rows of each matrix
  uint16_t dValue = 0;             // elements of each row
  uint16_t srcNdMatrixStride = 0;  // elements from one source matrix to the next
  uint16_t srcDValue = 0;          // elements from one source row to the next
  uint16_t dstNzC0Stride = 0;      // 32-byte blocks from one C0 column block to the next
  uint16_t dstNzNStride = 0;       // 32-byte blocks from one row to the next in a column block
  uint16_t dstNzMatrixStride = 0;  // elements from one destination matrix to the next
  __aicore__ Nd2NzParams() = default;
  __aicore__ Nd2NzParams(uint16_t nd_num, uint16_t n, uint16_t d, uint16_t src_matrix_stride, uint16_t src_d,
                         uint16_t dst_c0_stride, uint16_t dst_n_stride, uint16_t dst_matrix_stride)
      : ndNum(nd_num),
        nValue(n),
        dValue(d),
        srcNdMatrixStride(src_matrix_stride),
        srcDValue(src_d),
        dstNzC0Stride(dst_c0_stride),
        dstNzNStride(dst_n_stride),
        dstNzMatrixStride(dst_matrix_stride) {}
};

struct LoadData2DParams {
  uint16_t startIndex = 0;  // first source fractal
  uint8_t repeatTimes = 0;  // fractals moved
  uint16_t srcStride = 0;   // fractals from one source fractal to the next
  uint8_t sid = 0;
  uint16_t dstGap = 0;       // fractals left between two destination fractals
  bool ifTranspose = false;  // transpose each 16 x 16 fractal (16-bit types)
  uint8_t addrMode = 0;
  __aicore__ LoadData2DParams() = default;
  __aicore__ LoadData2DParams(uint16_t start, uint8_t repeat, uint16_t src_stride, uint8_t sid_in, uint16_t dst_gap,
                              bool transpose, uint8_t addr_mode)
      : startIndex(start),
        repeatTimes(repeat),
        srcStride(src_stride),
        sid(sid_in),
        dstGap(dst_gap),
        ifTranspose(transpose),
        addrMode(addr_mode) {}
};

namespace npurt_detail {
constexpr uint32_t kFractalBytes = 512;  // one fractal: 16 rows of 32 bytes
}  // namespace npurt_detail

// GM (ND) -> A1/B1 (NZ). A row's last 32-byte block is completed with zeros, as the hardware pads it.
// int4b_t: the copy moves the data as bytes (two elements as one int8_t, the low nibble the even element), so
// dValue, srcDValue, srcNdMatrixStride and dstNzMatrixStride count bytes (pairs of elements), as for int8_t
// (C0 = 32 bytes = 64 elements); a padded row's last block is completed with zero bytes.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  using namespace npurt_detail;
  if constexpr (kIsInt4<T>) {
    LocalTensor<int8_t> d(reinterpret_cast<int8_t*>(dst.GetPhyAddr()), dst.GetSize() / 2, dst.GetPosition());
    GlobalTensor<int8_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(src.GetPhyAddr()), src.GetSize() / 2);
    DataCopy(d, g, p);
    return;
  }
  constexpr uint32_t c0 = ONE_BLK_SIZE / sizeof(T);
  const uint32_t blocks = (p.dValue + c0 - 1) / c0;
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    const T* s = src.GetPhyAddr() + static_cast<uint64_t>(i) * p.srcNdMatrixStride;
    T* d = dst.GetPhyAddr() + static_cast<uint64_t>(i) * p.dstNzMatrixStride;
    if (p.nValue != 0) {
      CheckGlobal(s, (static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue) * sizeof(T), false,
                  "DataCopy(GM->L1, Nd2NzParams)");
      const uint64_t last = (static_cast<uint64_t>(blocks - 1) * p.dstNzC0Stride +
                             static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride + 1) *
                            ONE_BLK_SIZE;
      if (blocks != 0) CheckLocal(d, last, "DataCopy(GM->L1, Nd2NzParams)");
    }
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const T* sr = s + static_cast<uint64_t>(r) * p.srcDValue;
      T* dr = d + static_cast<uint64_t>(r) * p.dstNzNStride * c0;
      for (uint32_t b = 0; b < blocks; ++b) {
        T* db = dr + static_cast<uint64_t>(b) * p.dstNzC0Stride * c0;
        const uint32_t n = p.dValue - b * c0 < c0 ? p.dValue - b * c0 : c0;
        std::memcpy(db, sr + b * c0, n * sizeof(T));
        if (n < c0) std::memset(static_cast<void*>(db + n), 0, (c0 - n) * sizeof(T));
      }
    }
  }
}

// A1 -> A2, B1 -> B2 (and L1 -> L1): repeatTimes fractals, source fractal i at startIndex + i * srcStride,
// destination fractal i at i * (1 + dstGap); ifTranspose swaps rows and columns inside each fractal.
// int4b_t moves the same 512-byte fractals (16 x 64 elements); the tensors' offsets count elements (nibbles).
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  using namespace npurt_detail;
  if (p.ifTranspose && sizeof(T) != 2) {
    Fail("LoadData(LoadData2DParams): ifTranspose is supported for 16-bit types only (the element is %u bytes)",
         static_cast<unsigned>(sizeof(T)));
  }
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* sf =
        s + (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(i) * p.srcStride) * kFractalBytes;
    uint8_t* df = d + static_cast<uint64_t>(i) * (1u + p.dstGap) * kFractalBytes;
    CheckLocal(sf, kFractalBytes, "LoadData");
    CheckLocal(df, kFractalBytes, "LoadData");
    if (!p.ifTranspose) {
      std::memmove(df, sf, kFractalBytes);
    } else {
      uint16_t tmp[16 * 16];
      std::memcpy(tmp, sf, sizeof tmp);
      auto* out = reinterpret_cast<uint16_t*>(df);
      for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) out[c * 16 + r] = tmp[r * 16 + c];
      }
    }
  }
}

// Load2D v2 (LoadData2DParamsV2: positions and steps in fractals along M and K) is the Ascend 950 (dav-3510)
// form, whose L0A layout differs from the Atlas A2 cube the sim models: the struct exists so that samples
// with a dav-3510 branch build for dav-2201, and a LoadData that uses it fails the build.
struct LoadData2DParamsV2 {
  uint32_t mStartPosition = 0;
  uint32_t kStartPosition = 0;
  uint16_t mStep = 0;
  uint16_t kStep = 0;
  int32_t srcStride = 0;
  uint16_t dstStride = 0;
  bool ifTranspose = false;
  uint8_t sid = 0;
};

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData2DParamsV2&) {
  static_assert(sizeof(T) == 0, "LoadData(LoadData2DParamsV2): Load2D v2 (Ascend 950) is not modelled by the sim");
}

namespace npurt_detail {
// DataCopy(C2 / C2PIPE2GM <- C1, DataCopyParams) on the A2 cores: blockCount runs of blockLen units, the source
// srcStride 32-byte blocks apart and the destination dstStride units apart; the unit is 64 bytes into the bias
// table (C2) and 128 bytes into the fixpipe buffer (C2PIPE2GM), the API reference's units for L1 -> BiasTable
// and L1 -> FixBuffer on Atlas A2/A3.
template <typename T>
void CopyToBiasTable(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  const bool fb = dst.GetPosition() == TPosition::C2PIPE2GM;
  const uint64_t unit = fb ? 128u : 64u;
  const uint64_t row = static_cast<uint64_t>(p.blockLen) * unit;
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* dr = d + i * (row + static_cast<uint64_t>(p.dstStride) * unit);
    const uint8_t* sr = s + i * (row + static_cast<uint64_t>(p.srcStride) * ONE_BLK_SIZE);
    CheckCube(dr, row, fb ? LocalMem::kFB : LocalMem::kBT, fb ? "DataCopy(C1->C2PIPE2GM)" : "DataCopy(C1->C2)");
    CheckLocal(sr, row, fb ? "DataCopy(C1->C2PIPE2GM)" : "DataCopy(C1->C2)");
    std::memmove(dr, sr, row);
  }
}
template <typename D, typename S>
void ConvertToBiasTable(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p) {
  const uint64_t n = static_cast<uint64_t>(p.blockLen) * 64u / sizeof(S);  // elements a block row
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    D* dr = reinterpret_cast<D*>(d + i * (n * sizeof(D) + static_cast<uint64_t>(p.dstStride) * 64u));
    const S* sr = reinterpret_cast<const S*>(s + i * (n * sizeof(S) + static_cast<uint64_t>(p.srcStride) * ONE_BLK_SIZE));
    CheckCube(dr, n * sizeof(D), LocalMem::kBT, "DataCopy(C1->C2)");
    CheckLocal(sr, n * sizeof(S), "DataCopy(C1->C2)");
    for (uint64_t k = 0; k < n; ++k) dr[k] = static_cast<D>(static_cast<float>(sr[k]));
  }
}
}  // namespace npurt_detail

// LoadDataWithTranspose: L1 -> L0A/L0B transposing square blocks. An iteration takes the square at
// startIndex + i * srcStride squares, one square being 32 x 32 int8 (two 16 x 32 fractals one above the
// other), 16 x 16 half/bfloat16 (one fractal) or 16 x 16 float/int32 (two 16 x 8 fractals side by side),
// transposes it and splits it back into its fractals, the first at i * (1 + dstGap) fractals of the
// destination and the second (int8, 32-bit) (1 + dstFracGap) fractals after the first.
struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
  __aicore__ LoadData2dTransposeParams() = default;
  __aicore__ LoadData2dTransposeParams(uint16_t start, uint8_t repeat, uint16_t src_stride, uint16_t dst_gap,
                                       uint16_t dst_frac_gap, uint8_t addr_mode = 0)
      : startIndex(start),
        repeatTimes(repeat),
        srcStride(src_stride),
        dstGap(dst_gap),
        dstFracGap(dst_frac_gap),
        addrMode(addr_mode) {}
};

template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& p) {
  using namespace npurt_detail;
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "LoadDataWithTranspose: 8-, 16- and 32-bit elements only");
  static_assert(!kIsInt4<T>, "LoadDataWithTranspose: int4b_t (64 x 64 squares) is not modelled by the sim");
  if (p.addrMode != 0) Fail("LoadDataWithTranspose: addrMode %u is not supported on the sim", p.addrMode);
  constexpr uint32_t frac = kFractalBytes;
  constexpr uint32_t fracs = sizeof(T) == 2 ? 1u : 2u;  // fractals a square holds
  constexpr uint32_t side = sizeof(T) == 1 ? 32u : 16u;  // the square is side x side elements
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* sq = s + (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(i) * p.srcStride) * fracs * frac;
    CheckLocal(sq, fracs * frac, "LoadDataWithTranspose");
    // The square, element (r, c).
    T in[32 * 32];
    auto at = [&](uint32_t r, uint32_t c) -> const T* {
      if constexpr (sizeof(T) == 4) {  // 16 x 8 fractals side by side
        return reinterpret_cast<const T*>(sq + (c / 8) * frac) + r * 8 + c % 8;
      } else {  // fractals one above the other, rows of 32 bytes
        return reinterpret_cast<const T*>(sq) + r * side + c;
      }
    };
    for (uint32_t r = 0; r < side; ++r)
      for (uint32_t c = 0; c < side; ++c) std::memcpy(&in[r * side + c], at(r, c), sizeof(T));
    uint8_t* first = d + static_cast<uint64_t>(i) * (1u + p.dstGap) * frac;
    uint8_t* second = first + (1u + p.dstFracGap) * frac;
    CheckLocal(first, frac, "LoadDataWithTranspose");
    if (fracs == 2) CheckLocal(second, frac, "LoadDataWithTranspose");
    // The transposed square, element (r, c) = in(c, r), split as the source was.
    for (uint32_t r = 0; r < side; ++r) {
      for (uint32_t c = 0; c < side; ++c) {
        T* out = nullptr;
        if constexpr (sizeof(T) == 4) {
          out = reinterpret_cast<T*>(c < 8 ? first : second) + r * 8 + c % 8;
        } else {
          const uint32_t row_in = r % 16;
          out = reinterpret_cast<T*>(r < 16 ? first : second) + row_in * side + c;
        }
        std::memcpy(out, &in[c * side + r], sizeof(T));
      }
    }
  }
}

// CO1 -> CO2 / VECIN (the older cores' way out of L0C, CANN's basic matmul sample): DataCopy with
// DataCopyEnhancedParams. BLOCK_MODE_MATRIX moves whole 16 x 16 fractals: blockCount runs of blockLen
// fractals, srcStride / dstStride fractals between runs, converting the accumulators to the destination type
// (float -> half rounds to nearest even) with relu first when isRelu. Other block modes fail the kernel.
enum class BlockMode : uint8_t {
  BLOCK_MODE_NORMAL = 0,
  BLOCK_MODE_MATRIX,
  BLOCK_MODE_VECTOR,
  BLOCK_MODE_SMALL_CHANNEL,
  BLOCK_MODE_DEPTHWISE
};
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class pad_t : uint8_t {
  PAD_NONE = 0,
  PAD_MODE1,
  PAD_MODE2,
  PAD_MODE3,
  PAD_MODE4,
  PAD_MODE5,
  PAD_MODE6,
  PAD_MODE7,
  PAD_MODE8
};

struct DataCopyEnhancedParams {
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
  pad_t padMode = pad_t::PAD_NONE;
  uint64_t padValue = 0;
  uint64_t deqTensorAddr = 0;
};

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                                const DataCopyEnhancedParams& e) {
  using namespace npurt_detail;
  if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX) {
    Fail("DataCopy(DataCopyEnhancedParams): only BLOCK_MODE_MATRIX (CO1 -> CO2 fractals) is supported on the sim");
  }
  if (e.deqScale != DeqScale::DEQ_NONE) Fail("DataCopy(DataCopyEnhancedParams): deqScale is not supported on the sim");
  constexpr uint32_t kFrac = 256;
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    const U* s = src.GetPhyAddr() + static_cast<size_t>(i) * (p.blockLen + p.srcStride) * kFrac;
    T* d = dst.GetPhyAddr() + static_cast<size_t>(i) * (p.blockLen + p.dstStride) * kFrac;
    const size_t n = static_cast<size_t>(p.blockLen) * kFrac;
    CheckCube(s, n * sizeof(U), LocalMem::kL0C, "DataCopy(CO1->CO2)");
    CheckLocal(d, n * sizeof(T), "DataCopy(CO1->CO2)");
    for (size_t j = 0; j < n; ++j) {
      U v = s[j];
      if (e.isRelu && v < U(0)) v = U(0);
      d[j] = static_cast<T>(v);
    }
  }
}

// BroadCastVecToMM (UB -> CO1; the API reference lists it for the Atlas inference cores): blockCount runs of
// blockLen 16 x 16 fractals; fractal j of run i is 16 copies of the 16 source elements at i * (blockLen * 16
// elements + srcGap 32-byte blocks) + j * 16, written at (i * (blockLen + dstGap) + j) * 256 elements.
template <typename T, typename U>
__aicore__ inline void BroadCastVecToMM(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t blockCount,
                                        const uint8_t blockLen, const uint8_t srcGap, const uint8_t dstGap) {
  using namespace npurt_detail;
  static_assert(std::is_same<T, U>::value && (std::is_same<T, half>::value || std::is_same<T, float>::value ||
                                              std::is_same<T, int32_t>::value),
                "BroadCastVecToMM: dst and src are both half, float or int32_t");
  constexpr uint32_t kFrac = 256;
  for (int32_t i = 0; i < blockCount; ++i) {
    const uint8_t* run = reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) +
                         static_cast<size_t>(i) * (blockLen * 16u * sizeof(U) + srcGap * ONE_BLK_SIZE);
    CheckLocal(run, blockLen * 16u * sizeof(U), "BroadCastVecToMM (source)");
    for (uint32_t j = 0; j < blockLen; ++j) {
      const U* s = reinterpret_cast<const U*>(run) + j * 16u;
      T* d = dst.GetPhyAddr() + (static_cast<size_t>(i) * (blockLen + dstGap) + j) * kFrac;
      CheckCube(d, kFrac * sizeof(T), LocalMem::kL0C, "BroadCastVecToMM (CO1 destination)");
      for (uint32_t r = 0; r < 16; ++r) std::memcpy(d + r * 16, s, 16 * sizeof(T));
    }
  }
}

}  // namespace AscendC
