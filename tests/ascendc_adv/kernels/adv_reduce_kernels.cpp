// Test kernels of the pattern reductions (npurt_kernel/adv_reduce.h): the source staged in the unified buffer
// (rows padded to 32 bytes when pad != 0), one ReduceXxx call, the results written back. op: 0 Max, 1 Min,
// 2 Sum, 3 Mean, 4 Prod, 5 Any, 6 All; ra: the RA pattern (else AR).
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

template <typename T, typename P>
__aicore__ inline void ReduceCall(uint32_t op, const LocalTensor<T>& d, const LocalTensor<T>& s,
                                  const LocalTensor<uint8_t>& tmp, const uint32_t shape[2], bool pad, bool with_tmp) {
#define NPURT_CALL(Name)                                                   \
  if (with_tmp) {                                                          \
    AscendC::Name<T, P, false>(d, s, tmp, shape, pad);                     \
  } else {                                                                 \
    AscendC::Name<T, P>(d, s, shape, pad);                                 \
  }
  switch (op) {
    case 0: NPURT_CALL(ReduceMax) break;
    case 1: NPURT_CALL(ReduceMin) break;
    case 2: NPURT_CALL(ReduceSum) break;
    case 3: NPURT_CALL(ReduceMean) break;
    case 4: NPURT_CALL(ReduceProd) break;
    case 5: NPURT_CALL(ReduceAny) break;
    default: NPURT_CALL(ReduceAll) break;
  }
#undef NPURT_CALL
}

template <typename T>
__aicore__ inline void ReduceCase(GM_ADDR x, GM_ADDR y, uint32_t op, uint32_t ra, uint32_t first, uint32_t last,
                                  uint32_t n, uint32_t outs, uint32_t pad, uint32_t with_tmp) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bt;
  AscendC::GlobalTensor<T> gx, gy;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, n), ly = AdvStage(pipe, by, gy, y, outs);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  const uint32_t shape[2] = {first, last};
  if (ra != 0) {
    ReduceCall<T, AscendC::Pattern::Reduce::RA>(op, ly, lx, tmp, shape, pad != 0, with_tmp != 0);
  } else {
    ReduceCall<T, AscendC::Pattern::Reduce::AR>(op, ly, lx, tmp, shape, pad != 0, with_tmp != 0);
  }
  AdvWriteBack(ly, gy, outs);
}

}  // namespace

// x holds n elements (the padded source), y outs elements (initial contents past the results kept).
extern "C" __global__ __aicore__ void adv_reduce(GM_ADDR x, GM_ADDR y, uint32_t op, uint32_t ra, uint32_t first,
                                                 uint32_t last, uint32_t n, uint32_t outs, uint32_t pad,
                                                 uint32_t is_half, uint32_t with_tmp) {
  if (is_half != 0) {
    ReduceCase<half>(x, y, op, ra, first, last, n, outs, pad, with_tmp);
  } else {
    ReduceCase<float>(x, y, op, ra, first, last, n, outs, pad, with_tmp);
  }
}
