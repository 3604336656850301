// The mixed programming style: kernels and the host functions that launch them with <<<>>> in one source,
// built by ascendc_library(STATIC); the conformance tests call the host functions.
#include "kernel_operator.h"
#include "kernel_cts_chevron.h"

extern "C" __global__ __aicore__ void cts_chevron_fill(__gm__ uint32_t* out, uint32_t base) {
  out[AscendC::GetBlockIdx()] = base + static_cast<uint32_t>(AscendC::GetBlockIdx()) * 10u + 1u;
}

extern "C" __global__ __aicore__ void cts_chevron_scale(__gm__ float* data, float factor, uint32_t n) {
  for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < n; i += AscendC::GetBlockNum()) {
    data[i] = data[i] * factor;
  }
}

extern "C" __global__ __aicore__ void cts_chevron_tiled(__gm__ uint32_t* out, CtsChevronTiling tiling) {
  out[AscendC::GetBlockIdx()] = tiling.base + static_cast<uint32_t>(AscendC::GetBlockIdx()) * tiling.step;
}

extern "C" __global__ __aicore__ void cts_chevron_trap(__gm__ uint32_t* out) {
  out[0] = 1;
  trap();
}

int32_t CtsChevronFill(uint32_t blocks, void* stream, uint32_t* out, uint32_t base) {
  return static_cast<int32_t>(cts_chevron_fill<<<blocks, nullptr, stream>>>(out, base));
}

int32_t CtsChevronScale(uint32_t blocks, void* stream, float* data, float factor, uint32_t n) {
  return static_cast<int32_t>(cts_chevron_scale<<<blocks, nullptr, stream>>>(data, factor, n));
}

int32_t CtsChevronTiled(uint32_t blocks, void* stream, uint32_t* out, CtsChevronTiling tiling) {
  return static_cast<int32_t>(cts_chevron_tiled<<<blocks, nullptr, stream>>>(out, tiling));
}

int32_t CtsChevronTrap(void* stream, uint32_t* out) { return cts_chevron_trap<<<1, nullptr, stream>>>(out); }
