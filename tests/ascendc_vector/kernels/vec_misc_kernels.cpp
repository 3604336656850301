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
