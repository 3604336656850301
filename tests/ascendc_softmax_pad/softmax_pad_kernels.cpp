// Kernels of the SoftMax / Pad / UnPad tests: each copies its input into the unified buffer, calls the
// library API with the tiling the host computed, and copies the results out (one block). The host
// functions at the end launch them with <<<>>>.
#include "kernel_operator.h"
#include "softmax_pad_kernels.h"

namespace {

template <typename T>
__aicore__ inline void CopyIn(const AscendC::LocalTensor<T>& dst, GM_ADDR src, uint32_t n) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src), n);
  AscendC::DataCopyPad(dst, g, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                       AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
}

template <typename T>
__aicore__ inline void CopyOut(GM_ADDR dst, const AscendC::LocalTensor<T>& src, uint32_t n) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), n);
  AscendC::DataCopyPad(g, src, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
}

// T: the data; R: max and sum. tmp_bytes 0: the API without a temporary buffer.
template <typename T, typename R>
__aicore__ inline void RunSoftMax(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum, const SoftMaxTiling& tiling,
                                  uint32_t tmp_bytes, uint32_t in_place) {
  const uint32_t n = tiling.srcM * tiling.srcK, reduced = tiling.srcM * (32 / sizeof(R));
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bmax, bsum, btmp;
  pipe.InitBuffer(bx, n * sizeof(T));
  pipe.InitBuffer(by, n * sizeof(T));
  pipe.InitBuffer(bmax, reduced * sizeof(R));
  pipe.InitBuffer(bsum, reduced * sizeof(R));
  pipe.InitBuffer(btmp, tmp_bytes > 0 ? tmp_bytes : 32);
  AscendC::LocalTensor<T> lx = bx.Get<T>(), ly = in_place ? lx : by.Get<T>();
  AscendC::LocalTensor<R> lmax = bmax.Get<R>(), lsum = bsum.Get<R>();
  CopyIn(lx, x, n);
  if (tmp_bytes > 0) {
    AscendC::LocalTensor<uint8_t> tmp = btmp.Get<uint8_t>(tmp_bytes);
    AscendC::SoftMax<T>(ly, lsum, lmax, lx, tmp, tiling);
  } else {
    AscendC::SoftMax<T>(ly, lsum, lmax, lx, tiling, AscendC::SoftMaxShapeInfo{tiling.srcM, tiling.srcK, tiling.srcM,
                                                                              tiling.srcK});
  }
  CopyOut(y, ly, n);
  CopyOut(max, lmax, reduced);
  CopyOut(sum, lsum, reduced);
}

template <typename T>
__aicore__ inline void RunPad(GM_ADDR x, GM_ADDR y, PadTiling tiling, int32_t pad_value, uint32_t in_place) {
  const uint32_t in = tiling.srcHeight * tiling.srcWidth;
  const uint32_t out = tiling.srcHeight * tiling.blocksPerRow * 32 / sizeof(T);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, btmp;
  pipe.InitBuffer(bx, out * sizeof(T));
  pipe.InitBuffer(by, out * sizeof(T));
  pipe.InitBuffer(btmp, tiling.blocksPerRow * 32);
  AscendC::LocalTensor<T> lx = bx.Get<T>(), ly = in_place ? lx : by.Get<T>();
  CopyIn(lx, x, in);
  AscendC::PadParams params{0, static_cast<uint16_t>(tiling.blocksPerRow * 32 / sizeof(T) - tiling.srcOriWidth),
                            pad_value};
  if (in_place) {
    AscendC::Pad(ly, lx, params, tiling);
  } else {
    AscendC::LocalTensor<uint8_t> tmp = btmp.Get<uint8_t>();
    AscendC::Pad(ly, lx, params, tmp, tiling);
  }
  CopyOut(y, ly, out);
}

