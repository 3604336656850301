// Test kernel of SoftMax with a shape info of fewer rows than its tiling (the library re-tiles) followed by
// AdjustSoftMaxRes (npurt_kernel/adv_softmax.h).
#include "kernel_operator.h"

// x: rows x cols floats (rows <= the tiling's); y, max (rows x 8): the results; adjusted[0]: what
// AdjustSoftMaxRes returned. tiling: the host's SoftMaxTiling for tiling_rows x cols.
extern "C" __global__ __aicore__ void adv_softmax_adjust(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR adjusted,
                                                         GM_ADDR tiling, uint32_t rows, uint32_t cols, uint32_t from,
                                                         float to) {
  SoftMaxTiling t;
  std::memcpy(&t, reinterpret_cast<const void*>(tiling), sizeof t);
  const uint32_t n = rows * cols;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bmax, bsum, btmp;
  pipe.InitBuffer(bx, n * 4);
  pipe.InitBuffer(bmax, rows * 32);
  pipe.InitBuffer(bsum, rows * 32);
  pipe.InitBuffer(btmp, 4 * cols + 64);
  AscendC::LocalTensor<float> lx = bx.Get<float>(), lmax = bmax.Get<float>(), lsum = bsum.Get<float>();
  AscendC::GlobalTensor<float> gx, gy, gmax;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
  gmax.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(max), rows * 8);
  AscendC::DataCopy(lx, gx, n);
  const AscendC::SoftMaxShapeInfo shape = {rows, cols, rows, cols};
  AscendC::SoftMax<float, false>(lx, lsum, lmax, lx, btmp.Get<uint8_t>(), t, shape);
  const bool done = AscendC::AdjustSoftMaxRes<float, float>(lx, lmax, from, to, shape);
  AscendC::DataCopy(gy, lx, n);
  AscendC::DataCopy(gmax, lmax, rows * 8);
  *reinterpret_cast<__gm__ uint32_t*>(adjusted) = done ? 1 : 0;
}

// LogSoftMax of rows x cols (half when is_half): shape from the shape info (use_shape) or from the tiling
// (the host's LogSoftMaxTilingFunc); in_place: dst is src. max and sum: rows x (32 bytes of T).
template <typename T>
__aicore__ inline void LogSoftMaxCase(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum, GM_ADDR tiling, uint32_t rows,
                                      uint32_t cols, uint32_t use_shape, uint32_t in_place) {
  LogSoftMaxTiling t;
  std::memcpy(&t, reinterpret_cast<const void*>(tiling), sizeof t);
  const uint32_t n = rows * cols, block = 32 / sizeof(T);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bmax, bsum, btmp;
  pipe.InitBuffer(bx, n * sizeof(T));
  pipe.InitBuffer(by, n * sizeof(T));
  pipe.InitBuffer(bmax, rows * 32);
  pipe.InitBuffer(bsum, rows * 32);
  pipe.InitBuffer(btmp, 4 * cols + 64);
  AscendC::LocalTensor<T> lx = bx.Get<T>(), ly = in_place ? lx : by.Get<T>();
  AscendC::LocalTensor<T> lmax = bmax.Get<T>(), lsum = bsum.Get<T>();
  AscendC::GlobalTensor<T> gx, gy, gmax, gsum;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), n);
  gmax.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(max), rows * block);
  gsum.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(sum), rows * block);
  AscendC::DataCopy(lx, gx, n);
  AscendC::SoftMaxShapeInfo shape = {};
  if (use_shape != 0) shape = {rows, cols, rows, cols};
  AscendC::LogSoftMax<T>(ly, lsum, lmax, lx, btmp.Get<uint8_t>(), t, shape);
  AscendC::DataCopy(gy, ly, n);
  AscendC::DataCopy(gmax, lmax, rows * block);
  AscendC::DataCopy(gsum, lsum, rows * block);
}

extern "C" __global__ __aicore__ void adv_logsoftmax(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum, GM_ADDR tiling,
                                                     uint32_t rows, uint32_t cols, uint32_t use_shape,
                                                     uint32_t is_half, uint32_t in_place) {
  if (is_half != 0) {
    LogSoftMaxCase<half>(x, y, max, sum, tiling, rows, cols, use_shape, in_place);
  } else {
    LogSoftMaxCase<float>(x, y, max, sum, tiling, rows, cols, use_shape, in_place);
  }
}

// SoftmaxFlashV2 over two column blocks of a rows x (k1 + k2) float source (given as two row-major blocks
// x1: rows x k1, x2: rows x k2): the first without update, the second with it, max and sum passed in and
// out in the same tensors. y2: the second step's dst; max, sum, expmax: rows x 8.
extern "C" __global__ __aicore__ void adv_flashv2(GM_ADDR x1, GM_ADDR x2, GM_ADDR y2, GM_ADDR max, GM_ADDR sum,
                                                  GM_ADDR expmax, GM_ADDR tiling, uint32_t rows, uint32_t k1,
                                                  uint32_t k2) {
  SoftMaxTiling t;
  std::memcpy(&t, reinterpret_cast<const void*>(tiling), sizeof t);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b1, b2, bmax, bsum, bexp, btmp;
  pipe.InitBuffer(b1, rows * k1 * 4);
  pipe.InitBuffer(b2, rows * k2 * 4);
  pipe.InitBuffer(bmax, rows * 32);
  pipe.InitBuffer(bsum, rows * 32);
  pipe.InitBuffer(bexp, rows * 32);
  pipe.InitBuffer(btmp, 1024);
  AscendC::LocalTensor<float> l1 = b1.Get<float>(), l2 = b2.Get<float>(), lmax = bmax.Get<float>(),
                              lsum = bsum.Get<float>(), lexp = bexp.Get<float>();
  AscendC::GlobalTensor<float> g1, g2, gy, gmax, gsum, gexp;
  g1.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x1), rows * k1);
  g2.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x2), rows * k2);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y2), rows * k2);
  gmax.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(max), rows * 8);
  gsum.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(sum), rows * 8);
  gexp.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(expmax), rows * 8);
  AscendC::DataCopy(l1, g1, rows * k1);
  AscendC::DataCopy(l2, g2, rows * k2);
  AscendC::LocalTensor<uint8_t> tmp = btmp.Get<uint8_t>();
  AscendC::SoftmaxFlashV2<float, false>(l1, lsum, lmax, l1, lexp, lsum, lmax, tmp, t, {rows, k1, rows, k1});
  AscendC::SoftmaxFlashV2<float, true, true, false>(l2, lsum, lmax, l2, lexp, lsum, lmax, tmp, t, {rows, k2, rows, k2});
  AscendC::DataCopy(gy, l2, rows * k2);
  AscendC::DataCopy(gmax, lmax, rows * 8);
  AscendC::DataCopy(gsum, lsum, rows * 8);
  AscendC::DataCopy(gexp, lexp, rows * 8);
}
