// Kernels that synchronise blocks through global memory (npurt_kernel/block_sync.h, gm_scalar.h): IBSet /
// IBWait, ordered execution, GroupBarrier and polling with ReadGmByPassDCache. The generator sees the calls
// and marks the kernels co-operative, so they run with more blocks than the sim has AI cores.
#include "block_sync_kernels.h"
#include "kernel_operator.h"

using namespace AscendC;

// A chain over the blocks from the last to the first, `rounds` times, with one IBSet/IBWait pair per
// neighbour reused every round (event r % 2): in round r block b waits for block b+1, writes
// out[r * n + b] = out[r * n + b + 1] + x[r * n + b] (the last block: x[r * n + n - 1]) and sets its own
// flag. Block 0 waits first for a block that starts last when blocks are claimed in order: only a
// co-operative launch completes it with fewer AI cores than blocks. `sync` holds the flags (zeroed).
extern "C" __global__ __aicore__ void ib_chain(GM_ADDR x, GM_ADDR out, GM_ADDR sync, uint32_t rounds) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  GlobalTensor<int32_t> xg, og, sg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x));
  og.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  sg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync));
  const int32_t b = static_cast<int32_t>(GetBlockIdx());
  const int32_t n = static_cast<int32_t>(GetBlockNum());
  for (uint32_t r = 0; r < rounds; ++r) {
    const int32_t event = static_cast<int32_t>(r % 2);
    const uint32_t base = r * static_cast<uint32_t>(n);
    int32_t v = xg.GetValue(base + b);
    if (b + 1 < n) {
      IBWait(sg, ub, b + 1, event);
      v += og.GetValue(base + b + 1);
    }
    og.SetValue(base + b, v);
    if (b > 0) IBSet(sg, ub, b, event);
  }
}

// Ordered execution over a workspace that was not zeroed: in each of `rounds` turns every block appends its
// index to `log` (at log[0] + 1, log[0] counting the entries), between WaitPreBlock and NotifyNextBlock.
extern "C" __global__ __aicore__ void ordered_log(GM_ADDR log, GM_ADDR ws, uint32_t rounds) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  const uint32_t n = static_cast<uint32_t>(GetBlockNum());
  pipe.InitBuffer(buf, n * 32 + 32);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  GlobalTensor<int32_t> lg, wg;
  lg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(log));
  wg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws), n * 8);
  InitDetermineComputeWorkspace(wg, ub);
  for (uint32_t r = 0; r < rounds; ++r) {
    WaitPreBlock(wg, ub);
    const int32_t count = lg.GetValue(0);
    lg.SetValue(1 + count, static_cast<int32_t>(GetBlockIdx()));
    lg.SetValue(0, count + 1);
    NotifyNextBlock(wg, ub);
  }
}

// GroupBarrier: blocks wait..wait+arrive-1 write x[r * arrive + i] * (r + 1) to vals[r * arrive + i]
// (i = block - wait) and arrive; blocks 0..wait-1 wait and write the sum of the round's values to
// out[r * wait + j]. The waiters have the low indices (they start first). `ws` is 512-byte aligned,
// wait * 512 bytes, zeroed.
extern "C" __global__ __aicore__ void group_barrier_sum(GM_ADDR x, GM_ADDR vals, GM_ADDR out, GM_ADDR ws,
                                                        uint32_t arrive, uint32_t wait, uint32_t rounds) {
  GroupBarrier<PipeMode::MTE3_MODE> bar(ws, arrive, wait);
  GlobalTensor<int32_t> xg, vg, og;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x));
  vg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(vals));
  og.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out));
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  for (uint32_t r = 0; r < rounds; ++r) {
    if (b < wait) {
      bar.Wait(b);
      int32_t sum = 0;
      for (uint32_t i = 0; i < arrive; ++i) sum += vg.GetValue(r * arrive + i);
      og.SetValue(r * wait + b, sum);
    } else if (b < wait + arrive) {
      const uint32_t i = b - wait;
      vg.SetValue(r * arrive + i, xg.GetValue(r * arrive + i) * static_cast<int32_t>(r + 1));
      bar.Arrive(i);
    }
  }
}

// The last block writes data[0..n) and then flag = 1 (WriteGmByPassDCache); every other block polls the
// flag (ReadGmByPassDCache) and copies data into out[b * n ..).
extern "C" __global__ __aicore__ void bypass_poll(GM_ADDR data, GM_ADDR flag, GM_ADDR out, uint32_t n, int32_t seed) {
  __gm__ int32_t* d = reinterpret_cast<__gm__ int32_t*>(data);
  __gm__ int32_t* f = reinterpret_cast<__gm__ int32_t*>(flag);
  __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
  const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
  if (b + 1 == static_cast<uint32_t>(GetBlockNum())) {
    for (uint32_t i = 0; i < n; ++i) d[i] = seed * static_cast<int32_t>(i) + 7;
    DataSyncBarrier<MemDsbT::DDR>();
    WriteGmByPassDCache<int32_t>(f, 1);
    return;
  }
  while (ReadGmByPassDCache<int32_t>(f) != 1) Nop<8>();
  for (uint32_t i = 0; i < n; ++i) o[b * n + i] = d[i];
}

// Block 1 waits for an IBSet nobody makes (a kernel that would hang on an NPU).
extern "C" __global__ __aicore__ void ib_wait_forever(GM_ADDR sync) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  GlobalTensor<int32_t> sg;
  sg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync));
  if (GetBlockIdx() == 1) IBWait(sg, buf.Get<int32_t>(), 0, 0);
}

int32_t IbChain(uint32_t blocks, void* stream, const int32_t* x, int32_t* out, int32_t* sync, uint32_t rounds) {
  return static_cast<int32_t>(ib_chain<<<blocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)out, (GM_ADDR)sync, rounds));
}
int32_t OrderedLog(uint32_t blocks, void* stream, int32_t* log, int32_t* ws, uint32_t rounds) {
  return static_cast<int32_t>(ordered_log<<<blocks, nullptr, stream>>>((GM_ADDR)log, (GM_ADDR)ws, rounds));
}
int32_t GroupBarrierSum(uint32_t blocks, void* stream, const int32_t* x, int32_t* vals, int32_t* out, void* ws,
                        uint32_t arrive, uint32_t wait, uint32_t rounds) {
  return static_cast<int32_t>(group_barrier_sum<<<blocks, nullptr, stream>>>(
      (GM_ADDR)x, (GM_ADDR)vals, (GM_ADDR)out, (GM_ADDR)ws, arrive, wait, rounds));
}
int32_t BypassPoll(uint32_t blocks, void* stream, int32_t* data, int32_t* flag, int32_t* out, uint32_t n,
                   int32_t seed) {
  return static_cast<int32_t>(
      bypass_poll<<<blocks, nullptr, stream>>>((GM_ADDR)data, (GM_ADDR)flag, (GM_ADDR)out, n, seed));
}
int32_t IbWaitForever(uint32_t blocks, void* stream, int32_t* sync) {
  return static_cast<int32_t>(ib_wait_forever<<<blocks, nullptr, stream>>>((GM_ADDR)sync));
}