template <typename T>
__aicore__ inline void RunUnPad(GM_ADDR x, GM_ADDR y, UnPadTiling tiling, uint32_t right_pad) {
  const uint32_t in = tiling.srcHeight * tiling.srcWidth, out = tiling.srcHeight * (tiling.srcWidth - right_pad);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, btmp;
  pipe.InitBuffer(bx, in * sizeof(T));
  pipe.InitBuffer(btmp, tiling.tmpBuffer1BlockNum * 32);
  AscendC::LocalTensor<T> lx = bx.Get<T>();
  CopyIn(lx, x, in);
  AscendC::UnPadParams params{0, static_cast<uint16_t>(right_pad)};
  AscendC::LocalTensor<uint8_t> tmp = btmp.Get<uint8_t>();
  AscendC::UnPad(lx, lx, params, tmp, tiling);  // in place: rows only move left
  CopyOut(y, lx, out);
}

}  // namespace

extern "C" __global__ __aicore__ void sp_softmax_f32(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum,
                                                     SoftMaxTiling tiling, uint32_t tmp_bytes, uint32_t in_place) {
  RunSoftMax<float, float>(x, y, max, sum, tiling, tmp_bytes, in_place);
}
extern "C" __global__ __aicore__ void sp_softmax_f16(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum,
                                                     SoftMaxTiling tiling, uint32_t tmp_bytes, uint32_t in_place) {
  RunSoftMax<half, half>(x, y, max, sum, tiling, tmp_bytes, in_place);
}
extern "C" __global__ __aicore__ void sp_softmax_mixed(GM_ADDR x, GM_ADDR y, GM_ADDR max, GM_ADDR sum,
                                                       SoftMaxTiling tiling, uint32_t tmp_bytes, uint32_t in_place) {
  RunSoftMax<half, float>(x, y, max, sum, tiling, tmp_bytes, in_place);
}
extern "C" __global__ __aicore__ void sp_pad_i16(GM_ADDR x, GM_ADDR y, PadTiling tiling, int32_t pad_value,
                                                 uint32_t in_place) {
  RunPad<int16_t>(x, y, tiling, pad_value, in_place);
}
extern "C" __global__ __aicore__ void sp_pad_f32(GM_ADDR x, GM_ADDR y, PadTiling tiling, int32_t pad_value,
                                                 uint32_t in_place) {
  RunPad<float>(x, y, tiling, pad_value, in_place);
}
extern "C" __global__ __aicore__ void sp_unpad_f16(GM_ADDR x, GM_ADDR y, UnPadTiling tiling, uint32_t right_pad) {
  RunUnPad<half>(x, y, tiling, right_pad);
}

uint32_t SpSoftMax(int kind, void* stream, void* x, void* y, void* max, void* sum, const SoftMaxTiling& tiling,
                   uint32_t tmp_bytes, uint32_t in_place) {
  auto* a = static_cast<uint8_t*>(x);
  auto* b = static_cast<uint8_t*>(y);
  auto* c = static_cast<uint8_t*>(max);
  auto* d = static_cast<uint8_t*>(sum);
  if (kind == 0) return sp_softmax_f32<<<1, nullptr, stream>>>(a, b, c, d, tiling, tmp_bytes, in_place);
  if (kind == 1) return sp_softmax_f16<<<1, nullptr, stream>>>(a, b, c, d, tiling, tmp_bytes, in_place);
  return sp_softmax_mixed<<<1, nullptr, stream>>>(a, b, c, d, tiling, tmp_bytes, in_place);
}

uint32_t SpPad(int kind, void* stream, void* x, void* y, const PadTiling& tiling, int32_t pad_value,
               uint32_t in_place) {
  auto* a = static_cast<uint8_t*>(x);
  auto* b = static_cast<uint8_t*>(y);
  if (kind == 0) return sp_pad_i16<<<1, nullptr, stream>>>(a, b, tiling, pad_value, in_place);
  return sp_pad_f32<<<1, nullptr, stream>>>(a, b, tiling, pad_value, in_place);
}

uint32_t SpUnPad(void* stream, void* x, void* y, const UnPadTiling& tiling, uint32_t right_pad) {
  return sp_unpad_f16<<<1, nullptr, stream>>>(static_cast<uint8_t*>(x), static_cast<uint8_t*>(y), tiling, right_pad);
}
