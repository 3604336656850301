// libtiling_api.so: the matmul tiling for the simulated cores.
//
// The tiling a kernel's Matmul object follows: per core, C[singleCoreM, singleCoreN] is computed in
// base blocks of baseM x baseN (one L0C accumulation each), over K in steps of baseK (one L0A block
// baseM x baseK and one L0B block baseK x baseN per Mmad); L1 holds stepKa (stepKb) K-steps of A (B),
// depthA1 = stepM * stepKa blocks, twice that when the loads are double-buffered (K does not fit at once).
// Every choice here is checked against the core's buffers, so a kernel that follows the tiling stays
// within them on the sim.
#include "tiling/matmul_tiling.h"

#include <acl/acl_base.h>
#include <npurt/sim_core.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace matmul_tiling {
namespace {

constexpr int32_t kFractal = 16;   // M and N of a base block are multiples of this
constexpr int32_t kC0Bytes = 32;   // K of a base block is a multiple of 32 bytes of A
constexpr int32_t kAccBytes = 4;   // L0C accumulates in fp32 / int32
constexpr int32_t kMaxBase = 256;

void Fail(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  aclAppLog(ACL_ERROR, "GetTiling", __FILE__, __LINE__, "matmul tiling: %s", buf);
}

int32_t Bytes(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32: return 4;
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_BFLOAT16:
    case DataType::DT_INT16:
    case DataType::DT_UINT16: return 2;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
    case DataType::DT_INT4: return 1;
    default: return 0;
  }
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignUp(int64_t a, int64_t b) { return CeilDiv(a, b) * b; }

bool InUb(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC; }

PlatformInfo InfoOf(const platform_ascendc::PlatformAscendC* p) {
  PlatformInfo info;
  if (p == nullptr) {
    info.l1Size = NPURT_SIM_L1_BYTES;
    info.l0CSize = NPURT_SIM_L0C_BYTES;
    info.ubSize = NPURT_SIM_UB_BYTES;
    info.l0ASize = NPURT_SIM_L0A_BYTES;
    info.l0BSize = NPURT_SIM_L0B_BYTES;
    return info;
  }
  using platform_ascendc::CoreMemType;
  info.socVersion = p->GetSocVersion();
  p->GetCoreMemSize(CoreMemType::L1, info.l1Size);
  p->GetCoreMemSize(CoreMemType::L0_C, info.l0CSize);
  p->GetCoreMemSize(CoreMemType::UB, info.ubSize);
  p->GetCoreMemSize(CoreMemType::L0_A, info.l0ASize);
  p->GetCoreMemSize(CoreMemType::L0_B, info.l0BSize);
  return info;
}

// The kernel struct's fields, in order, to copy it into the host class.
#define NPURT_CUBE_FIELDS(X)                                                                                     \
  X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK)   \
  X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size)   \
  X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb)         \
  X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS)              \
  X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN)               \
  X(BLayoutInfoG) X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG)              \
  X(CLayoutInfoS2) X(BatchNum) X(mxTypePara)

void ToHost(const AscendC::tiling::TCubeTiling& in, optiling::TCubeTiling& out) {
#define NPURT_COPY_FIELD(f) out.set_##f(in.f);
  NPURT_CUBE_FIELDS(NPURT_COPY_FIELD)
#undef NPURT_COPY_FIELD
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() : MatmulApiTilingBase(InfoOf(platform_ascendc::PlatformAscendCManager::GetInstance())) {}

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : MatmulApiTilingBase(InfoOf(&ascendcPlatform)) {}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) : platform_(platform), buffers_(platform) {
  aType_.dataType = bType_.dataType = cType_.dataType = biasType_.dataType = DataType::DT_UNDEFINED;
}

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  aType_ = {pos, type, dataType, isTrans, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  bType_ = {pos, type, dataType, isTrans, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  cType_ = {pos, type, dataType, false, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  biasType_ = {pos, type, dataType, false, false};
  return 0;
}

int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  if (m <= 0 && n <= 0 && k <= 0) return -1;
  if (m > 0) singleM = m;
  if (n > 0) singleN = n;
  if (k > 0) singleK = k;
  return 0;
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
  if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
  orgM = orgMIn;
  orgN = orgNIn;
  orgKa = orgKaIn;
  orgKb = orgKbIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) {
  isBias = isBiasIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  fixBaseM = baseMIn;
  fixBaseN = baseNIn;
  fixBaseK = baseKIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize, int32_t btSize) {
  (void)btSize;  // the bias table is not a separate budget on the sim
  auto pick = [](int32_t asked, uint64_t core) -> uint64_t {
    return asked < 0 ? core : std::min<uint64_t>(static_cast<uint64_t>(asked), core);
  };
  buffers_.l1Size = pick(l1Size, platform_.l1Size);
  buffers_.l0CSize = pick(l0CSize, platform_.l0CSize);
  buffers_.ubSize = pick(ubSize, platform_.ubSize);
  return 0;
}

int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}

