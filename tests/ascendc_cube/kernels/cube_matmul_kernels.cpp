// Kernels of the Matmul API tests, written as CANN's matmul samples write them: the tiling copied from
// global memory, REGIST_MATMUL_OBJ, each block's offsets and tail from its index and the tiling, then
// IterateAll / Iterate + GetTensorC (to GM, to a VECIN tensor, sequentially, atomically).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "cube_matmul_kernels.h"

using namespace AscendC;
using namespace matmul;

namespace {

__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGm) {
  auto* dst = reinterpret_cast<int32_t*>(tiling);
  auto* src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
  for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
}

template <typename T>
constexpr int32_t C0Of() {
  return 32 / static_cast<int32_t>(sizeof(T));
}
inline int32_t Align16(int32_t v) { return (v + 15) / 16 * 16; }

template <typename AT, typename CT, typename BiasT, CubeFormat AF = CubeFormat::ND, CubeFormat CF = CubeFormat::ND,
          CubeFormat AFormat = AF>
__aicore__ inline void MatmulKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm,
                                    const CubeMatmulArgs& args) {
  SetSysWorkspace(workspace);
  if (GetSysWorkSpacePtr() == nullptr) return;
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  if (GetBlockIdx() >= tiling.usedCoreNum) return;

  GlobalTensor<AT> aGm, bGm;
  GlobalTensor<CT> cGm;
  GlobalTensor<BiasT> biasGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(b));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c));
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT*>(bias));

  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, AFormat, AT>, MatmulType<TPosition::GM, AF, AT>, MatmulType<TPosition::GM, CF, CT>,
         MatmulType<TPosition::GM, CubeFormat::ND, BiasT>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);

  const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int32_t mIdx = static_cast<int32_t>(GetBlockIdx()) % mBlocks,
                nIdx = static_cast<int32_t>(GetBlockIdx()) / mBlocks;
  const int32_t mStart = mIdx * tiling.singleCoreM, nStart = nIdx * tiling.singleCoreN;
  constexpr int32_t c0 = C0Of<AT>();
  uint64_t offA, offB, offC;
  if constexpr (AF == CubeFormat::NZ) {
    // A NZ (M x K, columns of c0 elements, rows aligned to 16), B NZ (K x N): a tile starts at its first
    // row (A) or first column block (B).
    offA = static_cast<uint64_t>(mStart) * c0;
    offB = static_cast<uint64_t>(nStart / c0) * Align16(tiling.Kb) * c0;
  } else {
    offA = args.transA ? static_cast<uint64_t>(mStart) : static_cast<uint64_t>(mStart) * tiling.Ka;
    offB = args.transB ? static_cast<uint64_t>(nStart) * tiling.Kb : static_cast<uint64_t>(nStart);
  }
  if constexpr (CF == CubeFormat::NZ) {
    offC = static_cast<uint64_t>(mStart) * 16 + static_cast<uint64_t>(nStart / 16) * Align16(tiling.M) * 16;
  } else if constexpr (CF == CubeFormat::ND_ALIGN) {
    constexpr int32_t cAlign = 32 / static_cast<int32_t>(sizeof(CT));  // rows padded to 32 bytes
    offC = static_cast<uint64_t>(mStart) * ((tiling.N + cAlign - 1) / cAlign * cAlign) + nStart;
  } else {
    offC = static_cast<uint64_t>(mStart) * tiling.N + nStart;
  }
  const int32_t tailM = tiling.M - mStart < tiling.singleCoreM ? tiling.M - mStart : tiling.singleCoreM;
  const int32_t tailN = tiling.N - nStart < tiling.singleCoreN ? tiling.N - nStart : tiling.singleCoreN;
  mm.SetTail(tailM, tailN);
  if constexpr (std::is_same<AT, int8_t>::value && std::is_same<CT, half>::value) {
    const float scale = 1.0f / 512;  // int32 -> half: the scale's float bits in the low 32 bits
    uint32_t bits;
    std::memcpy(&bits, &scale, sizeof bits);
    mm.SetQuantScalar(bits);
  }
  mm.SetTensorA(aGm[offA], args.transA != 0);
  mm.SetTensorB(bGm[offB], args.transB != 0);
  if (args.bias)
    mm.SetBias(biasGm[nStart]);
  else
    mm.DisableBias();

  if (args.mode == 0) {
    mm.IterateAll(cGm[offC]);
  } else if (args.mode == 1) {
    while (mm.Iterate()) mm.GetTensorC(cGm[offC]);
  } else if (args.mode == 3) {
    mm.IterateAll(cGm[offC], 1);
    mm.IterateAll(cGm[offC], 1);
  } else if (args.mode == 5) {
    // Asynchronous: one Iterate<false> for the tile, then one GetTensorC<false> per block.
    const int32_t blocks = ((tailM + tiling.baseM - 1) / tiling.baseM) * ((tailN + tiling.baseN - 1) / tiling.baseN);
    mm.template Iterate<false>();
    for (int32_t i = 0; i < blocks; ++i) mm.template GetTensorC<false>(cGm[offC]);
  } else {
    // Blocks in the tiling's order, each brought to a VECIN tensor (mode 2) or written sequentially to
    // this block's part of the workspace (mode 4), then copied row by row to its place in C.
    TQue<TPosition::VECIN, 1> q;
    if (args.mode == 2) pipe.InitBuffer(q, 1, tiling.baseM * tiling.baseN * sizeof(CT));
    GlobalTensor<CT> ws;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(GetUserWorkspace(workspace)) +
                       GetBlockIdx() * tiling.baseM * tiling.baseN);
    const int32_t mIter = (tailM + tiling.baseM - 1) / tiling.baseM, nIter = (tailN + tiling.baseN - 1) / tiling.baseN;
    int32_t bmIdx = 0, bnIdx = 0;
    const bool async = args.mode == 6;  // Iterate<false> once, GetTensorC<false> per block (the queue is VECIN)
    if (async) {
      pipe.InitBuffer(q, 1, tiling.baseM * tiling.baseN * sizeof(CT));
      mm.template Iterate<false>();
    }
    for (int32_t i = 0; async ? i < mIter * nIter : mm.Iterate(); ++i) {
      const int32_t rows = tailM - bmIdx * tiling.baseM < tiling.baseM ? tailM - bmIdx * tiling.baseM : tiling.baseM;
      const int32_t cols = tailN - bnIdx * tiling.baseN < tiling.baseN ? tailN - bnIdx * tiling.baseN : tiling.baseN;
      const uint64_t at = offC + static_cast<uint64_t>(bmIdx) * tiling.baseM * tiling.N + bnIdx * tiling.baseN;
      if (args.mode == 2 || async) {
        LocalTensor<CT> t = q.AllocTensor<CT>();
        if (async) {
          mm.template GetTensorC<false>(t);
        } else {
          mm.GetTensorC(t);
        }
        for (int32_t r = 0; r < rows; ++r) {
          DataCopyPad(cGm[at + static_cast<uint64_t>(r) * tiling.N], t[r * tiling.baseN],
                      DataCopyExtParams(1, cols * sizeof(CT), 0, 0, 0));
        }
        q.FreeTensor(t);
      } else {
        mm.GetTensorC(ws, 0, true);
        for (int32_t r = 0; r < rows; ++r) {
          for (int32_t j = 0; j < cols; ++j)
            cGm.SetValue(at + static_cast<uint64_t>(r) * tiling.N + j, ws.GetValue(r * tiling.baseN + j));
        }
      }
      if (tiling.iterateOrder == 1) {
        if (++bnIdx == nIter) bnIdx = 0, ++bmIdx;
      } else {
        if (++bmIdx == mIter) bmIdx = 0, ++bnIdx;
      }
    }
  }
  mm.End();
}

