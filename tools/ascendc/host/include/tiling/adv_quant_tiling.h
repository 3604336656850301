// The host side of Ascend C's quantization library APIs (npurt_kernel/adv_quant.h): the temporary-buffer
// sizes of AscendQuant, AscendDequant and AscendAntiQuant, and AscendC::TensorDataType (the element types
// the AntiQuant size function takes). Header-only; included by tiling/tiling_api.h. As for the math
// functions (tiling/adv_math_tiling.h), the sim needs no scratch space; the sizes follow the library's
// shape (a float working copy of the source, at least one 256-byte repeat).
#ifndef NPURT_TILING_ADV_QUANT_TILING_H_
#define NPURT_TILING_ADV_QUANT_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/adv_math_tiling.h"
#include "tiling/matmul_tiling.h"

namespace AscendC {

// The graph's data types (DT_FLOAT, DT_FLOAT16, DT_INT8, ...), as the library's size functions name them.
using TensorDataType = matmul_tiling::DataType;

// AscendQuant: typeSize is the source's (half 2, float 4).
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 1, maxValue, minValue);
}

// AscendDequant: typeSize is the source's (int32_t, 4).
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 2, maxValue, minValue);
}

// AscendAntiQuant: the source's shape and the scale's; the sizes depend on the source.
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            TensorDataType inputDataType, TensorDataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
  (void)scaleShape;
  (void)isTranspose;
  (void)inputDataType;
  (void)outputDataType;
  npurt_adv_tiling::MaxMin(srcShape, 4, 2, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_QUANT_TILING_H_
