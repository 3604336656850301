// kernel_tiling/kernel_tiling.h for npurt: the tiling structures the kernel libraries read (CANN's
// AscendC::tiling structs, also visible in the global namespace). The same header serves kernels
// (compiled by npurt's Ascend C toolchain for the simulated cores) and host code: the host tiling
// functions of tiling/tiling_api.h fill these structs, or their optiling:: host classes, whose
// SaveToBuffer writes exactly this layout (every field 4 bytes, in this order).
//
// TCubeTiling (one matrix multiplication, C[M, N] = A[M, Ka] x B[Kb, N] (+ bias), as MatmulApiTiling /
// MultiCoreMatmulTiling compute it; docs/kernels.md, "Host tiling", says what each field means on the
// sim), SoftMaxTiling / LogSoftMaxTiling, PadTiling, UnPadTiling, and the normalization tilings DeepNormTiling,
// RmsNormTiling (npurt_kernel/adv_norm.h; the sim reads their shape fields), TopkTiling and TopKMode,
// LayerNormTiling / LayerNormGradTiling / LayerNormGradBetaTiling (npurt_kernel/adv_layernorm.h),
// LayerNormSeparateTiling (adv_layernorm_v2.h) and ReducePattern.
#ifndef NPURT_KERNEL_TILING_H_
#define NPURT_KERNEL_TILING_H_

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct TCubeTiling {
  int32_t usedCoreNum = 0;
  int32_t M = 0;
  int32_t N = 0;
  int32_t Ka = 0;
  int32_t Kb = 0;
  int32_t singleCoreM = 0;
  int32_t singleCoreN = 0;
  int32_t singleCoreK = 0;
  int32_t baseM = 0;
  int32_t baseN = 0;
  int32_t baseK = 0;
  int32_t depthA1 = 0;
  int32_t depthB1 = 0;
  int32_t stepM = 0;
  int32_t stepN = 0;
  int32_t isBias = 0;
  int32_t transLength = 0;
  int32_t iterateOrder = 0;
  int32_t shareMode = 0;
  int32_t shareL1Size = 0;
  int32_t shareL0CSize = 0;
  int32_t shareUbSize = 0;
  int32_t batchM = 0;
  int32_t batchN = 0;
  int32_t singleBatchM = 0;
  int32_t singleBatchN = 0;
  int32_t stepKa = 0;
  int32_t stepKb = 0;
  int32_t depthAL1CacheUB = 0;
  int32_t depthBL1CacheUB = 0;
  int32_t dbL0A = 0;
  int32_t dbL0B = 0;
  int32_t dbL0C = 0;
  int32_t ALayoutInfoB = 0;
  int32_t ALayoutInfoS = 0;
  int32_t ALayoutInfoN = 0;
  int32_t ALayoutInfoG = 0;
  int32_t ALayoutInfoD = 0;
  int32_t BLayoutInfoB = 0;
  int32_t BLayoutInfoS = 0;
  int32_t BLayoutInfoN = 0;
  int32_t BLayoutInfoG = 0;
  int32_t BLayoutInfoD = 0;
  int32_t CLayoutInfoB = 0;
  int32_t CLayoutInfoS1 = 0;
  int32_t CLayoutInfoN = 0;
  int32_t CLayoutInfoG = 0;
  int32_t CLayoutInfoS2 = 0;
  int32_t BatchNum = 0;
  int32_t mxTypePara = 0;
};
#pragma pack(pop)

#pragma pack(push, 8)
struct SoftMaxTiling {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t srcSize = 0;
  uint32_t outMaxM = 0;
  uint32_t outMaxK = 0;
  uint32_t outMaxSize = 0;
  uint32_t splitM = 0;
  uint32_t splitK = 0;
  uint32_t splitSize = 0;
  uint32_t reduceM = 0;
  uint32_t reduceK = 0;
  uint32_t reduceSize = 0;
  uint32_t rangeM = 0;
  uint32_t tailM = 0;
  uint32_t tailSplitSize = 0;
  uint32_t tailReduceSize = 0;
};
#pragma pack(pop)

// The same fields as SoftMaxTiling (same size and layout), a type of its own as in CANN.
#pragma pack(push, 8)
struct LogSoftMaxTiling : SoftMaxTiling {};
#pragma pack(pop)

#pragma pack(push, 8)
struct PadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t srcOriWidth = 0;
  uint32_t widthWithoutLastBlock = 0;
  uint32_t blocksPerRow = 0;
  uint32_t heightTiling = 0;
  uint32_t heightFractal = 0;
  uint32_t heightFractalTail = 0;
  uint32_t mainLoopOffset = 0;
  uint32_t tailBlockOffset = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
  uint32_t widthFractalTailAlingned = 0;
  uint32_t brcbTiling = 0;
  uint32_t brcbFractal = 0;
  uint32_t brcbFractalTail = 0;
  uint32_t maxRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimesTail = 0;
  uint32_t brcbFractalTailRepeatTimes = 0;
  uint32_t brcbFractalTailRepeatTimesTail = 0;
  uint32_t reserved = 0;
};
#pragma pack(pop)

#pragma pack(push, 8)
struct UnPadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
};
#pragma pack(pop)

// DeepNorm and RmsNorm: CANN's fields in CANN's order.
#pragma pack(push, 8)
struct DeepNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float lastDimValueBack = 0;
};
#pragma pack(pop)

