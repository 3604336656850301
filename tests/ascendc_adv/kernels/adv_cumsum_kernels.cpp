// Test kernels of CumSum (npurt_kernel/adv_cumsum.h): source, dst and lastRow (with initial contents) staged
// in the unified buffer, one call with the config asked for, both outputs written back.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

constexpr AscendC::CumSumConfig kFirstAxis = {false, false, true};
constexpr AscendC::CumSumConfig kLastAxisNoRow = {true, false, false};

template <typename T>
__aicore__ inline void CumSumCase(GM_ADDR x, GM_ADDR y, GM_ADDR last, uint32_t outter, uint32_t inner,
                                  uint32_t last_n, uint32_t mode) {
  const uint32_t n = outter * inner;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bl, bt;
  AscendC::GlobalTensor<T> gx, gy, gl;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, n), ly = AdvStage(pipe, by, gy, y, n);
  LocalTensor<T> ll = AdvStage(pipe, bl, gl, last, last_n);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  const AscendC::CumSumInfo info{outter, inner};
  if (mode == 0) {
    AscendC::CumSum<T, kFirstAxis>(ly, ll, lx, tmp, info);
  } else if (mode == 1) {
    AscendC::CumSum<T>(ly, ll, lx, info);  // the default: last axis, with the last row
  } else {
    AscendC::CumSum<T, kLastAxisNoRow>(ly, ll, lx, tmp, info);
  }
  AdvWriteBack(ly, gy, n);
  AdvWriteBack(ll, gl, last_n);
}

}  // namespace

// mode 0: first axis with lastRow; 1: the default config (last axis, lastRow); 2: last axis without lastRow.
extern "C" __global__ __aicore__ void adv_cumsum(GM_ADDR x, GM_ADDR y, GM_ADDR last, uint32_t outter, uint32_t inner,
                                                 uint32_t last_n, uint32_t mode, uint32_t is_half) {
  if (is_half != 0) {
    CumSumCase<half>(x, y, last, outter, inner, last_n, mode);
  } else {
    CumSumCase<float>(x, y, last, outter, inner, last_n, mode);
  }
}
