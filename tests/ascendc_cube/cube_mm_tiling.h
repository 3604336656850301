// A one-core half x half -> float Matmul tiling with bias from the host SDK, for the cube tests that drive
// the Matmul API on one core.
#pragma once

#include <gtest/gtest.h>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace cube_test {

inline AscendC::tiling::TCubeTiling HalfMatmulTiling(int m, int n, int k, int baseM, int baseN, int baseK,
                                                     matmul_tiling::TPosition cPos,
                                                     matmul_tiling::CubeFormat cFormat) {
  using matmul_tiling::DataType;
  matmul_tiling::MatmulApiTiling api;
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(cPos, cFormat, DataType::DT_FLOAT);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  api.SetBias(true);
  api.SetFixSplit(baseM, baseN, baseK);
  AscendC::tiling::TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

}  // namespace cube_test