#pragma pack(push, 8)
struct RmsNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0;
  uint32_t mainBsLength = 0;
  uint32_t mainBsLengthAlign = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailPos = 0;
  uint32_t tailBshLength = 0;
  uint32_t tailBsLength = 0;
};
#pragma pack(pop)

// TopK (npurt_kernel/adv_sort.h): CANN's fields in CANN's order. The sim reads none of the mask / offset
// fields (they drive the library's vector code); TopKTilingFunc fills the sizes and alignments.
#pragma pack(push, 8)
struct TopkTiling {
  int32_t tmpLocalSize = 0;
  int32_t allDataSize = 0;
  int32_t innerDataSize = 0;
  uint32_t sortRepeat = 0;
  int32_t mrgSortRepeat = 0;
  int32_t kAlignFourBytes = 0;
  int32_t kAlignTwoBytes = 0;
  int32_t maskOffset = 0;
  int32_t maskVreducev2FourBytes = 0;
  int32_t maskVreducev2TwoBytes = 0;
  int32_t mrgSortSrc1offset = 0;
  int32_t mrgSortSrc2offset = 0;
  int32_t mrgSortSrc3offset = 0;
  int32_t mrgSortTwoQueueSrc1Offset = 0;
  int32_t mrgFourQueueTailPara1 = 0;
  int32_t mrgFourQueueTailPara2 = 0;
  int32_t srcIndexOffset = 0;
  uint32_t copyUbToUbBlockCount = 0;
  int32_t topkMrgSrc1MaskSizeOffset = 0;
  int32_t topkNSmallSrcIndexOffset = 0;
  uint32_t vreduceValMask0 = 0;
  uint32_t vreduceValMask1 = 0;
  uint32_t vreduceIdxMask0 = 0;
  uint32_t vreduceIdxMask1 = 0;
  uint16_t vreducehalfValMask0 = 0;
  uint16_t vreducehalfValMask1 = 0;
  uint16_t vreducehalfValMask2 = 0;
  uint16_t vreducehalfValMask3 = 0;
  uint16_t vreducehalfValMask4 = 0;
  uint16_t vreducehalfValMask5 = 0;
  uint16_t vreducehalfValMask6 = 0;
  uint16_t vreducehalfValMask7 = 0;
};
#pragma pack(pop)

// LayerNorm, LayerNormGrad, LayerNormGradBeta (npurt_kernel/adv_layernorm.h): CANN's fields in CANN's order; the
// sim reads the shape fields.
// CANN's LayerNormTiling has DeepNormTiling's fields, in the same order.
using LayerNormTiling = DeepNormTiling;

#pragma pack(push, 8)
struct LayerNormGradTiling {
  uint32_t stackBufferSize = 0;
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t oneCalSize = 0;
  uint32_t nohCalSize = 0;
  uint32_t loopNum = 0;
  uint32_t tailSize = 0;
  uint32_t nohTailSize = 0;
  uint32_t tmpTensorBSHPos = 0;
  uint32_t tmpTensorBSHSize = 0;
  uint32_t pdVarTensorPos = 0;
  uint32_t pdVarTensorSize = 0;
  uint32_t pdMeanTensorPos = 0;
  uint32_t pdMeanTensorSize = 0;
  uint32_t x1TensorPos = 0;
  uint32_t x1TensorSize = 0;
  uint32_t x2TensorPos = 0;
  uint32_t x2TensorSize = 0;
  uint32_t x3TensorPos = 0;
  uint32_t x3TensorSize = 0;
  uint32_t tmpTensorPos = 0;
  uint32_t tmpTensorSize = 0;
  uint32_t tmpTensor1Pos = 0;
  uint32_t tmpTensor1Size = 0;
  uint32_t tmpTensor2Pos = 0;
  uint32_t tmpTensor2Size = 0;
  uint32_t lastDimValueBack = 0;
  uint32_t lastDimValueBackMulTwo = 0;
};
#pragma pack(pop)

#pragma pack(push, 8)
struct LayerNormGradBetaTiling {
  uint32_t stackBufferSize = 0;
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t bshLength = 0;
  uint32_t bsLength = 0;
  uint32_t oneCalSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t bsTailSize = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  uint32_t gammaTempTensorPos = 0;
  uint32_t betaTempTensorPos = 0;
  uint32_t inputDyTmpTensorPos = 0;
  uint32_t resForGammaTmpTensorPos = 0;
  uint32_t reserved = 0;
};
#pragma pack(pop)

// LayerNorm's rstd form (npurt_kernel/adv_layernorm_v2.h): CANN's fields in CANN's order.
#pragma pack(push, 8)
struct LayerNormSeparateTiling {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t halfAddRepeatTimes = 0;
  uint32_t rHeadLength = 0;
  float k2Rec = 0;
  float k2RRec = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t arCurLength = 0;
  uint32_t aCurLength = 0;
  float rValueBack = 0;
};
#pragma pack(pop)

}  // namespace tiling

// TopK's two modes (kernel template argument and host tiling argument).
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };

// Reduction patterns (Normalize's NormalizeConfig, the host reduce tilings).
enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};

}  // namespace AscendC

using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::PadTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::TCubeTiling;
using AscendC::tiling::TopkTiling;
using AscendC::tiling::UnPadTiling;

#endif  // NPURT_KERNEL_TILING_H_