// A from the unified buffer and C into it: the block's A rows (ND, not transposed) are copied to a VECIN
// buffer, IterateAll writes the whole tile to a VECCALC buffer (row stride singleCoreN), which is copied out.
__aicore__ inline void MatmulUbKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm,
                                      const CubeMatmulArgs& args) {
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  if (GetBlockIdx() >= tiling.usedCoreNum) return;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm, biasGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  TPipe pipe;
  Matmul<MatmulType<TPosition::VECIN, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::VECCALC, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int32_t mIdx = static_cast<int32_t>(GetBlockIdx()) % mBlocks;
  const int32_t nIdx = static_cast<int32_t>(GetBlockIdx()) / mBlocks;
  const int32_t mStart = mIdx * tiling.singleCoreM, nStart = nIdx * tiling.singleCoreN;
  const int32_t tailM = tiling.M - mStart < tiling.singleCoreM ? tiling.M - mStart : tiling.singleCoreM;
  const int32_t tailN = tiling.N - nStart < tiling.singleCoreN ? tiling.N - nStart : tiling.singleCoreN;
  TBuf<TPosition::VECIN> aBuf;
  TBuf<TPosition::VECCALC> cBuf;
  pipe.InitBuffer(aBuf, tiling.singleCoreM * tiling.Ka * sizeof(half));
  pipe.InitBuffer(cBuf, tiling.singleCoreM * tiling.singleCoreN * sizeof(float));
  LocalTensor<half> aLocal = aBuf.Get<half>();
  DataCopyPad(aLocal, aGm[static_cast<uint64_t>(mStart) * tiling.Ka],
              DataCopyExtParams(1, tailM * tiling.Ka * sizeof(half), 0, 0, 0));
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(aLocal);
  mm.SetTensorB(bGm[args.transB ? static_cast<uint64_t>(nStart) * tiling.Kb : static_cast<uint64_t>(nStart)],
                args.transB != 0);
  if (args.bias) mm.SetBias(biasGm[nStart]);
  LocalTensor<float> cLocal = cBuf.Get<float>();
  mm.IterateAll(cLocal);
  mm.End();
  for (int32_t r = 0; r < tailM; ++r) {
    DataCopyPad(cGm[static_cast<uint64_t>(mStart + r) * tiling.N + nStart], cLocal[r * tailN],
                DataCopyExtParams(1, tailN * sizeof(float), 0, 0, 0));
  }
}

}  // namespace

