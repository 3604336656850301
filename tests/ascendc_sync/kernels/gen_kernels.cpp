// The generator's language coverage: template kernels (instantiated by launches and explicitly), kernel
// qualifiers in any order and of every kind (__vector__, __cube__, __mix__(c, v), KERNEL_TASK_TYPE_DEFAULT),
// and a kernel defined in a header.
#include "gen_kernels.h"
#include "gen_kernel_defs.h"

// y[i] = x[i] * factor for every element the block owns (a grid-stride loop).
template <typename T>
__global__ __aicore__ void gen_scale(GM_ADDR x, GM_ADDR y, T factor, uint32_t n) {
  const __gm__ T* xs = reinterpret_cast<__gm__ T*>(x);
  __gm__ T* ys = reinterpret_cast<__gm__ T*>(y);
  for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < n; i += AscendC::GetBlockNum()) {
    ys[i] = static_cast<T>(xs[i] * factor);
  }
}
// For aclrtBinaryGetFunction("gen_scale<half>"): no launch in the library names it.
template __global__ __aicore__ void gen_scale<half>(GM_ADDR x, GM_ADDR y, half factor, uint32_t n);

__aicore__ __global__ void gen_plain(GM_ADDR out, uint32_t value) {
  reinterpret_cast<__gm__ uint32_t*>(out)[AscendC::GetBlockIdx()] = value;
}

// Non-type template parameters in the qualifier (CANN 9's hello_world sample).
template <int32_t cube, int32_t vec>
__mix__(cube, vec) __global__ void gen_mix(GM_ADDR out) {
  reinterpret_cast<__gm__ int32_t*>(out)[AscendC::GetBlockIdx()] = cube * 100 + vec;
}

// Faults report the code of the kernel's cores: vector (507035) or AI core (507015).
extern "C" __vector__ __global__ void gen_trap_vector(GM_ADDR out) { trap(); }
extern "C" __global__ __cube__ void gen_trap_cube(GM_ADDR out) { trap(); }
extern "C" __global__ __aicore__ void gen_trap_aic_only(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  trap();
}
