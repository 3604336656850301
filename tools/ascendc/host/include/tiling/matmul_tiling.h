// Matmul tiling for npurt (CANN's matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling; libtiling_api.so).
//
// Describe the operands (SetAType/SetBType/SetCType/SetBiasType), the shape (SetShape: the part one
// launch computes; SetOrgShape: the full matrices in memory), optionally the base block (SetFixSplit) and
// the buffers to use (SetBufferSpace, -1 = the core's), then GetTiling fills a TCubeTiling for the
// simulated cores: base blocks that fit L0A/L0B/L0C, L1 depths that fit L1, and (multi-core) a split of
// M and N over at most SetDim cores. GetTiling returns 0, or -1 with the reason in the log.
// docs/kernels.md, "Host tiling", says what every field means.
#ifndef NPURT_TILING_MATMUL_TILING_H_
#define NPURT_TILING_MATMUL_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace matmul_tiling {

enum class DataType : int32_t {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
  DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
  DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
  DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
  DT_UINT2 = 32, DT_BFLOAT16 = 33, DT_MAX = 34
};

enum class TPosition : int32_t {
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX,
};

enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1 };

struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT;
  bool isTrans = false;
  bool isDB = false;
};

// The buffers one core offers (bytes), as GetCoreMemSize reports them.
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

// SetMatmulConfigParams: the kernel's MatmulConfig choices the tiling is told about. mmConfigType (0 NORM,
// 1 MDL), enableL1CacheUB, scheduleType and enVecND2NZ are kept (they schedule, not change, the result);
// traverse other than NOSET sets the iteration order as SetTraverse does.
struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

class MatmulApiTilingBase {
 public:
  // Without a platform: the simulated device's (PlatformAscendCManager::GetInstance()).
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetDequantType(DequantType dequantType) { deqType = dequantType; return 0; }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
  int32_t SetBias(bool isBiasIn = false);
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
    SetMatmulConfigParams(
        MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn, traverseIn, enVecND2NZIn));
  }
  void SetMatmulConfigParams(const MatmulConfigParams& configParams) {
    configParams_ = configParams;
    if (configParams.traverse != MatrixTraverse::NOSET) traverse_ = configParams.traverse;
  }
  int32_t SetMadType(MatrixMadType madType) { madType_ = madType; return 0; }
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true);
  // Batch matmul (the kernel's IterateBatch / IterateNBatch): the axes of A, B and C in their LayoutMode
  // (BSNGD, SBNGD, BNGS1S2: A and B as B, S, N, G, D; C as B, S1, N, G, S2) and the most batches one
  // IterateBatch computes; for LayoutMode::NORMAL SetBatchInfoForNormal gives the batches of A and B and
  // the matrices' M, N, K. They go to the tiling's ALayoutInfo*, BLayoutInfo*, CLayoutInfo*, BatchNum.
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2);
  int32_t SetBatchNum(int32_t batch);
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k);
  int32_t GetBaseM() const { return baseM; }
  int32_t GetBaseN() const { return baseN; }
  int32_t GetBaseK() const { return baseK; }

  virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
  virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;

 public:
  MatTilingType aType_;
  MatTilingType bType_;
  MatTilingType cType_;
  MatTilingType biasType_;
  bool isBias = false;
  int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0;
  int32_t singleM = 0, singleN = 0, singleK = 0;  // SetShape
  int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  int32_t baseM = 0, baseN = 0, baseK = 0;
  int32_t fixBaseM = -1, fixBaseN = -1, fixBaseK = -1;  // SetFixSplit
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
  MatmulConfigParams configParams_;  // SetMatmulConfigParams
  MatrixMadType madType_ = MatrixMadType::NORMAL;
  DequantType deqType = DequantType::SCALAR;
  bool dbL0C_ = false;  // SetDoubleBuffer(c)
  PlatformInfo platform_;   // the core's buffers
  PlatformInfo buffers_;    // what this tiling may use (SetBufferSpace)
  struct BatchLayout {
    int32_t b = 0, s = 0, n = 0, g = 0, d = 0;
  };
  BatchLayout aLayout_, bLayout_, cLayout_;  // SetALayout / SetBLayout / SetCLayout / SetBatchInfoForNormal
  int32_t batchNum_ = 0;                     // SetBatchNum

 protected:
  // Fills `out` for singleCoreM/N/K and usedCoreNum; 0, or -1 (logged).
  int64_t ComputeCore(AscendC::tiling::TCubeTiling& out, int32_t usedCoreNum);
  bool CheckTypes() const;
};

// One core computes the whole SetShape.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
};

// Batch matmul on one core: MatmulApiTiling with the batch setters (every tiling has them on the sim).
class BatchMatmulTiling : public MatmulApiTiling {
 public:
  using MatmulApiTiling::MatmulApiTiling;
};

// SetShape split over up to SetDim cores along M and N (K stays whole per core): block b computes the
// singleCoreM x singleCoreN tile (b % ceil(M / singleCoreM), b / ceil(M / singleCoreM)); usedCoreNum blocks.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int32_t SetDim(int32_t dim);  // cores available (default: the platform's AI cores)
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                         int32_t minN = -1, int32_t minK = -1);
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK);
  // After GetTiling: the cores used and the split.
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  void EnableMultiCoreSplitK(bool flag) { (void)flag; }  // K is never split across cores on the sim
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;

 private:
  int32_t dim_ = 0;
  int32_t fixSingleM_ = -1, fixSingleN_ = -1, fixSingleK_ = -1;
  int32_t alignM_ = 1, alignN_ = 1;
  int32_t usedDim_ = 0, mDim_ = 0, nDim_ = 0;
};

}  // namespace matmul_tiling

#endif  // NPURT_TILING_MATMUL_TILING_H_
