// MatmulCallBackFunc's CopyA1 / CopyB1 on the sim (npurt_kernel/matmul_impl.h): the user's function fills each
// L1 tile of A (B) in NZ, as the hardware's copy would, and the Matmul reads the operand from those tiles.
//
//   CopyA1(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM, int useK,
//          const uint64_t tilingPtr, const uint64_t dataPtr)
//   CopyB1(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK, int useN,
//          const uint64_t tilingPtr, const uint64_t dataPtr)
//
// A's tiles are (baseM * stepM) x (baseK * stepKa) of the core's singleCoreM x singleCoreK (row: the tile's
// index along M, col along K; the last ones smaller), B's (baseK * stepKb) x (baseN * stepN) (row along K,
// col along N); gm is SetTensorA/B's address, tilingPtr SetUserDefInfo's value, dataPtr SetSelfDefineData's.
// A tile in L1 is NZ: element (r, c) at ((c / C0) * AlignUp(rows, 16) + r) * C0 + c % C0, C0 = 32 bytes of
// elements. The whole tile's tiles are gathered once per sequence of Iterates (as A and B are packed once),
// into an ND copy that the Matmul then reads.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "npurt_kernel/local_memory.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {
namespace npurt_detail {

// Calls `copy` for every rowTile x colTile tile of a rows x cols operand and unpacks the NZ tiles into `nd`
// (rows x cols, row-major). `l1` is a scratch L1 area of at least one tile, handed over at `pos` (A1, B1).
template <auto copy, typename T>
inline void GatherTilesByCallback(std::vector<T>& nd, uint8_t* l1, const void* gm, int32_t rows, int32_t cols,
                                  int32_t rowTile, int32_t colTile, uint64_t tilingPtr, uint64_t dataPtr,
                                  TPosition pos) {
  constexpr int32_t kC0 = 32 / static_cast<int32_t>(sizeof(T));
  nd.assign(static_cast<size_t>(rows) * cols, T{});
  const int32_t rowAligned = (rowTile + 15) / 16 * 16, colAligned = (colTile + kC0 - 1) / kC0 * kC0;
  const uint32_t bytes = static_cast<uint32_t>(rowAligned * colAligned * sizeof(T));
  for (int32_t r = 0; r * rowTile < rows; ++r) {
    for (int32_t c = 0; c * colTile < cols; ++c) {
      const int32_t useR = rows - r * rowTile < rowTile ? rows - r * rowTile : rowTile;
      const int32_t useC = cols - c * colTile < colTile ? cols - c * colTile : colTile;
      std::memset(l1, 0, bytes);
      copy(LocalTensor<int8_t>(reinterpret_cast<int8_t*>(l1), bytes, pos), gm, r, c, useR, useC, tilingPtr,
           dataPtr);
      const T* tile = reinterpret_cast<const T*>(l1);
      const int64_t alignR = (useR + 15) / 16 * 16;
      for (int32_t i = 0; i < useR; ++i) {
        T* row = nd.data() + static_cast<size_t>(r * rowTile + i) * cols + c * colTile;
        for (int32_t j = 0; j < useC; ++j) row[j] = tile[((j / kC0) * alignR + i) * kC0 + j % kC0];
      }
    }
  }
}

}  // namespace npurt_detail
}  // namespace AscendC
