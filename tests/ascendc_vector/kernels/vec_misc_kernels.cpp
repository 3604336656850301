// Test kernel of the global pipe / event names and of ASSERT / assert in kernels. No `using namespace
// AscendC`: PIPE_V, EVENT_ID0 ... must be global names, as CANN's compiler makes them.
#include "kernel_operator.h"

// data[0] = v: asserts v < limit (ASSERT), v != 12345 (assert) and v != 777 (ascendc_assert with a
// message), then stores v + 1.
extern "C" __global__ __aicore__ void vec_assert(GM_ADDR data, uint32_t limit) {
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::PipeBarrier<AscendC::PIPE_ALL>();
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  const event_t id = static_cast<event_t>(EVENT_ID7);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(id);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(id);
  const pipe_t pipes[] = {PIPE_S, PIPE_MTE2, PIPE_MTE3, PIPE_ALL};
  (void)pipes;
  __gm__ uint32_t* p = reinterpret_cast<__gm__ uint32_t*>(data);
  const uint32_t v = p[0];
  ASSERT(v < limit);
  assert(v != 12345);
  ascendc_assert((v != 777), "v is %u, limit %u\n", v, limit);
  p[0] = v + 1;
}

// gm[0 .. n) = value with InitGlobalMemory (use_fill 0) or Fill (1).
extern "C" __global__ __aicore__ void vec_fill_gm(GM_ADDR gm, uint32_t n, float value, uint32_t use_fill) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm), n);
  if (use_fill != 0) {
    AscendC::Fill(g, n, value);
  } else {
    AscendC::InitGlobalMemory(g, n, value);
  }
}

// Brcb of n_src floats from src into dst (n_dst floats, holding dst's initial contents).
extern "C" __global__ __aicore__ void vec_brcb(GM_ADDR src, GM_ADDR dst, uint32_t n_src, uint32_t n_dst, uint32_t repeat,
                                               uint32_t blk_stride, uint32_t rep_stride) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, (n_src * 4 + 31) / 32 * 32);
  pipe.InitBuffer(bd, (n_dst * 4 + 31) / 32 * 32);
  AscendC::GlobalTensor<float> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), n_src);
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), n_dst);
  AscendC::LocalTensor<float> ls = bs.Get<float>(), ld = bd.Get<float>();
  AscendC::DataCopy(ls, gs, n_src);
  AscendC::DataCopy(ld, gd, n_dst);
  AscendC::Brcb(ld, ls, static_cast<uint8_t>(repeat),
                AscendC::BrcbRepeatParams(static_cast<uint16_t>(blk_stride), static_cast<uint16_t>(rep_stride)));
  AscendC::DataCopy(gd, ld, n_dst);
}