extern "C" __global__ __aicore__ void cube_matmul_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                      GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<half, float, float>(a, b, bias, c, workspace, tiling, args);
}

extern "C" __global__ __aicore__ void cube_matmul_f16_to_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                             GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<half, half, float>(a, b, bias, c, workspace, tiling, args);
}

extern "C" __global__ __aicore__ void cube_matmul_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                       GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<bfloat16_t, float, float>(a, b, bias, c, workspace, tiling, args);
}

extern "C" __global__ __aicore__ void cube_matmul_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                      GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<float, float, float>(a, b, bias, c, workspace, tiling, args);
}

extern "C" __global__ __aicore__ void cube_matmul_s8(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                     GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<int8_t, int32_t, int32_t>(a, b, bias, c, workspace, tiling, args);
}

extern "C" __global__ __aicore__ void cube_matmul_s4(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                     GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<int4b_t, int32_t, int32_t>(a, b, bias, c, workspace, tiling, args);
}

// Two Matmul objects with the same tiling on one core, used one after the other (CANN's a2b2-share sample):
// C[0] = A x B and C[1] = A x B + bias. With a tiling whose accumulators fill L0C the objects share them.
// mode 1 then interleaves the objects (mm1.Iterate, mm2.Iterate, mm1.GetTensorC), which the sim refuses.
extern "C" __global__ __aicore__ void cube_matmul_two_objects(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tilingGm,
                                                              CubeMatmulArgs args) {
  SetSysWorkspace(workspace);
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  if (GetBlockIdx() != 0) return;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm, biasGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  TPipe pipe;
  using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                    MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>;
  MM mm1, mm2;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &tiling, mm2, &tiling);
  mm1.SetTensorA(aGm);
  mm1.SetTensorB(bGm);
  mm1.IterateAll(cGm);
  mm1.End();
  mm2.SetTensorA(aGm);
  mm2.SetTensorB(bGm);
  mm2.SetBias(biasGm);
  mm2.IterateAll(cGm[static_cast<uint64_t>(tiling.M) * tiling.N]);
  mm2.End();
  if (args.mode == 1) {
    mm1.Iterate();
    mm2.Iterate();
    mm1.GetTensorC(cGm);
  }
}

