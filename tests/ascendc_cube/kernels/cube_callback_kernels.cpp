// Kernel of the Matmul callback test: CopyA1 reads A's tiles with a row stride the tiling does not know
// (SetUserDefInfo), CopyB1 reads B from an address in a list (SetSelfDefineData) while SetTensorB points at
// nothing useful, as asc-devkit's matmul_callback sample redirects A's copy.
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
#include "cube_kernel_tiling.h"
#include "cube_callback_kernels.h"

using namespace AscendC;

namespace {

// A tile (row, col) of useM x useK: from gm at row * baseM rows, col * baseK elements, rows tilingPtr apart.
__aicore__ inline void CopyATile(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int useM,
                                 int useK, const uint64_t tilingPtr, const uint64_t dataPtr) {
  (void)dataPtr;
  const auto* t = reinterpret_cast<const TCubeTiling*>(static_cast<uintptr_t>(tilingPtr & 0xffffffffffffu));
  const uint32_t lda = static_cast<uint32_t>(tilingPtr >> 48);
  GlobalTensor<half> src;
  src.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<void*>(gm)));
  Nd2NzParams p;
  p.ndNum = 1;
  p.nValue = static_cast<uint16_t>(useM);
  p.dValue = static_cast<uint16_t>(useK);
  p.srcNdMatrixStride = 0;
  p.srcDValue = static_cast<uint16_t>(lda);
  p.dstNzC0Stride = static_cast<uint16_t>((useM + 15) / 16 * 16);
  p.dstNzNStride = 1;
  p.dstNzMatrixStride = 0;
  DataCopy(l1.ReinterpretCast<half>(), src[static_cast<uint64_t>(row) * t->baseM * lda + col * t->baseK], p);
}

// B tile (row along K, col along N) of useK x useN: from the address at dataPtr, rows N apart.
__aicore__ inline void CopyBTile(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int useK,
                                 int useN, const uint64_t tilingPtr, const uint64_t dataPtr) {
  (void)gm;
  const auto* t = reinterpret_cast<const TCubeTiling*>(static_cast<uintptr_t>(tilingPtr & 0xffffffffffffu));
  GlobalTensor<uint64_t> list;
  list.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(dataPtr), 1);
  GlobalTensor<half> src;
  src.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(list.GetValue(0)));
  Nd2NzParams p;
  p.ndNum = 1;
  p.nValue = static_cast<uint16_t>(useK);
  p.dValue = static_cast<uint16_t>(useN);
  p.srcNdMatrixStride = 0;
  p.srcDValue = static_cast<uint16_t>(t->N);
  p.dstNzC0Stride = static_cast<uint16_t>((useK + 15) / 16 * 16);
  p.dstNzNStride = 1;
  p.dstNzMatrixStride = 0;
  DataCopy(l1.ReinterpretCast<half>(), src[static_cast<uint64_t>(row) * t->baseK * t->N + col * t->baseN], p);
}

}  // namespace

extern "C" __global__ __cube__ void cube_mm_callback(GM_ADDR a, uint32_t lda, GM_ADDR list, GM_ADDR bias, GM_ADDR c,
                                                     GM_ADDR tilingGm) {
  TCubeTiling t = LoadCubeTiling(tilingGm);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_NORM,
         MatmulCallBackFunc<nullptr, CopyATile, CopyBTile>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> biasGm, cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(c));  // not B: CopyB1 finds B through the list
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.SetUserDefInfo(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&t)) | (static_cast<uint64_t>(lda) << 48));
  mm.SetSelfDefineData(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(list)));
  mm.SetTensorA(aGm);
  mm.SetTensorB(bGm);
  mm.SetBias(biasGm);
  mm.IterateAll(cGm);
  mm.End();
}

int32_t CubeMmCallback(void* stream, void* a, uint32_t lda, void* list, void* bias, void* c, void* tiling) {
  return cube_mm_callback<<<1, nullptr, stream>>>(static_cast<uint8_t*>(a), lda, static_cast<uint8_t*>(list),
                                                  static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c),
                                                  static_cast<uint8_t*>(tiling));
}
