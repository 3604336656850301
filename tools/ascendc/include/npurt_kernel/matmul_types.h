// The type vocabulary of the Matmul high-level API (lib/matmul_intf.h): CubeFormat, MatmulType (where an
// operand lives, its layout, element type and whether it is transposed), MatmulConfig and its named
// configurations. The configurations select CANN's scheduling variants; the sim computes every one the
// same way, so they are accepted and carry no behaviour.
#pragma once

#include "npurt_kernel/base.h"

namespace AscendC {

enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

enum class MatmulVersion : uint8_t { NORMAL = 0, MULTI_DATA_LOAD, BASIC_BLOCK, IBSHARE_NORM };

struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0;
  uint32_t basicN = 0;
  uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0;
  uint32_t singleCoreN = 0;
  uint32_t singleCoreK = 0;
  uint32_t stepM = 0;
  uint32_t stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
};

constexpr MatmulConfig CFG_NORM = {};
constexpr MatmulConfig CFG_MDL = {false, false, true};
constexpr MatmulConfig CFG_IBSHARE_NORM = {false};
constexpr MatmulConfig MM_CFG_NO_PRELOAD = {false, false, true};
__aicore__ constexpr MatmulConfig GetNormalConfig() { return CFG_NORM; }
__aicore__ constexpr MatmulConfig GetMDLConfig() { return CFG_MDL; }
__aicore__ constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK) {
  MatmulConfig c{};
  c.doNorm = false;
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  return c;
}

// Callbacks of the CANN Matmul (user data-copy hooks): not supported on the sim; the default is accepted.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
  static_assert(DataCopyOut == nullptr && CopyA1 == nullptr && CopyB1 == nullptr,
                "Matmul: user data-copy callbacks (MatmulCallBackFunc) are not supported on the sim");
};

}  // namespace AscendC

// Global names, as CANN's headers give them: kernels write CubeFormat::ND, CFG_MDL, MatmulConfig without AscendC::.
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::CubeFormat;
using AscendC::GetBasicConfig;
using AscendC::GetMDLConfig;
using AscendC::GetNormalConfig;
using AscendC::LayoutMode;
using AscendC::MatmulConfig;
using AscendC::MatmulVersion;
using AscendC::MM_CFG_NO_PRELOAD;
