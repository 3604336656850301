// Kernels whose blocks work together (issue 18): SyncAll over more blocks than the sim has AI cores, and
// atomic accumulation into the same global memory.
#include "kernel_operator.h"

using namespace AscendC;

// out[b] = sum over every block's slice of x: each block publishes its partial sum, then reads them all.
extern "C" __global__ __aicore__ void cts_coop_sum(GM_ADDR x, GM_ADDR partial, GM_ADDR out, uint32_t per_block) {
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  const __gm__ int32_t* xs = reinterpret_cast<__gm__ int32_t*>(x) + b * per_block;
  volatile __gm__ int32_t* ps = reinterpret_cast<__gm__ int32_t*>(partial);
  int32_t sum = 0;
  for (uint32_t i = 0; i < per_block; ++i) sum += xs[i];
  ps[b] = sum;
  SyncAll();
  int32_t total = 0;
  for (uint32_t k = 0; k < GetBlockNum(); ++k) total += ps[k];
  reinterpret_cast<__gm__ int32_t*>(out)[b] = total;
}

// Block 0 waits for *stop (which nobody sets); the others wait for it in SyncAll.
extern "C" __global__ __aicore__ void cts_coop_spin(GM_ADDR stop) {
  __gm__ uint32_t* s = reinterpret_cast<__gm__ uint32_t*>(stop);
  if (GetBlockIdx() == 0) {
    // An atomic load, as cts_spin's: under ThreadSanitizer only calls into its runtime deliver the timeout signal.
    while (__atomic_load_n(s, __ATOMIC_ACQUIRE) == 0) {
    }
  }
  SyncAll();
}

// out[0..n) += x[b*n .. b*n+n) for every block b, with atomic copies.
extern "C" __global__ __aicore__ void cts_atomic_sum(GM_ADDR x, GM_ADDR out, uint32_t n) {
  GlobalTensor<int32_t> xg, og;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x) + static_cast<uint64_t>(GetBlockIdx()) * n);
  og.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (n * sizeof(int32_t) + 31) / 32 * 32);
  LocalTensor<int32_t> t = buf.Get<int32_t>();
  DataCopy(t, xg, n);
  SetAtomicAdd<int32_t>();
  DataCopy(og, t, n);
  SetAtomicNone();
}
