// The Matmul high-level API on the sim (lib/matmul_intf.h): MatmulImpl computes one core's part of
// C = A x B (+ bias) as the kernel-side TCubeTiling describes it (singleCoreM/N/K, baseM/N), one
// baseM x baseN block of C per Iterate, in the order iterateOrder says (0: along M first, 1: along N first).
//
// How the sim computes a block: A's and B's elements are read where SetTensorA/B point (global memory or a
// local tensor; ND, or NZ fractals; transposed or not), packed into panels of the accumulation type and
// multiplied by the cube's micro kernel (npurt_kernel/cube_kernel.h); the block accumulates in float
// (half/bfloat16/float operands) or int32 (int8) in the core's L0C, whose bytes Init takes from the pipe
// (baseM x baseN accumulators: the tiling's L0C share). The operands go straight from where they are into
// the micro kernel's layout instead of through L1/L0A/L0B: the result is the same, and the copies the
// hardware's pipes overlap with the cube would only cost time here.
//
// Leading dimensions come from the original shape (tiling M/N/Ka/Kb or SetOrgShape): A (M x K, or K x M
// transposed) row stride Ka (M), B (K x N, or N x K transposed) row stride N (Kb), C row stride N. NZ
// operands are whole NZ matrices of the original shape (rows aligned to 16, C0 = 32 bytes of elements).
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/cube_amx.h"
#include "npurt_kernel/cube_kernel.h"
#include "npurt_kernel/fixpipe.h"
#include "npurt_kernel/matmul_batch_layout.h"
#include "npurt_kernel/matmul_callback.h"
#include "npurt_kernel/matmul_static_tiling.h"
#include "npurt_kernel/matmul_types.h"
#include "npurt_kernel/pipe.h"

namespace AscendC {
namespace npurt_detail {

template <typename Acc, typename Src>
inline Acc AccOf(Src v) {
  if constexpr (std::is_same<Src, bfloat16_t>::value || std::is_same<Src, half>::value) {
    return static_cast<float>(v);
  } else {
    return static_cast<Acc>(v);
  }
}

inline int64_t AlignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// The L0C accumulators Matmul objects of one block and pipe share when the core's L0C cannot hold another
// object's (CANN's objects each take theirs through the pipe, the hardware not checking the pipe's total: two
// objects used one after the other, as samples do, work there). `owner` computed the block they hold; another
// object writing out a block it did not compute fails the kernel rather than reading the other's result.
struct MatmulL0cShare {
  const void* block = nullptr;
  const void* pipe = nullptr;
  uint8_t* p = nullptr;
  uint64_t bytes = 0;
  uint64_t end = 0;  // L0C offset past the region
  const void* owner = nullptr;
};
inline thread_local MatmulL0cShare g_mm_l0c;

inline uint8_t* MatmulAccumulators(uint64_t bytes, const void* pipe) {
  const uint64_t used = g_cube.used[static_cast<int>(LocalMem::kL0C)];
  MatmulL0cShare& s = g_mm_l0c;
  const bool room = used + (bytes + 31) / 32 * 32 <= LocalMemBytes(LocalMem::kL0C);
  if (!room && s.p != nullptr && s.block == g_state.block && s.pipe == pipe && used >= s.end && s.bytes >= bytes) {
    return s.p;  // shared with the earlier object
  }
  uint8_t* p = CarveCubeBuffer(LocalMem::kL0C, bytes, "Matmul::Init (L0C)");
  s = MatmulL0cShare{g_state.block, pipe, p, bytes, g_cube.used[static_cast<int>(LocalMem::kL0C)], nullptr};
  return p;
}

}  // namespace npurt_detail

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
class MatmulImpl {
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using Acc = npurt_detail::CubeAcc<SrcAT>;
  static_assert(std::is_same<SrcAT, SrcBT>::value, "Matmul: A and B must have the same element type on the sim");
  // int4b_t A/B (Atlas A2): read element by element (nibble i of the data, the even element low), in ND only.
  static constexpr bool kInt4 = npurt_detail::kIsInt4<SrcAT>;
  static_assert(!kInt4 || (A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND),
                "Matmul: int4b_t A/B (MatmulType<..., int4b_t>) in CubeFormat::ND only on the sim");
  static_assert(A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::NZ ||
                    A_TYPE::format == CubeFormat::VECTOR,
                "Matmul: A must be CubeFormat::ND, NZ or VECTOR on the sim");
  // VECTOR (GEMV): A is one row of K elements, read as ND; M must be 1 and A not transposed.
  static constexpr bool kAVector = A_TYPE::format == CubeFormat::VECTOR;
  static_assert(B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ,
                "Matmul: B must be CubeFormat::ND or NZ on the sim");
  static_assert(C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::NZ ||
                    C_TYPE::format == CubeFormat::ND_ALIGN,
                "Matmul: C must be CubeFormat::ND, ND_ALIGN or NZ on the sim");
  static_assert(std::is_same<DstT, Acc>::value || std::is_same<DstT, half>::value ||
                    std::is_same<DstT, bfloat16_t>::value,
                "Matmul: C is float/int32_t (the accumulator) or half/bfloat16_t on the sim");
  using CfgType = typename std::decay<decltype(MM_CFG)>::type;
  static_assert(std::is_same<CfgType, MatmulConfig>::value || std::is_same<CfgType, MatmulApiStaticTiling>::value,
                "Matmul: MM_CFG must be a MatmulConfig or a MatmulApiStaticTiling (GetMatmulApiTiling)");
  // The configuration; with a constant tiling, its cfg.
  static constexpr MatmulConfig kCfg = npurt_detail::MatmulConfigOf(MM_CFG);
  // The configuration fields that change the result and are not modelled: refused rather than ignored.
  static_assert(!kCfg.isPartialOutput, "Matmul: MatmulConfig::isPartialOutput is not supported on the sim");
  static_assert(!kCfg.isEnableChannelSplit, "Matmul: MatmulConfig::isEnableChannelSplit is not supported on the sim");
  static_assert(!kCfg.intraBlockPartSum, "Matmul: MatmulConfig::intraBlockPartSum is not supported on the sim");
  static_assert(kCfg.decompMode == DecompressionMode::DECOMP_NONE,
                "Matmul: MatmulConfig::decompMode (weight decompression) is not supported on the sim");
  static_assert(kCfg.bmmOutMode == BatchOutMode::SINGLE_BATCH,
                "Matmul: MatmulConfig::bmmOutMode other than SINGLE_BATCH is not supported on the sim");
  // relu of the result before its conversion to C's type, as the fixpipe applies it
  static constexpr bool kRelu = kCfg.enableRelu;
  // MatmulCallBackFunc's CopyA1 / CopyB1 (npurt_kernel/matmul_callback.h): A / B gathered from the L1 tiles the
  // user's function fills (ND operands, not transposed).
  static constexpr bool kCopyA1 = !std::is_same<decltype(MM_CB::kCopyA1), const std::nullptr_t>::value;
  static constexpr bool kCopyB1 = !std::is_same<decltype(MM_CB::kCopyB1), const std::nullptr_t>::value;
  static_assert(!kCopyA1 || A_TYPE::format == CubeFormat::ND, "Matmul: the CopyA1 callback needs A in CubeFormat::ND");
  static_assert(!kCopyB1 || B_TYPE::format == CubeFormat::ND, "Matmul: the CopyB1 callback needs B in CubeFormat::ND");
  static_assert(!kInt4 || (!kCopyA1 && !kCopyB1), "Matmul: MatmulCallBackFunc with int4b_t A/B is not supported "
                                                  "on the sim");
  static constexpr int32_t kC0 = static_cast<int32_t>(npurt_detail::kCubeC0<SrcAT>);
  static constexpr bool kAmxTypes =
      std::is_same<Acc, float>::value && (std::is_same<SrcAT, half>::value || std::is_same<SrcAT, bfloat16_t>::value);