// A as CubeFormat::VECTOR (GEMV, M == 1), B and C ND.
extern "C" __global__ __aicore__ void cube_matmul_f16_gemv(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                           GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<half, float, float, CubeFormat::ND, CubeFormat::ND, CubeFormat::VECTOR>(a, b, bias, c, workspace, tiling,
                                                                                       args);
}

extern "C" __global__ __aicore__ void cube_matmul_f16_nd_align(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                               GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<half, float, float, CubeFormat::ND, CubeFormat::ND_ALIGN>(a, b, bias, c, workspace, tiling, args);
}
extern "C" __global__ __aicore__ void cube_matmul_f16_nz(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<half, float, float, CubeFormat::NZ, CubeFormat::NZ>(a, b, bias, c, workspace, tiling, args);
}

extern "C" __global__ __aicore__ void cube_matmul_s8_deq(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<int8_t, half, int32_t>(a, b, bias, c, workspace, tiling, args);
}
extern "C" __global__ __aicore__ void cube_matmul_f16_bias16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                             GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  MatmulKernel<half, float, half>(a, b, bias, c, workspace, tiling, args);
}
extern "C" __global__ __aicore__ void cube_matmul_f16_ub(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling, CubeMatmulArgs args) {
  (void)workspace;
  MatmulUbKernel(a, b, bias, c, tiling, args);
}

namespace {
uint8_t* U8(void* p) { return static_cast<uint8_t*>(p); }
}  // namespace

int32_t CubeMatmulF16(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                      CubeMatmulArgs args) {
  return cube_matmul_f16<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulF16ToF16(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                           CubeMatmulArgs args) {
  return cube_matmul_f16_to_f16<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulBf16(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                       CubeMatmulArgs args) {
  return cube_matmul_bf16<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulF32(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                      CubeMatmulArgs args) {
  return cube_matmul_f32<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulS8(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                     CubeMatmulArgs args) {
  return cube_matmul_s8<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulF16Nz(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                        CubeMatmulArgs args) {
  return cube_matmul_f16_nz<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulF16Ub(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                        CubeMatmulArgs args) {
  return cube_matmul_f16_ub<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}

int32_t CubeMatmulS4(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                     CubeMatmulArgs args) {
  return cube_matmul_s4<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}
int32_t CubeMatmulS8Deq(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                        CubeMatmulArgs args) {
  return cube_matmul_s8_deq<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}
int32_t CubeMatmulF16Bias16(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                            CubeMatmulArgs args) {
  return cube_matmul_f16_bias16<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}
int32_t CubeMatmulF16NdAlign(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                             CubeMatmulArgs args) {
  return cube_matmul_f16_nd_align<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}
int32_t CubeMatmulTwoObjects(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                             CubeMatmulArgs args) {
  return cube_matmul_two_objects<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}
int32_t CubeMatmulF16Gemv(uint32_t blocks, void* s, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                          CubeMatmulArgs args) {
  return cube_matmul_f16_gemv<<<blocks, nullptr, s>>>(U8(a), U8(b), U8(bias), U8(c), U8(ws), U8(tiling), args);
}
