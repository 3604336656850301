// Kernels of bench/kernel: an empty kernel (launch costs), a compute-bound kernel (AI-core scaling), the
// add_custom-style tiled half add (TPipe/TQue, double buffered) and a plain scalar-loop float add.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void bench_empty() {}

// Independent multiply-add chains in registers: no memory traffic, a fixed amount of work per block.
extern "C" __global__ __aicore__ void bench_compute(__gm__ float* out, uint32_t iterations) {
  float a = 1.0f + 1e-7f * static_cast<float>(AscendC::GetBlockIdx());
  float b = 0.5f, c = 0.25f, d = 0.125f;
  for (uint32_t i = 0; i < iterations; ++i) {
    a = a * 0.999999f + 1e-7f;
    b = b * 0.999998f + 2e-7f;
    c = c * 0.999997f + 3e-7f;
    d = d * 0.999996f + 4e-7f;
  }
  out[AscendC::GetBlockIdx()] = a + b + c + d;
}

namespace {
constexpr int32_t kBufferNum = 2;
constexpr uint32_t kTileLength = 8192;  // halves per tile: 3 queues x 2 buffers x 16 KiB of the 192 KiB UB
}  // namespace

// z = x + y over `total` halves; each block takes a contiguous slice and streams it through the unified buffer
// in tiles, exactly like the CANN add_custom sample.
extern "C" __global__ __aicore__ void bench_ascendc_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
  const uint64_t per_block = total / AscendC::GetBlockNum();
  const uint64_t start = per_block * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<half> xg, yg, zg;
  xg.SetGlobalBuffer((__gm__ half*)x + start, per_block);
  yg.SetGlobalBuffer((__gm__ half*)y + start, per_block);
  zg.SetGlobalBuffer((__gm__ half*)z + start, per_block);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> qx, qy;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> qz;
  pipe.InitBuffer(qx, kBufferNum, kTileLength * sizeof(half));
  pipe.InitBuffer(qy, kBufferNum, kTileLength * sizeof(half));
  pipe.InitBuffer(qz, kBufferNum, kTileLength * sizeof(half));
  for (uint64_t off = 0; off < per_block; off += kTileLength) {
    AscendC::LocalTensor<half> lx = qx.AllocTensor<half>();
    AscendC::LocalTensor<half> ly = qy.AllocTensor<half>();
    AscendC::DataCopy(lx, xg[off], kTileLength);
    AscendC::DataCopy(ly, yg[off], kTileLength);
    qx.EnQue(lx);
    qy.EnQue(ly);
    AscendC::LocalTensor<half> ix = qx.DeQue<half>();
    AscendC::LocalTensor<half> iy = qy.DeQue<half>();
    AscendC::LocalTensor<half> lz = qz.AllocTensor<half>();
    AscendC::Add(lz, ix, iy, kTileLength);
    qz.EnQue<half>(lz);
    qx.FreeTensor(ix);
    qy.FreeTensor(iy);
    AscendC::LocalTensor<half> oz = qz.DeQue<half>();
    AscendC::DataCopy(zg[off], oz, kTileLength);
    qz.FreeTensor(oz);
  }
}

// z = x + y over n floats, a plain loop over each block's slice.
extern "C" __global__ __aicore__ void bench_vector_add(__gm__ const float* x, __gm__ const float* y, __gm__ float* z,
                                                       uint64_t n) {
  const uint64_t per = (n + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();
  const uint64_t begin = per * AscendC::GetBlockIdx();
  const uint64_t end = begin + per < n ? begin + per : n;
  for (uint64_t i = begin; i < end; ++i) z[i] = x[i] + y[i];
}