int32_t MatmulApiTilingBase::SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ, bool transNZ2ND) {
  (void)a, (void)b, (void)bias, (void)transND2NZ, (void)transNZ2ND;
  dbL0C_ = c;
  return 0;
}

bool MatmulApiTilingBase::CheckTypes() const {
  const int32_t a = Bytes(aType_.dataType), b = Bytes(bType_.dataType), c = Bytes(cType_.dataType);
  if (a == 0 || b == 0 || c == 0) {
    Fail("the A, B and C types must be set to a supported type (SetAType/SetBType/SetCType): got %d, %d, %d",
         static_cast<int>(aType_.dataType), static_cast<int>(bType_.dataType), static_cast<int>(cType_.dataType));
    return false;
  }
  if (a != b) {
    Fail("A and B elements differ in size (%d and %d bytes)", a, b);
    return false;
  }
  return true;
}

namespace {
int32_t SetLayout(MatmulApiTilingBase::BatchLayout& l, int32_t b, int32_t s, int32_t n, int32_t g, int32_t d,
                  const char* what) {
  if (b <= 0 || s <= 0 || n <= 0 || g <= 0 || d <= 0) {
    return Fail("%s(%d, %d, %d, %d, %d): every axis must be positive", what, b, s, n, g, d), -1;
  }
  l = MatmulApiTilingBase::BatchLayout{b, s, n, g, d};
  return 0;
}
}  // namespace

int32_t MatmulApiTilingBase::SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  return SetLayout(aLayout_, b, s, n, g, d, "SetALayout");
}
int32_t MatmulApiTilingBase::SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  return SetLayout(bLayout_, b, s, n, g, d, "SetBLayout");
}
int32_t MatmulApiTilingBase::SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) {
  return SetLayout(cLayout_, b, s1, n, g, s2, "SetCLayout");
}
int32_t MatmulApiTilingBase::SetBatchNum(int32_t batch) {
  if (batch <= 0) return Fail("SetBatchNum(%d): must be positive", batch), -1;
  batchNum_ = batch;
  return 0;
}
// NORMAL (BMNK): A is batchA matrices M x K, B batchB matrices K x N, C max(batchA, batchB) matrices M x N.
int32_t MatmulApiTilingBase::SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
  const int32_t batchC = std::max(batchA, batchB);
  if (SetLayout(aLayout_, batchA, m, 1, 1, k, "SetBatchInfoForNormal") != 0 ||
      SetLayout(bLayout_, batchB, k, 1, 1, n, "SetBatchInfoForNormal") != 0 ||
      SetLayout(cLayout_, batchC, m, 1, 1, n, "SetBatchInfoForNormal") != 0) {
    return -1;
  }
  return 0;
}