 public:
  __aicore__ inline MatmulImpl() = default;

  // A constant tiling (MM_CFG a MatmulApiStaticTiling): a null TCubeTiling initialises from it.
  static constexpr bool kStaticTiling = std::is_same<CfgType, MatmulApiStaticTiling>::value;

  __aicore__ inline void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr) {
    if constexpr (kStaticTiling) {
      if (cubeTiling == nullptr) return InitStatic(tpipe);
    }
    if (cubeTiling == nullptr) npurt_detail::Fail("Matmul::Init: no tiling");
    tiling_ = *cubeTiling;
    InitChecked(tpipe, true);
  }

 private:
  // The constant tiling as a TCubeTiling: its shapes stay 0 where it has none (the kernel sets them).
  void InitStatic(TPipe* tpipe) {
    if constexpr (kStaticTiling) {
      auto pos = [](int32_t v) { return v > 0 ? v : 0; };
      tiling_ = TCubeTiling{};
      tiling_.usedCoreNum = 1;
      tiling_.M = pos(MM_CFG.M), tiling_.N = pos(MM_CFG.N), tiling_.Ka = pos(MM_CFG.Ka), tiling_.Kb = pos(MM_CFG.Kb);
      tiling_.singleCoreM = pos(MM_CFG.singleCoreM), tiling_.singleCoreN = pos(MM_CFG.singleCoreN);
      tiling_.singleCoreK = pos(MM_CFG.singleCoreK);
      tiling_.baseM = MM_CFG.baseM, tiling_.baseN = MM_CFG.baseN, tiling_.baseK = MM_CFG.baseK;
      tiling_.iterateOrder = pos(MM_CFG.iterateOrder);
      tiling_.isBias = pos(MM_CFG.isBias);
      InitChecked(tpipe, false);
    }
  }
  // checkShapes: the tiling's single-core shape must be there (a constant tiling's may come later).
  void InitChecked(TPipe* tpipe, bool checkShapes) {
    const TCubeTiling& t = tiling_;
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseM % 16 != 0 || t.baseN % 16 != 0) {
      npurt_detail::Fail("Matmul::Init: baseM %d and baseN %d must be positive multiples of 16", t.baseM, t.baseN);
    }
    if (checkShapes && (t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0)) {
      npurt_detail::Fail("Matmul::Init: singleCoreM/N/K %d/%d/%d must be positive", t.singleCoreM, t.singleCoreN,
                         t.singleCoreK);
    }
    orgM_ = t.M, orgN_ = t.N, orgKa_ = t.Ka, orgKb_ = t.Kb;
    singleM_ = t.singleCoreM, singleN_ = t.singleCoreN, singleK_ = t.singleCoreK;
    if (kAVector && (t.M != 1 || t.singleCoreM != 1)) {
      npurt_detail::Fail("Matmul: A in CubeFormat::VECTOR (GEMV) needs M == 1 (the tiling has M %d, singleCoreM %d)",
                         t.M, t.singleCoreM);
    }
    // The block's accumulators: baseM x baseN in the core's L0C, taken through the kernel's pipe (a second Init
    // of the object reuses them when they are large enough). Without a pipe nothing frees the core's L0C at the
    // next block, so the accumulators are scratch memory then.
    const uint64_t bytes = static_cast<uint64_t>(t.baseM) * t.baseN * sizeof(Acc);
    if (ctile_ == nullptr || bytes > ctileBytes_) {
      if (tpipe != nullptr || GetTPipePtr() != nullptr) {
        ctile_ = reinterpret_cast<Acc*>(
            npurt_detail::MatmulAccumulators(bytes, tpipe != nullptr ? tpipe : GetTPipePtr()));
      } else {
        ctile_ =
            reinterpret_cast<Acc*>(npurt_detail::Grow(npurt_detail::g_pack.c, npurt_detail::g_pack.c_bytes, bytes));
      }
      ctileBytes_ = bytes;
    }
    started_ = false;
    cbL1_ = nullptr;  // the callbacks' L1 tile: taken again after each Init
  }

 public:
  // The values MatmulCallBackFunc's copy callbacks receive as tilingPtr and dataPtr.
  __aicore__ inline void SetUserDefInfo(const uint64_t tilingPtr) { cbTilingPtr_ = tilingPtr; }
  __aicore__ inline void SetSelfDefineData(const uint64_t dataPtr) { cbDataPtr_ = dataPtr; }
  __aicore__ inline void SetSubBlockIdx(uint8_t) {}
  __aicore__ inline void SetHF32(bool, int32_t = 0) {}
  __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
  // IterateNBatch's results go here (as C would hold them).
  template <class T>
  __aicore__ inline void SetWorkspace(const GlobalTensor<T>& ws) {
    workspace_ = reinterpret_cast<uint8_t*>(ws.GetPhyAddr());
  }

  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    (void)orgKc;
    orgM_ = orgM, orgN_ = orgN, orgKa_ = orgKa, orgKb_ = orgKb;
  }
  __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK) {
    singleM_ = singleM, singleN_ = singleN, singleK_ = singleK;
    started_ = false;
  }
  // The last core's smaller tile (-1 keeps the tiling's).
  __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) singleM_ = tailM;
    if (tailN > 0) singleN_ = tailN;
    if (tailK > 0) singleK_ = tailK;
    started_ = false;
  }

  __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    if (kAVector && isTransposeA) npurt_detail::Fail("Matmul: A in CubeFormat::VECTOR cannot be transposed");
    a_ = aUser_ = gm.GetPhyAddr(), transA_ = isTransposeA, started_ = false;
  }
  __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& local, bool isTransposeA = false) {
    if (kAVector && isTransposeA) npurt_detail::Fail("Matmul: A in CubeFormat::VECTOR cannot be transposed");
    a_ = aUser_ = local.GetPhyAddr(), transA_ = isTransposeA, started_ = false;
  }
  __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    b_ = bUser_ = gm.GetPhyAddr(), transB_ = isTransposeB, started_ = false;
  }
  __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& local, bool isTransposeB = false) {
    b_ = bUser_ = local.GetPhyAddr(), transB_ = isTransposeB, started_ = false;
  }
  __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal) { bias_ = biasGlobal.GetPhyAddr(); }
  __aicore__ inline void SetBias(const LocalTensor<BiasT>& biasLocal) { bias_ = biasLocal.GetPhyAddr(); }
  __aicore__ inline void DisableBias() { bias_ = nullptr; }
  __aicore__ inline void ClearBias() { bias_ = nullptr; }
  // int32 -> half results (int8 operands): the scale, a float in the low 32 bits (as Fixpipe's deqScalar).
  __aicore__ inline void SetQuantScalar(uint64_t quantScalar) { quantScalar_ = npurt_detail::ScaleOf(quantScalar); }
  __aicore__ inline void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
    quantVector_ = quantTensor.GetPhyAddr();
  }

  // Computes the next base block of C; false when every block was computed (the next call starts over).
  // enPartialSum: add this block's product to the accumulators of the previous Iterate instead of starting anew.
  // Iterate<false> (asynchronous) starts the whole tile: the GetTensorC<false> calls that follow take its
  // blocks one after another (each computed when it is taken, which gives the same results).
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum = false) {
    if constexpr (!sync) {
      if (a_ == nullptr || b_ == nullptr) npurt_detail::Fail("Matmul::Iterate before SetTensorA and SetTensorB");
      started_ = false;
      asyncPending_ = true;
      asyncPartial_ = enPartialSum;
      return true;
    }
    return NextBlock(enPartialSum);
  }

  // The next block into the kernel's own CO1 (L0C) tensor (C a MatmulType<TPosition::CO1, CubeFormat::NZ,
  // float / int32_t>): the whole 16 x 16 fractals of the block (AlignUp(rows, 16) x AlignUp(cols, 16), bias in
  // every row, zero past K) in NZ from the tensor's start, element (r, c) at ((c / 16) * AlignUp(rows, 16) + r) *
  // 16 + c % 16; enPartialSum adds the block to what the tensor holds. false past the last block.
  template <bool sync = true, typename T>
  __aicore__ inline bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix) {
    static_assert(C_TYPE::pos == TPosition::CO1 && C_TYPE::format == CubeFormat::NZ && std::is_same<T, Acc>::value &&
                      std::is_same<DstT, Acc>::value,
                  "Matmul::Iterate(enPartialSum, localCmatrix): C must be MatmulType<TPosition::CO1, CubeFormat::NZ, "
                  "float or int32_t> (the accumulator type) and the tensor of that type");
    if (!NextBlock(false)) return false;
    const int32_t rows = static_cast<int32_t>(npurt_detail::AlignUp(bm_, 16));
    const int32_t cols = static_cast<int32_t>(npurt_detail::AlignUp(bn_, 16));
    T* dst = localCmatrix.GetPhyAddr();
    npurt_detail::CheckLocal(dst, static_cast<uint64_t>(rows) * cols * sizeof(T), "Matmul::Iterate (CO1 tensor)");
    for (int32_t r = 0; r < rows; ++r) {
      const Acc* src = ctile_ + static_cast<size_t>(r) * tiling_.baseN;
      for (int32_t c = 0; c < cols; ++c) {
        Acc v = src[c];
        if constexpr (kRelu) v = v < Acc(0) ? Acc(0) : v;
        T& at = dst[((c / 16) * rows + r) * 16 + c % 16];
        at = enPartialSum ? static_cast<T>(at + v) : v;
      }
    }
    return true;
  }

  // The next block of the tile in the iteration order; false past the last.
  bool NextBlock(bool enPartialSum) {
    if (a_ == nullptr || b_ == nullptr) npurt_detail::Fail("Matmul::Iterate before SetTensorA and SetTensorB");
    const int32_t mIter = CeilDiv(singleM_, tiling_.baseM), nIter = CeilDiv(singleN_, tiling_.baseN);
    if (!started_) {
      const bool noOrg = kStaticTiling && (orgM_ <= 0 || orgN_ <= 0 || orgKa_ <= 0);
      if (singleM_ <= 0 || singleN_ <= 0 || singleK_ <= 0 || noOrg) {
        npurt_detail::Fail("Matmul::Iterate: no shape (singleCoreM/N/K %d/%d/%d, M/N/Ka %d/%d/%d): a constant "
                           "tiling without one needs SetOrgShape and SetSingleShape / SetTail",
                           singleM_, singleN_, singleK_, orgM_, orgN_, orgKa_);
      }
      if constexpr (kCopyA1 || kCopyB1) GatherByCallbacks();
      started_ = true;
      curM_ = curN_ = 0;
      aPacked_ = false;  // operands are packed anew for each sequence: their memory may have changed
      bPackedN0_ = -1;
    } else if (IterateAlongN()) {
      if (++curN_ == nIter) curN_ = 0, ++curM_;
    } else {
      if (++curM_ == mIter) curM_ = 0, ++curN_;
    }
    if (curM_ >= mIter || curN_ >= nIter) {
      started_ = false;
      return false;
    }
    ComputeBlock(enPartialSum);
    return true;
  }

  // The block of the last Iterate into C in global memory: at its place in C (row stride N), or, with
  // enSequentialWrite, as a baseM x baseN block at gm. enAtomic: 0 store, 1 add, 2 max, 3 min.
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    if constexpr (!sync) TakeAsyncBlock();
    WriteBlock(gm.GetPhyAddr(), true, enAtomic, enSequentialWrite);
  }
  // The block into a local tensor: baseM rows of baseN elements (ND).
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    if constexpr (!sync) TakeAsyncBlock();
    WriteBlock(co2Local.GetPhyAddr(), false, enAtomic, true);
  }

  template <bool sync = true>
  __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                    bool waitIterateAll = false, bool fakeMsg = false) {
    (void)waitIterateAll, (void)fakeMsg;
    started_ = false;
    while (Iterate()) WriteBlock(gm.GetPhyAddr(), true, enAtomic, enSequentialWrite);
  }
  // The whole singleCoreM x singleCoreN result into a local tensor (ND, row stride singleCoreN).
  template <bool sync = true>
  __aicore__ inline void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0) {
    started_ = false;
    while (Iterate()) WriteBlock(ubCmatrix.GetPhyAddr(), false, enAtomic, false, singleN_);
  }

  __aicore__ inline void WaitIterateAll() {}

  // Batch matmul: max(batchA, batchB) products of singleCoreM x singleCoreN (fewer of A or B: broadcast, see
  // npurt_kernel/matmul_batch_layout.h), each where its LayoutMode and the tiling's layout axes put it, from
  // where SetTensorA/B and the output point. enSequentialWrite:
  // C's matrices one after another, row stride singleCoreN. With MatmulConfig::isBiasBatch the bias of matrix i
  // is at bias + i * N, else every matrix takes the one bias row. Computed at once (sync or not).
  template <bool sync = true, bool waitIterateBatch = false>
  __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
    RunBatches(gm.GetPhyAddr(), true, 0, batchA, batchB, enSequentialWrite,
               {matrixStrideA, matrixStrideB, matrixStrideC}, enPartialSum, enAtomic);
  }
  // The same into a local tensor (VECIN): C's matrices placed as in global memory, from the tensor's start.
  template <bool sync = true>
  __aicore__ inline void IterateBatch(const LocalTensor<DstT>& ubCmatrix, uint32_t batchA, uint32_t batchB,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
    RunBatches(ubCmatrix.GetPhyAddr(), false, 0, batchA, batchB, enSequentialWrite,
               {matrixStrideA, matrixStrideB, matrixStrideC}, enPartialSum, enAtomic);
  }
  // batchLoop IterateBatches one after another (loop l: A's batches from l * batchA, B's from l * batchB, C's
  // from l * max(batchA, batchB)) into the SetWorkspace tensor, placed there as C's layout places them.
  template <bool sync = true, bool waitIterateBatch = false>
  __aicore__ inline void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                                       bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                       const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
    static_assert(kCfg.isNBatch, "Matmul::IterateNBatch needs MatmulConfig::isNBatch (MatmulBatchParams)");
    if (workspace_ == nullptr) npurt_detail::Fail("Matmul::IterateNBatch before SetWorkspace");
    for (uint32_t l = 0; l < batchLoop; ++l) {
      RunBatches(reinterpret_cast<DstT*>(workspace_), true, l, batchA, batchB, enSequentialWrite,
                 {matrixStrideA, matrixStrideB, matrixStrideC}, false, 0);
    }
  }
  __aicore__ inline void WaitIterateBatch() {}
  __aicore__ inline void End() { started_ = false, asyncPending_ = false; }

 private:
  static int32_t CeilDiv(int32_t a, int32_t b) { return (a + b - 1) / b; }

  struct MatrixStrides {
    uint32_t a, b, c;
  };
  // Loop `loop` of batchA x batchB products (IterateBatch: loop 0) into dst.
  void RunBatches(DstT* dst, bool global, uint32_t loop, uint32_t batchA, uint32_t batchB, bool sequential,
                  MatrixStrides strides, bool partial, uint8_t atomic) {
    using namespace npurt_detail;
    static_assert(A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
                      C_TYPE::format == CubeFormat::ND,
                  "Matmul::IterateBatch: A, B and C must be CubeFormat::ND on the sim");
    static_assert(!kInt4, "Matmul::IterateBatch with int4b_t A/B is not supported on the sim");
    if (partial) Fail("Matmul::IterateBatch: enPartialSum is not supported on the sim");
    if (a_ == nullptr || b_ == nullptr) Fail("Matmul::IterateBatch before SetTensorA and SetTensorB");
    const int64_t batchC = batchA > batchB ? batchA : batchB;
    if (batchA == 0 || batchB == 0 || batchC % batchA != 0 || batchC % batchB != 0) {
      Fail("Matmul::IterateBatch: batchA %u and batchB %u: one must divide the other", batchA, batchB);
    }
    static_assert(!kCopyA1 && !kCopyB1, "Matmul::IterateBatch with MatmulCallBackFunc copy callbacks is not "
                                        "supported on the sim");
    const SrcAT* a0 = a_;
    const SrcBT* b0 = b_;
    const BiasT* bias0 = bias_;
    const int64_t sizeA = static_cast<int64_t>(orgM_) * orgKa_, sizeB = static_cast<int64_t>(orgKb_) * orgN_;
    const int64_t sizeC = static_cast<int64_t>(orgM_) * orgN_;
    for (int64_t i = 0; i < batchC; ++i) {
      const int64_t ic = loop * batchC + i;
      const BatchAxes axC = BatchAxesC(tiling_);
      const int64_t ia = OperandBatch<A_TYPE::layout, C_TYPE::layout>(BatchAxesA(tiling_), axC, ic, batchC, batchA);
      const int64_t ib = OperandBatch<B_TYPE::layout, C_TYPE::layout>(BatchAxesB(tiling_), axC, ic, batchC, batchB);
      const BatchMatrix ma = BatchMatrixAt<A_TYPE::layout>(BatchAxesA(tiling_), ia, sizeA, strides.a, "A");
      const BatchMatrix mb = BatchMatrixAt<B_TYPE::layout>(BatchAxesB(tiling_), ib, sizeB, strides.b, "B");
      a_ = a0 + ma.offset, ldA_ = static_cast<int32_t>(ma.ld);
      b_ = b0 + mb.offset, ldB_ = static_cast<int32_t>(mb.ld);
      if (bias0 != nullptr && kCfg.isBiasBatch) bias_ = bias0 + ic * orgN_;
      DstT* c = nullptr;
      int32_t ldc = singleN_;
      if (sequential) {
        c = dst + ic * singleM_ * singleN_;
      } else {
        const BatchMatrix mc = BatchMatrixAt<C_TYPE::layout>(BatchAxesC(tiling_), ic, sizeC, strides.c, "C");
        c = dst + mc.offset, ldc = mc.ld > 0 ? static_cast<int32_t>(mc.ld) : orgN_;
      }
      started_ = false;
      while (NextBlock(false)) WriteBlock(c, global, atomic, false, ldc);
    }
    a_ = a0, b_ = b0, bias_ = bias0, ldA_ = ldB_ = 0;
    started_ = false;
  }
  // GetTensorC<false>: the next block of the tile Iterate<false> started.
  void TakeAsyncBlock() {
    if (!asyncPending_) npurt_detail::Fail("Matmul::GetTensorC<false> without Iterate<false>");
    if (!NextBlock(asyncPartial_)) {
      asyncPending_ = false;
      npurt_detail::Fail("Matmul::GetTensorC<false>: every block of the tile was taken already");
    }
  }
  // The block order: MatmulConfig::iterateOrder where it is set, else the tiling's (1: along N first).
  bool IterateAlongN() const {
    if constexpr (kCfg.iterateOrder != IterateOrder::UNDEF) return kCfg.iterateOrder == IterateOrder::ORDER_N;
    return tiling_.iterateOrder == 1;
  }

  // The tile's A and B from the callbacks' L1 tiles (npurt_kernel/matmul_callback.h), read as ND from there on.
  void GatherByCallbacks() {
    using namespace npurt_detail;
    const TCubeTiling& t = tiling_;
    auto step = [](int32_t v) { return v > 0 ? v : 1; };
    const int32_t k1a = t.baseK > 0 ? t.baseK * step(t.stepKa) : singleK_;
    const int32_t k1b = t.baseK > 0 ? t.baseK * step(t.stepKb) : singleK_;
    const int32_t m1 = t.baseM * step(t.stepM), n1 = t.baseN * step(t.stepN);
    if (cbL1_ == nullptr) {
      const uint64_t aBytes = AlignUp(m1, 16) * AlignUp(k1a, kC0) * sizeof(SrcAT);
      const uint64_t bBytes = AlignUp(k1b, 16) * AlignUp(n1, kC0) * sizeof(SrcBT);
      cbL1_ = CarveCubeBuffer(LocalMem::kL1, aBytes > bBytes ? aBytes : bBytes,
                              "Matmul (MatmulCallBackFunc's L1 tile)");
    }
    if constexpr (kCopyA1) {
      if (transA_) Fail("Matmul: the CopyA1 callback with a transposed A is not supported on the sim");
      GatherTilesByCallback<MM_CB::kCopyA1>(cbA_, cbL1_, aUser_, singleM_, singleK_, m1, k1a, cbTilingPtr_,
                                            cbDataPtr_, TPosition::A1);
      a_ = cbA_.data(), ldA_ = singleK_;
    }
    if constexpr (kCopyB1) {
      if (transB_) Fail("Matmul: the CopyB1 callback with a transposed B is not supported on the sim");
      GatherTilesByCallback<MM_CB::kCopyB1>(cbB_, cbL1_, bUser_, singleK_, singleN_, k1b, n1, cbTilingPtr_,
                                            cbDataPtr_, TPosition::B1);
      b_ = cbB_.data(), ldB_ = singleN_;
    }
  }

  // A(i, k), B(k, j) of the whole operands (offsets in elements from where SetTensorA/B point).
  size_t OffA(int64_t i, int64_t k) const {
    if constexpr (A_TYPE::format == CubeFormat::NZ) {
      if (transA_) return static_cast<size_t>(((i / kC0) * npurt_detail::AlignUp(orgKa_, 16) + k) * kC0 + i % kC0);
      return static_cast<size_t>(((k / kC0) * npurt_detail::AlignUp(orgM_, 16) + i) * kC0 + k % kC0);
    } else {
      if (ldA_ > 0) return static_cast<size_t>(transA_ ? k * ldA_ + i : i * ldA_ + k);
      return static_cast<size_t>(transA_ ? k * orgM_ + i : i * orgKa_ + k);
    }
  }
  size_t OffB(int64_t k, int64_t j) const {
    if constexpr (B_TYPE::format == CubeFormat::NZ) {
      if (transB_) return static_cast<size_t>(((k / kC0) * npurt_detail::AlignUp(orgN_, 16) + j) * kC0 + k % kC0);
      return static_cast<size_t>(((j / kC0) * npurt_detail::AlignUp(orgKb_, 16) + k) * kC0 + j % kC0);
    } else {
      if (ldB_ > 0) return static_cast<size_t>(transB_ ? j * ldB_ + k : k * ldB_ + j);
      return static_cast<size_t>(transB_ ? j * orgKb_ + k : k * orgN_ + j);
    }
  }

  // Packed operands are kept for the whole sequence of Iterates (IterateAll): A's panels for all of the
  // tile's rows and B's for the current column block, every K chunk, so that each element is converted once
  // per sequence (per column block for B) instead of once per base block. Past kMaxCachedBytes the chunk
  // being multiplied is packed per block instead.
  static constexpr size_t kMaxCachedBytes = size_t{32} << 20;

  void ComputeBlock(bool partial) {
    using namespace npurt_detail;
    const int32_t baseM = tiling_.baseM, baseN = tiling_.baseN;
    m0_ = curM_ * baseM, n0_ = curN_ * baseN;
    if (reinterpret_cast<uint8_t*>(ctile_) == npurt_detail::g_mm_l0c.p) npurt_detail::g_mm_l0c.owner = this;
    bm_ = singleM_ - m0_ < baseM ? singleM_ - m0_ : baseM;
    bn_ = singleN_ - n0_ < baseN ? singleN_ - n0_ : baseN;
    const int32_t m1 = CeilDiv(bm_, 16), n1 = CeilDiv(bn_, 16);
    const size_t ldc = static_cast<size_t>(baseN);
    if (!partial) {
      for (int32_t i = 0; i < m1 * 16; ++i) {
        Acc* row = ctile_ + i * ldc;
        if (bias_ != nullptr) {
          for (int32_t j = 0; j < n1 * 16; ++j) row[j] = j < bn_ ? AccOf<Acc>(bias_[n0_ + j]) : Acc(0);
        } else {
          std::memset(static_cast<void*>(row), 0, static_cast<size_t>(n1) * 16 * sizeof(Acc));
        }
      }
    }
#if NPURT_CUBE_AMX
    if constexpr (kAmxTypes) {
      if (AmxUsable() && ComputeAmx(m1, n1)) return;
    }
#endif
    const int32_t chunks = CeilDiv(singleK_, kPackK);
    // A: all rows of the tile (panels of 16 rows), chunk c at ap + c * aChunk.
    const int32_t mAll = CeilDiv(singleM_, 16);
    const size_t aChunk = static_cast<size_t>(mAll) * 16 * kPackK;
    const bool cacheA = aChunk * chunks * sizeof(Acc) <= kMaxCachedBytes;
    Acc* ap = PackA<Acc>(cacheA ? aChunk * chunks : static_cast<size_t>(m1) * 16 * kPackK);
    if (cacheA && !aPacked_) {
      for (int32_t c = 0; c < chunks; ++c) {
        PackAPanels(ap + c * aChunk, 0, singleM_, mAll, c * kPackK, ChunkLen(c));
      }
      aPacked_ = true;
    }
    // B: the block's columns, chunk c at bp + c * bChunk.
    const size_t bChunk = static_cast<size_t>(n1) * 16 * kPackK;
    const bool cacheB = bChunk * chunks * sizeof(Acc) <= kMaxCachedBytes;
    Acc* bp = PackB<Acc>(cacheB ? bChunk * chunks : bChunk);
    if (cacheB && bPackedN0_ != n0_) {
      for (int32_t c = 0; c < chunks; ++c) PackBPanels(bp + c * bChunk, n1, c * kPackK, ChunkLen(c));
      bPackedN0_ = n0_;
    }
    for (int32_t c = 0; c < chunks; ++c) {
      const int32_t kc = ChunkLen(c);
      const Acc* a = cacheA ? ap + c * aChunk + static_cast<size_t>(m0_ / 16) * 16 * kPackK : ap;
      const Acc* b = cacheB ? bp + c * bChunk : bp;
      if (!cacheA) PackAPanels(ap, m0_, bm_, m1, c * kPackK, kc);
      if (!cacheB) PackBPanels(bp, n1, c * kPackK, kc);
      for (int32_t l = 0; l < n1; ++l) {
        for (int32_t i = 0; i < m1; ++i) {
          MicroKernel(a + static_cast<size_t>(i) * 16 * kPackK, b + static_cast<size_t>(l) * 16 * kPackK, kc,
                      ctile_ + static_cast<size_t>(i) * 16 * ldc + l * 16, ldc);
        }
      }
    }
  }

