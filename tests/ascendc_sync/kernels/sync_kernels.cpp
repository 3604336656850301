// SyncAll kernels: the generator sees SyncAll here and marks them co-operative (every block runs at once).
#include "kernel_operator.h"
#include "sync_kernels.h"

using namespace AscendC;

// Each round: every block sums its slice of x (plus the round) into partial[block]; after SyncAll every
// block reads all partials and writes the total to out[round * blocks + block]; a second SyncAll keeps the
// next round's partials from overwriting ones still being read.
extern "C" __global__ __aicore__ void sync_two_phase(GM_ADDR x, GM_ADDR partial, GM_ADDR out, uint32_t per_block,
                                                     uint32_t rounds) {
  GlobalTensor<int32_t> xg, pg, og;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x));
  pg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(partial));
  og.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  const uint32_t n = static_cast<uint32_t>(GetBlockNum());
  for (uint32_t r = 0; r < rounds; ++r) {
    int32_t sum = 0;
    for (uint32_t i = 0; i < per_block; ++i) sum += xg.GetValue(b * per_block + i);
    pg.SetValue(b, sum + static_cast<int32_t>(r));
    SyncAll();
    int32_t total = 0;
    for (uint32_t k = 0; k < n; ++k) total += pg.GetValue(k);
    og.SetValue(r * n + b, total);
    SyncAll<false>();
  }
}

// The soft form: only the first `used` blocks synchronise (the others write -1 and leave).
extern "C" __global__ __aicore__ void sync_soft(GM_ADDR x, GM_ADDR partial, GM_ADDR out, GM_ADDR ws, uint32_t used) {
  GlobalTensor<int32_t> xg, pg, og, wg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x));
  pg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(partial));
  og.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  wg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws));
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  if (b >= used) {
    og.SetValue(b, -1);
    return;
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, used * 32);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  pg.SetValue(b, xg.GetValue(b) * 3);
  SyncAll(wg, ub, static_cast<int32_t>(used));
  int32_t total = 0;
  for (uint32_t k = 0; k < used; ++k) total += pg.GetValue(k);
  og.SetValue(b, total);
}

// Block `bad` traps before the barrier: the others must not wait forever.
extern "C" __global__ __aicore__ void sync_trap_before(GM_ADDR out, uint32_t bad) {
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  if (b == bad) trap();
  SyncAll();
  reinterpret_cast<__gm__ int32_t*>(out)[b] = 1;
}

// Block `skip` returns without reaching the barrier (a kernel that would hang on an NPU).
extern "C" __global__ __aicore__ void sync_skip(GM_ADDR out, uint32_t skip) {
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  if (b == skip) return;
  SyncAll();
  reinterpret_cast<__gm__ int32_t*>(out)[b] = 1;
}

// Block `spin` never reaches the barrier (an endless loop): only the execution timeout ends the launch.
extern "C" __global__ __aicore__ void sync_spin(GM_ADDR out, uint32_t spin) {
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  volatile __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
  if (b == spin) {
    // An atomic load: under ThreadSanitizer only calls into its runtime deliver the timeout signal.
    while (__atomic_load_n(&o[b], __ATOMIC_ACQUIRE) == 0) {
    }
  }
  SyncAll();
  o[b] = 1;
}

// One SyncAll per block and a block count past the sim's limit of co-operative blocks.
extern "C" __global__ __aicore__ void sync_limited(GM_ADDR out) {
  SyncAll();
  reinterpret_cast<__gm__ int32_t*>(out)[GetBlockIdx()] = 1;
}

int32_t SyncTwoPhase(uint32_t blocks, void* stream, const int32_t* x, int32_t* partial, int32_t* out, uint32_t per_block,
                     uint32_t rounds) {
  return static_cast<int32_t>(sync_two_phase<<<blocks, nullptr, stream>>>(
      (GM_ADDR)x, (GM_ADDR)partial, (GM_ADDR)out, per_block, rounds));
}
int32_t SyncSoft(uint32_t blocks, void* stream, const int32_t* x, int32_t* partial, int32_t* out, int32_t* ws,
                 uint32_t used) {
  return static_cast<int32_t>(
      sync_soft<<<blocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)partial, (GM_ADDR)out, (GM_ADDR)ws, used));
}
int32_t SyncTrapBeforeBarrier(uint32_t blocks, void* stream, int32_t* out, uint32_t bad_block) {
  return static_cast<int32_t>(sync_trap_before<<<blocks, nullptr, stream>>>((GM_ADDR)out, bad_block));
}
int32_t SyncSkipBarrier(uint32_t blocks, void* stream, int32_t* out, uint32_t skip_block) {
  return static_cast<int32_t>(sync_skip<<<blocks, nullptr, stream>>>((GM_ADDR)out, skip_block));
}
int32_t SyncSpinBeforeBarrier(uint32_t blocks, void* stream, int32_t* out, uint32_t spin_block) {
  return static_cast<int32_t>(sync_spin<<<blocks, nullptr, stream>>>((GM_ADDR)out, spin_block));
}
int32_t SyncLimitedCount(uint32_t blocks, void* stream, int32_t* out) {
  return static_cast<int32_t>(sync_limited<<<blocks, nullptr, stream>>>((GM_ADDR)out));
}