int64_t MatmulApiTilingBase::ComputeCore(AscendC::tiling::TCubeTiling& t, int32_t usedCoreNum) {
  const int64_t sA = Bytes(aType_.dataType), sB = Bytes(bType_.dataType), sC = Bytes(cType_.dataType);
  const int64_t sBias = isBias ? std::max(Bytes(biasType_.dataType), 4) : 0;
  const int64_t k0 = kC0Bytes / sA;
  const int64_t mA = AlignUp(singleCoreM, kFractal), nA = AlignUp(singleCoreN, kFractal), kA = AlignUp(singleCoreK, k0);
  const int64_t dbC = dbL0C_ ? 2 : 1;
  const int64_t l0a = static_cast<int64_t>(buffers_.l0ASize), l0b = static_cast<int64_t>(buffers_.l0BSize);
  const int64_t l0c = static_cast<int64_t>(buffers_.l0CSize), l1 = static_cast<int64_t>(buffers_.l1Size);

  // Base M x N: fewest base blocks, then least padding; each must leave room for a K step of k0.
  int64_t bm = 0, bn = 0;
  if (fixBaseM > 0 && fixBaseM % kFractal != 0) return Fail("SetFixSplit baseM %d is not a multiple of 16", fixBaseM), -1;
  if (fixBaseN > 0 && fixBaseN % kFractal != 0) return Fail("SetFixSplit baseN %d is not a multiple of 16", fixBaseN), -1;
  int64_t bestBlocks = -1, bestPad = -1;
  for (int64_t m = kFractal; m <= std::min<int64_t>(mA, kMaxBase); m += kFractal) {
    if (fixBaseM > 0 && m != std::min<int64_t>(fixBaseM, mA)) continue;
    for (int64_t n = kFractal; n <= std::min<int64_t>(nA, kMaxBase); n += kFractal) {
      if (fixBaseN > 0 && n != std::min<int64_t>(fixBaseN, nA)) continue;
      if (m * n * kAccBytes * dbC > l0c || m * k0 * sA > l0a || k0 * n * sB > l0b) continue;
      const int64_t blocks = CeilDiv(singleCoreM, m) * CeilDiv(singleCoreN, n);
      const int64_t pad = CeilDiv(singleCoreM, m) * m * CeilDiv(singleCoreN, n) * n;
      if (bestBlocks < 0 || blocks < bestBlocks || (blocks == bestBlocks && pad < bestPad)) {
        bestBlocks = blocks, bestPad = pad, bm = m, bn = n;
      }
    }
  }
  if (bm == 0) {
    return Fail("no base block fits L0C (%lld bytes) for baseM %d baseN %d", static_cast<long long>(l0c), fixBaseM,
                fixBaseN), -1;
  }

  // Base K: the largest multiple of k0 that fits L0A/L0B, double-buffered if possible.
  int64_t bk = 0, dbA = 2;
  if (fixBaseK > 0 && fixBaseK % k0 != 0) return Fail("SetFixSplit baseK %d is not a multiple of %lld", fixBaseK, static_cast<long long>(k0)), -1;
  for (dbA = 2; dbA >= 1 && bk == 0; --dbA) {
    for (int64_t k = std::min<int64_t>(kA, fixBaseK > 0 ? fixBaseK : kA); k >= k0; k -= k0) {
      if (fixBaseK > 0 && k != std::min<int64_t>(fixBaseK, kA)) continue;
      if (bm * k * sA * dbA <= l0a && k * bn * sB * dbA <= l0b) {
        bk = k;
        break;
      }
    }
    if (bk != 0) break;
  }
  if (bk == 0) return Fail("no baseK fits L0A/L0B with baseM %lld baseN %lld", static_cast<long long>(bm), static_cast<long long>(bn)), -1;

  // L1: as many K steps of A and B as fit (all of K when possible, then single-buffered).
  const int64_t kIter = CeilDiv(singleCoreK, bk);
  const int64_t biasL1 = bn * sBias;
  int64_t stepK = 0, db1 = 1, l1Used = 0;
  for (int64_t s = kIter; s >= 1 && stepK == 0; --s) {
    for (int64_t db = (s < kIter ? 2 : 1); db >= 1; --db) {
      const int64_t used = s * db * bm * bk * sA + s * db * bn * bk * sB + biasL1;
      if (used <= l1) {
        stepK = s, db1 = db, l1Used = used;
        break;
      }
    }
  }
  if (stepK == 0) return Fail("the base blocks do not fit L1 (%lld bytes)", static_cast<long long>(l1)), -1;

  // Operands or result in the unified buffer pass through a staging buffer of one base block.
  int64_t transLength = 0;
  if (InUb(aType_.pos) || InUb(bType_.pos) || InUb(cType_.pos) || (isBias && InUb(biasType_.pos))) {
    transLength = std::max({bm * bk * sA, bk * bn * sB, bm * bn * sC});
    if (transLength > static_cast<int64_t>(buffers_.ubSize)) {
      return Fail("the UB staging block (%lld bytes) exceeds the unified buffer", static_cast<long long>(transLength)), -1;
    }
  }

  t = AscendC::tiling::TCubeTiling{};
  t.usedCoreNum = usedCoreNum;
  t.M = orgM;
  t.N = orgN;
  t.Ka = orgKa;
  t.Kb = orgKb;
  t.singleCoreM = singleCoreM;
  t.singleCoreN = singleCoreN;
  t.singleCoreK = singleCoreK;
  t.baseM = static_cast<int32_t>(bm);
  t.baseN = static_cast<int32_t>(bn);
  t.baseK = static_cast<int32_t>(bk);
  t.stepM = 1;
  t.stepN = 1;
  t.stepKa = static_cast<int32_t>(stepK);
  t.stepKb = static_cast<int32_t>(stepK);
  t.depthA1 = static_cast<int32_t>(stepK * db1);
  t.depthB1 = static_cast<int32_t>(stepK * db1);
  t.isBias = isBias ? 1 : 0;
  t.transLength = static_cast<int32_t>(transLength);
  t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
  t.shareMode = 0;
  t.shareL1Size = static_cast<int32_t>(l1Used);
  t.shareL0CSize = static_cast<int32_t>(bm * bn * kAccBytes * dbC);
  t.shareUbSize = 0;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  t.dbL0A = static_cast<int32_t>(dbA);
  t.dbL0B = static_cast<int32_t>(dbA);
  t.dbL0C = static_cast<int32_t>(dbC);
  t.ALayoutInfoB = aLayout_.b, t.ALayoutInfoS = aLayout_.s, t.ALayoutInfoN = aLayout_.n;
  t.ALayoutInfoG = aLayout_.g, t.ALayoutInfoD = aLayout_.d;
  t.BLayoutInfoB = bLayout_.b, t.BLayoutInfoS = bLayout_.s, t.BLayoutInfoN = bLayout_.n;
  t.BLayoutInfoG = bLayout_.g, t.BLayoutInfoD = bLayout_.d;
  t.CLayoutInfoB = cLayout_.b, t.CLayoutInfoS1 = cLayout_.s, t.CLayoutInfoN = cLayout_.n;
  t.CLayoutInfoG = cLayout_.g, t.CLayoutInfoS2 = cLayout_.d;
  t.BatchNum = batchNum_;
  baseM = t.baseM;
  baseN = t.baseN;
  baseK = t.baseK;
  return 0;
}

