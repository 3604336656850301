// Kernels of the race-detector tests (racecheck_test.cc): one whose input is declared const, so that the
// detector takes it as read only.
#include "kernel_operator.h"

// out[i] = in[i] * scale over n floats, blocks splitting the range.
extern "C" __global__ __aicore__ void cts_race_scale(const __gm__ float* in, __gm__ float* out, float scale,
                                                    uint32_t n) {
  const uint64_t blocks = AscendC::GetBlockNum();
  const uint64_t per = (n + blocks - 1) / blocks;
  const uint64_t begin = per * AscendC::GetBlockIdx();
  const uint64_t end = begin + per < n ? begin + per : n;
  for (uint64_t i = begin; i < end; ++i) out[i] = in[i] * scale;
}