#if NPURT_CUBE_AMX
  // The block on AMX (npurt_kernel/cube_amx.h) when the packed operands of the whole sequence fit the cache
  // limit (decided from the tile's shape, so a sequence never mixes the two paths' packed layouts).
  bool ComputeAmx(int32_t m1, int32_t n1) {
    using namespace npurt_detail;
    const int32_t kb = CeilDiv(singleK_, kAmxK), mAll = CeilDiv(singleM_, 16);
    const int32_t nMax = CeilDiv(singleN_ < tiling_.baseN ? singleN_ : tiling_.baseN, 16);
    const size_t aBytes = static_cast<size_t>(mAll) * kb * kAmxPair * sizeof(uint16_t);
    const size_t bBytes = static_cast<size_t>(nMax) * kb * kAmxPair * sizeof(uint16_t);
    if (aBytes > kMaxCachedBytes || bBytes > kMaxCachedBytes) return false;
    auto* ap = static_cast<uint16_t*>(Grow(g_pack.a, g_pack.a_bytes, aBytes));
    auto* bp = static_cast<uint16_t*>(Grow(g_pack.b, g_pack.b_bytes, bBytes));
    if (!aPacked_) {
      for (int32_t p = 0; p < mAll; ++p) {
        for (int32_t q = 0; q < kb; ++q) PackAmxA(ap + (static_cast<size_t>(p) * kb + q) * kAmxPair, p, q);
      }
      aPacked_ = true;
    }
    if (bPackedN0_ != n0_) {
      for (int32_t l = 0; l < n1; ++l) {
        for (int32_t q = 0; q < kb; ++q) PackAmxB(bp + (static_cast<size_t>(l) * kb + q) * kAmxPair, l, q);
      }
      bPackedN0_ = n0_;
    }
    AmxMultiply(ap + static_cast<size_t>(m0_ / 16) * kb * kAmxPair, m1, bp, n1, kb, ctile_,
                static_cast<size_t>(tiling_.baseN), std::is_same<SrcAT, half>::value);
    return true;
  }

  // 16 elements of A's row `row` from K element k (those past K zero).
  __m512 AmxRowA(int32_t row, int32_t k) const {
    const int32_t n = singleK_ - k < 16 ? singleK_ - k : 16;
    if (n <= 0) return _mm512_setzero_ps();
    if (A_TYPE::format == CubeFormat::ND && !transA_) return npurt_detail::LoadFloats16(a_ + OffA(row, k), n);
    alignas(64) float v[16] = {};
    for (int32_t j = 0; j < n; ++j) v[j] = npurt_detail::AccOf<float>(a_[OffA(row, k + j)]);
    return _mm512_load_ps(v);
  }
  // 16 columns (from n0 + l * 16) of B's row k (past K or the block's columns: zero).
  __m512 AmxRowB(int32_t k, int32_t l) const {
    const int32_t cols = bn_ - l * 16 < 16 ? bn_ - l * 16 : 16;
    if (k >= singleK_) return _mm512_setzero_ps();
    if (B_TYPE::format == CubeFormat::ND && !transB_) {
      return npurt_detail::LoadFloats16(b_ + OffB(k, n0_ + l * 16), cols);
    }
    alignas(64) float v[16] = {};
    for (int32_t j = 0; j < cols; ++j) v[j] = npurt_detail::AccOf<float>(b_[OffB(k, n0_ + l * 16 + j)]);
    return _mm512_load_ps(v);
  }
  // Panel p's tiles of K block q (rows past the tile zero).
  void PackAmxA(uint16_t* pair, int32_t p, int32_t q) const {
    for (int32_t r = 0; r < 16; ++r) {
      const int32_t row = p * 16 + r;
      for (int h = 0; h < 2; ++h) {
        const __m512 x = row < singleM_ ? AmxRowA(row, q * npurt_detail::kAmxK + h * 16) : _mm512_setzero_ps();
        npurt_detail::StoreARow16(pair, r, h, x);
      }
    }
  }
  // Column panel l's VNNI tiles of K block q.
  void PackAmxB(uint16_t* pair, int32_t l, int32_t q) const {
    for (int32_t r = 0; r < 16; ++r) {
      const int32_t k = q * npurt_detail::kAmxK + 2 * r;
      npurt_detail::StoreBRows16(pair, r, AmxRowB(k, l), AmxRowB(k + 1, l));
    }
  }
