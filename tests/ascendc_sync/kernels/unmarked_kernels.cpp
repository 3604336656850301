// A kernel whose barrier the generator cannot see (unmarked_helper.h is an angle-bracket include).
#include "kernel_operator.h"
#include "sync_kernels.h"
#include <unmarked_helper.h>

extern "C" __global__ __aicore__ void sync_unmarked(GM_ADDR out) {
  UnmarkedBarrier();
  reinterpret_cast<__gm__ int32_t*>(out)[AscendC::GetBlockIdx()] = 1;
}

int32_t SyncUnmarked(uint32_t blocks, void* stream, int32_t* out) {
  return static_cast<int32_t>(sync_unmarked<<<blocks, nullptr, stream>>>((GM_ADDR)out));
}
