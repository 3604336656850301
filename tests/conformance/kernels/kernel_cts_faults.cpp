// Faulting kernels of the conformance suite: each one fails its task in a different way.
#include "kernel_operator.h"

// Writes through a wild pointer: block `bad_block` writes to address `bad` (the others to out).
extern "C" __global__ __aicore__ void cts_fault_wild_write(__gm__ uint32_t* out, __gm__ uint32_t* bad,
                                                           uint32_t bad_block) {
  __gm__ uint32_t* p = AscendC::GetBlockIdx() == bad_block ? bad : out + AscendC::GetBlockIdx();
  *p = 7;
}

// The fault is the point: UBSan (sanitizer builds) must let the CPU trap.
__attribute__((noinline, no_sanitize("integer-divide-by-zero"))) static int32_t DivideUnchecked(int32_t a, int32_t b) {
  return a / b;
}

// Integer division by *divisor (0 in the tests).
extern "C" __global__ __aicore__ void cts_fault_divide(__gm__ int32_t* data, __gm__ int32_t* divisor) {
  volatile int32_t d = *divisor;
  data[0] = DivideUnchecked(data[1], d);
}

// The trap of the CANN samples' error_OP (the generator maps asm("trap") to the sim's trap).
extern "C" __global__ __aicore__ void cts_fault_trap() { asm("trap"); }

// Asks TPipe for more unified buffer than a core has.
extern "C" __global__ __aicore__ void cts_fault_ub_overflow(uint32_t bytes) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, bytes);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::Duplicate(t, 1.0f, static_cast<int32_t>(bytes / sizeof(float)));
}

// Copies `count` floats of x into the unified buffer: past the end of x when count is too large.
extern "C" __global__ __aicore__ void cts_fault_copy_past(GM_ADDR x, GM_ADDR y, uint32_t count) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, count * sizeof(float));
  AscendC::GlobalTensor<float> gx;
  AscendC::GlobalTensor<float> gy;
  gx.SetGlobalBuffer((__gm__ float*)x, count);
  gy.SetGlobalBuffer((__gm__ float*)y, count);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::DataCopy(t, gx, count);
  AscendC::DataCopy(gy, t, count);
}

// Dequeues from an empty queue (hangs a real core; fails on the sim).
extern "C" __global__ __aicore__ void cts_fault_empty_dequeue() {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 1024);
  AscendC::LocalTensor<float> t = que.DeQue<float>();
  (void)t;
}