#endif

  int32_t ChunkLen(int32_t c) const {
    using npurt_detail::kPackK;
    return singleK_ - c * kPackK < kPackK ? singleK_ - c * kPackK : kPackK;
  }

  // Rows row0..row0+rows of A (m1 panels, rows past them zero), K elements k0..k0+kc: row r of panel p at
  // ap + (p * 16 + r) * kPackK.
  void PackAPanels(Acc* ap, int32_t row0, int32_t rows, int32_t m1, int32_t k0, int32_t kc) const {
    using namespace npurt_detail;
    for (int32_t i = 0; i < m1 * 16; ++i) {
      Acc* row = ap + static_cast<size_t>(i) * kPackK;
      if (i >= rows) {
        std::memset(static_cast<void*>(row), 0, static_cast<size_t>(kc) * sizeof(Acc));
      } else if (A_TYPE::format == CubeFormat::ND && !transA_) {
        LoadAcc(row, a_, OffA(row0 + i, k0), static_cast<uint32_t>(kc));
      } else {
        for (int32_t k = 0; k < kc; ++k) LoadAcc(row + k, a_, OffA(row0 + i, k0 + k), 1);
      }
    }
  }

  // Columns n0..n0+bn of B, K elements k0..k0+kc: row k of panel p (its 16 columns) at bp + p * 16 * kPackK + k * 16.
  void PackBPanels(Acc* bp, int32_t n1, int32_t k0, int32_t kc) const {
    using namespace npurt_detail;
    for (int32_t l = 0; l < n1; ++l) {
      Acc* panel = bp + static_cast<size_t>(l) * 16 * kPackK;
      const int32_t cols = bn_ - l * 16 < 16 ? bn_ - l * 16 : 16;
      if (B_TYPE::format == CubeFormat::ND && !transB_) {
        for (int32_t k = 0; k < kc; ++k) {
          Acc* row = panel + static_cast<size_t>(k) * 16;
          LoadAcc(row, b_, OffB(k0 + k, n0_ + l * 16), static_cast<uint32_t>(cols));
          for (int32_t j = cols; j < 16; ++j) row[j] = Acc(0);
        }
      } else {
        for (int32_t j = 0; j < 16; ++j) {
          for (int32_t k = 0; k < kc; ++k) {
            Acc* at = panel + static_cast<size_t>(k) * 16 + j;
            if (j < cols) {
              LoadAcc(at, b_, OffB(k0 + k, n0_ + l * 16 + j), 1);
            } else {
              *at = Acc(0);
            }
          }
        }
      }
    }
  }

  DstT Convert(Acc v, int32_t col) const {
    if constexpr (kRelu) v = v < Acc(0) ? Acc(0) : v;
    if constexpr (std::is_same<DstT, Acc>::value) {
      return v;
    } else if constexpr (std::is_integral<Acc>::value) {
      const float scale = quantVector_ != nullptr ? npurt_detail::ScaleOf(quantVector_[n0_ + col]) : quantScalar_;
      if constexpr (std::is_same<DstT, half>::value) {
        return DstT(static_cast<float>(v) * npurt_detail::DeqF16Scale(scale));  // the fixpipe's DEQF16
      } else {
        return DstT(static_cast<float>(v) * scale);
      }
    } else {
      return DstT(v);
    }
  }

  static DstT Combine(DstT old, DstT v, uint8_t atomic) {
    switch (atomic) {
      case 1: return DstT(static_cast<Acc>(old) + static_cast<Acc>(v));
      case 2: return static_cast<Acc>(old) < static_cast<Acc>(v) ? v : old;
      case 3: return static_cast<Acc>(v) < static_cast<Acc>(old) ? v : old;
      default: return v;
    }
  }

  // The block [m0, +bm) x [n0, +bn) to dst: at its place in C, or from dst's start (sequential: row stride
  // `seq_ld`, baseN unless given).
  void WriteBlock(DstT* dst, bool global, uint8_t atomic, bool sequential, int32_t seq_ld = 0) {
    using namespace npurt_detail;
    if (!started_) Fail("Matmul::GetTensorC without a block: call Iterate first");
    if (reinterpret_cast<uint8_t*>(ctile_) == g_mm_l0c.p && g_mm_l0c.owner != this) {
      Fail("Matmul::GetTensorC: another Matmul object computed a block since this one's Iterate, in the L0C "
           "accumulators the objects share (the core's L0C holds one object's): finish one object's block first");
    }
    const size_t ldc = static_cast<size_t>(tiling_.baseN);
    const bool nz = C_TYPE::format == CubeFormat::NZ;
    const int64_t alignM = nz ? AlignUp(sequential ? tiling_.baseM : orgM_, 16) : 0;
    // ND_ALIGN: C in ND with its rows padded to 32 bytes (row stride N rounded up); the fixpipe writes whole
    // 32-byte blocks, so a block ending inside the last one also writes the padding (zeros: B's padding).
    constexpr int32_t kDstC0 = ONE_BLK_SIZE / static_cast<int32_t>(sizeof(DstT));
    const bool ndAlign = C_TYPE::format == CubeFormat::ND_ALIGN;
    const int64_t ldGlobal = ndAlign ? AlignUp(orgN_, kDstC0) : orgN_;
    const int32_t padTo = ndAlign && seq_ld == 0 && !sequential
                              ? static_cast<int32_t>(std::min<int64_t>(AlignUp(n0_ + bn_, kDstC0), ldGlobal) - n0_)
                              : bn_;
    for (int32_t i = 0; i < bm_; ++i) {
      const Acc* src = ctile_ + i * ldc;
      if (!nz) {
        DstT* row = nullptr;
        if (seq_ld > 0)
          row = dst + static_cast<size_t>(m0_ + i) * seq_ld + n0_;
        else if (sequential)
          row = dst + static_cast<size_t>(i) * tiling_.baseN;
        else
          row = dst + static_cast<size_t>(m0_ + i) * ldGlobal + n0_;
        if (global)
          CheckGlobal(row, padTo * sizeof(DstT), true, "Matmul::GetTensorC");
        else
          CheckLocal(row, padTo * sizeof(DstT), "Matmul::GetTensorC");
        if (atomic == 0) {
          for (int32_t j = bn_; j < padTo; ++j) row[j] = DstT(0);
        }
        if (atomic == 0 && !kRelu && std::is_same<DstT, Acc>::value) {
          std::memcpy(static_cast<void*>(row), src, bn_ * sizeof(DstT));
        } else if (atomic == 0 && !kRelu && std::is_same<DstT, half>::value && std::is_same<Acc, float>::value) {
          FromFloat(reinterpret_cast<half*>(row), reinterpret_cast<const float*>(src), static_cast<uint32_t>(bn_));
        } else {
          for (int32_t j = 0; j < bn_; ++j) row[j] = Combine(row[j], Convert(src[j], j), atomic);
        }
      } else {
        const int64_t r = sequential ? i : m0_ + i;
        for (int32_t j = 0; j < bn_; ++j) {
          const int64_t c = sequential ? j : n0_ + j;
          DstT* at = dst + static_cast<size_t>(((c / 16) * alignM + r) * 16 + c % 16);
          if (global)
            CheckGlobal(at, sizeof(DstT), true, "Matmul::GetTensorC");
          else
            CheckLocal(at, sizeof(DstT), "Matmul::GetTensorC");
          *at = Combine(*at, Convert(src[j], j), atomic);
        }
      }
    }
  }

  TCubeTiling tiling_{};
  int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
  const SrcAT* a_ = nullptr;
  const SrcBT* b_ = nullptr;
  const BiasT* bias_ = nullptr;
  int32_t ldA_ = 0, ldB_ = 0;  // IterateBatch: the layout's row strides (0: the original shape's)
  uint8_t* workspace_ = nullptr;
  const SrcAT* aUser_ = nullptr;  // SetTensorA/B's addresses (the callbacks' gm)
  const SrcBT* bUser_ = nullptr;
  uint64_t cbTilingPtr_ = 0, cbDataPtr_ = 0;
  uint8_t* cbL1_ = nullptr;
  std::vector<SrcAT> cbA_;
  std::vector<SrcBT> cbB_;
  bool transA_ = false, transB_ = false;
  float quantScalar_ = 1.0f;
  const uint64_t* quantVector_ = nullptr;
  Acc* ctile_ = nullptr;
  uint64_t ctileBytes_ = 0;
  bool started_ = false;
  bool asyncPending_ = false, asyncPartial_ = false;
  bool aPacked_ = false;
  int32_t bPackedN0_ = -1;
  int32_t curM_ = 0, curN_ = 0, m0_ = 0, n0_ = 0, bm_ = 0, bn_ = 0;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

namespace npurt_detail {
// REGIST_MATMUL_OBJ(pipe, workspace, mm1, tiling1, mm2, tiling2, ...): Init of each object with its tiling
// (a null tiling leaves the object for a later Init).
inline void RegistMatmulObjs(TPipe*) {}
template <class MM>
inline void RegistMatmulObjs(TPipe*, MM&) {}
template <class MM, class Tiling, class... Rest>
inline void RegistMatmulObjs(TPipe* pipe, MM& mm, Tiling tiling, Rest&&... rest) {
  if (tiling != nullptr || MM::kStaticTiling) mm.Init(tiling, pipe);
  RegistMatmulObjs(pipe, rest...);
}
}  // namespace npurt_detail

}  // namespace AscendC

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                   \
  do {                                                             \
    (void)(workspace);                                             \
    AscendC::npurt_detail::RegistMatmulObjs((tpipe), __VA_ARGS__); \
  } while (0)