namespace {
// Shapes as the tiling states them: SetShape's, the original shape defaulting to it.
bool ResolveShapes(MatmulApiTilingBase& t) {
  if (t.singleM <= 0 || t.singleN <= 0 || t.singleK <= 0) {
    if (t.orgM <= 0) return Fail("SetShape (or SetOrgShape) was not called"), false;
    if (t.singleM <= 0) t.singleM = t.orgM;
    if (t.singleN <= 0) t.singleN = t.orgN;
    if (t.singleK <= 0) t.singleK = t.orgKa;
  }
  if (t.orgM <= 0) t.orgM = t.singleM, t.orgN = t.singleN, t.orgKa = t.orgKb = t.singleK;
  if (t.singleM > t.orgM || t.singleN > t.orgN || t.singleK > t.orgKa || t.singleK > t.orgKb) {
    return Fail("shape %dx%dx%d exceeds the original shape %dx%dx%d/%d", t.singleM, t.singleN, t.singleK, t.orgM,
                t.orgN, t.orgKa, t.orgKb), false;
  }
  return true;
}
}  // namespace

int64_t MatmulApiTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (!CheckTypes() || !ResolveShapes(*this)) return -1;
  singleCoreM = singleM;
  singleCoreN = singleN;
  singleCoreK = singleK;
  return ComputeCore(tiling, 1);
}

int64_t MatmulApiTiling::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t;
  const int64_t rc = GetTiling(t);
  if (rc == 0) ToHost(t, tiling);
  return rc;
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  if (dim <= 0) return -1;
  dim_ = dim;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
  fixSingleM_ = singleMIn;
  fixSingleN_ = singleNIn;
  fixSingleK_ = singleKIn;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetSingleRange(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t) { return 0; }

int32_t MultiCoreMatmulTiling::SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
  (void)alignK;
  alignM_ = alignM > 0 ? alignM : 1;
  alignN_ = alignN > 0 ? alignN : 1;
  return 0;
}

int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  dim = usedDim_;
  mDim = mDim_;
  nDim = nDim_;
  return 0;
}

int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  shapeM = singleCoreM;
  shapeN = singleCoreN;
  shapeK = singleCoreK;
  return 0;
}

