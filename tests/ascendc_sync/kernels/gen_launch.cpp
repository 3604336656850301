// Host functions of the generator tests: they launch kernels defined in gen_kernels.cpp and gen_kernels.h.
#include "gen_kernels.h"
#include "gen_launch.h"

template <int32_t cube, int32_t vec>
__mix__(cube, vec) __global__ void gen_mix(GM_ADDR out);
extern "C" __vector__ __global__ void gen_trap_vector(GM_ADDR out);
extern "C" __global__ __cube__ void gen_trap_cube(GM_ADDR out);
extern "C" __global__ __aicore__ void gen_trap_aic_only(GM_ADDR out);

int32_t GenScaleFloat(uint32_t blocks, void* stream, void* x, void* y, float factor, uint32_t n) {
  return static_cast<int32_t>(gen_scale<float><<<blocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)y, factor, n));
}
int32_t GenScaleInt(uint32_t blocks, void* stream, void* x, void* y, int32_t factor, uint32_t n) {
  return static_cast<int32_t>(gen_scale< int32_t ><<<blocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)y, factor, n));
}
int32_t GenPlain(uint32_t blocks, void* stream, void* out, uint32_t value) {
  return static_cast<int32_t>(gen_plain<<<blocks, nullptr, stream>>>((GM_ADDR)out, value));
}
int32_t GenInHeader(uint32_t blocks, void* stream, void* out, uint32_t value) {
  return static_cast<int32_t>(gen_in_header<<<blocks, nullptr, stream>>>((GM_ADDR)out, value));
}
int32_t GenMix12(uint32_t blocks, void* stream, void* out) {
  return static_cast<int32_t>(gen_mix<1, 2><<<blocks, nullptr, stream>>>((GM_ADDR)out));
}
int32_t GenMix10(uint32_t blocks, void* stream, void* out) {
  return static_cast<int32_t>(gen_mix<1, 0><<<blocks, nullptr, stream>>>((GM_ADDR)out));
}
int32_t GenTrap(int which, void* stream, void* out) {
  switch (which) {
    case 0: return static_cast<int32_t>(gen_trap_vector<<<2, nullptr, stream>>>((GM_ADDR)out));
    case 1: return static_cast<int32_t>(gen_trap_cube<<<2, nullptr, stream>>>((GM_ADDR)out));
    default: return static_cast<int32_t>(gen_trap_aic_only<<<2, nullptr, stream>>>((GM_ADDR)out));
  }
}
