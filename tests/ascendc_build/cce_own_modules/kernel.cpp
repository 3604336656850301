// out[i] = in[i] * factor + offset on integers, the blocks striding; scale_do launches it.
#include "kernel_operator.h"

// The driver defines __NPU_ARCH__ as CANN's compiler does for dav-c220 (--cce-aicore-arch=dav-c220-vec): kernels
// choose their code by it, and without it every such branch would silently vanish.
#if !defined(__NPU_ARCH__) || __NPU_ARCH__ != 2201
#error "__NPU_ARCH__ must be 2201 for dav-c220"
#endif

extern "C" __global__ __aicore__ void scale_offset(GM_ADDR in, GM_ADDR out, int32_t factor, int32_t offset,
                                                   uint32_t n) {
  const auto* x = reinterpret_cast<__gm__ const int32_t*>(in);
  auto* y = reinterpret_cast<__gm__ int32_t*>(out);
  for (uint32_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum()) y[i] = x[i] * factor + offset;
}

uint32_t scale_do(uint32_t blocks, void* stream, uint8_t* in, uint8_t* out, int32_t factor, int32_t offset,
                  uint32_t n) {
  return scale_offset<<<blocks, nullptr, stream>>>(in, out, factor, offset, n);
}