int64_t MultiCoreMatmulTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (!CheckTypes() || !ResolveShapes(*this)) return -1;
  int32_t dim = dim_;
  if (dim <= 0) {
    auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
    dim = p != nullptr ? static_cast<int32_t>(p->GetCoreNumAic()) : 1;
  }
  singleCoreK = fixSingleK_ > 0 ? std::min(fixSingleK_, singleK) : singleK;
  if (fixSingleM_ > 0 || fixSingleN_ > 0) {
    singleCoreM = fixSingleM_ > 0 ? std::min(fixSingleM_, singleM) : singleM;
    singleCoreN = fixSingleN_ > 0 ? std::min(fixSingleN_, singleN) : singleN;
  } else {
    // The split of M x N over at most `dim` cores with the smallest tile per core (the slowest core sets the
    // time; tiles within 1% count as equal), then, as CANN's tiling chooses (kernels take their tiles' offsets
    // from the split they expect): the tile whose reference base blocks (the SetFixSplit base, else 128 x 256)
    // do the most multiplication per element of A and B moved, i.e. the fewest partial blocks; the fewest
    // cores; the most of the reference blocks kept whole, (dim - mDim) * baseM + (dim - nDim) * baseN. So
    // 512 x 512 on 2 cores gives 256 whole rows each, 512 x 128 with a 128 x 64 base 64 whole columns each,
    // 1024 x 640 with a 256 x 128 base 512 x 640 each, 128 x 7679 128 x 3840 each.
    const int64_t alignM = AlignUp(kFractal, alignM_), alignN = AlignUp(kFractal, alignN_);
    const int64_t refM = fixBaseM > 0 ? fixBaseM : 128, refN = fixBaseN > 0 ? fixBaseN : 256;
    const int64_t sA = std::max(Bytes(aType_.dataType), 1), sB = std::max(Bytes(bType_.dataType), 1);
    // Multiplications per element moved of the tile's reference blocks (K cancels out).
    auto intensity = [&](int64_t sm, int64_t sn) {
      double mul = 0, moved = 0;
      auto add = [&](int64_t bm, int64_t bn, int64_t count) {
        if (bm <= 0 || bn <= 0 || count <= 0) return;
        mul += static_cast<double>(bm * bn) * count;
        moved += static_cast<double>(bm * sA + bn * sB) * count;
      };
      const int64_t mMain = sm / refM, mTail = sm % refM, nMain = sn / refN, nTail = sn % refN;
      add(refM, refN, mMain * nMain);
      add(refM, nTail, mMain);
      add(mTail, refN, nMain);
      add(mTail, nTail, 1);
      return moved > 0 ? mul / moved : 0.0;
    };
    struct Split {
      int64_t sm = 0, sn = 0, work = -1, cores = 0, band = 0;
      double intensity = 0;
    } best;
    for (int32_t md = 1; md <= dim; ++md) {
      for (int32_t nd = 1; md * nd <= dim; ++nd) {
        Split c;
        c.sm = std::min<int64_t>(AlignUp(CeilDiv(singleM, md), alignM), singleM);
        c.sn = std::min<int64_t>(AlignUp(CeilDiv(singleN, nd), alignN), singleN);
        c.cores = CeilDiv(singleM, c.sm) * CeilDiv(singleN, c.sn);
        c.work = c.sm * c.sn;
        c.band = (dim - md) * refM + (dim - nd) * refN;
        c.intensity = intensity(c.sm, c.sn);
        bool better = best.work < 0;
        if (!better) {
          const bool sameWork = std::abs(static_cast<double>(c.work - best.work)) <= 0.01 * static_cast<double>(best.work);
          if (!sameWork) {
            better = c.work < best.work;
          } else if (std::abs(c.intensity - best.intensity) > 1e-9 * best.intensity) {
            better = c.intensity > best.intensity;
          } else if (c.cores != best.cores) {
            better = c.cores < best.cores;
          } else {
            better = c.band > best.band;
          }
        }
        if (better) best = c;
      }
    }
    singleCoreM = static_cast<int32_t>(best.sm);
    singleCoreN = static_cast<int32_t>(best.sn);
  }
  mDim_ = static_cast<int32_t>(CeilDiv(singleM, singleCoreM));
  nDim_ = static_cast<int32_t>(CeilDiv(singleN, singleCoreN));
  usedDim_ = mDim_ * nDim_;
  return ComputeCore(tiling, usedDim_);
}

int64_t MultiCoreMatmulTiling::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t;
  const int64_t rc = GetTiling(t);
  if (rc == 0) ToHost(t, tiling);
  return rc;
}

}  // namespace matmul_tiling
