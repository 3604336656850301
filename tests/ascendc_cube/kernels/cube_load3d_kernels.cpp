// Kernels of the Load3D v2 tests: a feature map GM -> A1, LoadData(LoadData3DParamsV2) into L0A or L0B, the
// destination read back element by element (the sim's local memories are addressable).
#include <cstring>

#include "kernel_operator.h"
#include "cube_load3d_kernels.h"

using namespace AscendC;

namespace {

constexpr IsResetLoad3dConfig kFromRegisters = {false, false};

template <typename T>
__aicore__ inline void Load3d(GM_ADDR fm, GM_ADDR out, const Load3dArgs& p) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  const uint32_t fmElems = p.c1 * p.h * p.w * c0;
  GlobalTensor<T> fmGm, outGm;
  fmGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(fm), fmElems);
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), p.dstElems);
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  pipe.InitBuffer(qA1, 1, fmElems * sizeof(T));
  pipe.InitBuffer(qA2, 1, p.dstElems * sizeof(T));
  pipe.InitBuffer(qB2, 1, p.dstElems * sizeof(T));
  LocalTensor<T> a1 = qA1.AllocTensor<T>();
  DataCopy(a1, fmGm, fmElems);
  LocalTensor<T> dst = p.toB != 0 ? qB2.AllocTensor<T>() : qA2.AllocTensor<T>();
  T fill;
  std::memset(static_cast<void*>(&fill), static_cast<int>(p.fill), sizeof(T));
  for (uint32_t i = 0; i < p.dstElems; ++i) dst.SetValue(i, fill);
  PipeBarrier<PIPE_ALL>();
  T padValue;
  std::memcpy(static_cast<void*>(&padValue), &p.padBits, sizeof(T));
  LoadData3DParamsV2<T> lp;
  lp.l1H = static_cast<uint16_t>(p.h);
  lp.l1W = static_cast<uint16_t>(p.w);
  for (int i = 0; i < 4; ++i) lp.padList[i] = static_cast<uint8_t>(p.pad[i]);
  lp.padValue = padValue;
  lp.channelSize = static_cast<uint16_t>(p.c1 * c0);
  lp.kExtension = static_cast<uint16_t>(p.kExt);
  lp.mExtension = static_cast<uint16_t>(p.mExt);
  lp.kStartPt = static_cast<uint16_t>(p.kStart);
  lp.mStartPt = static_cast<uint16_t>(p.mStart);
  lp.strideW = static_cast<uint8_t>(p.strideW);
  lp.strideH = static_cast<uint8_t>(p.strideH);
  lp.filterW = static_cast<uint8_t>(p.fw);
  lp.filterH = static_cast<uint8_t>(p.fh);
  lp.dilationFilterW = static_cast<uint8_t>(p.dilW);
  lp.dilationFilterH = static_cast<uint8_t>(p.dilH);
  lp.enTranspose = p.transpose != 0;
  if (p.pro != 0) {
    const uint8_t pads[4] = {lp.padList[0], lp.padList[1], lp.padList[2], lp.padList[3]};
    SetFmatrix(lp.l1H, lp.l1W, pads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue(padValue);
    SetLoadDataRepeat({0, 1, 0});
    SetLoadDataBoundary(p.boundary);
    LoadData3DParamsV2Pro pro;
    pro.channelSize = lp.channelSize;
    pro.enTranspose = lp.enTranspose;
    pro.extConfig = (uint64_t{lp.mStartPt} << 48) | (uint64_t{lp.kStartPt} << 32) |
                    (uint64_t{lp.mExtension} << 16) | lp.kExtension;
    pro.filterConfig = (uint64_t{lp.dilationFilterH} << 40) | (uint64_t{lp.dilationFilterW} << 32) |
                       (uint64_t{lp.filterH} << 24) | (uint64_t{lp.filterW} << 16) | (uint64_t{lp.strideH} << 8) |
                       lp.strideW;
    LoadData(dst, a1, pro);
    SetLoadDataBoundary(0);
  } else if (p.viaRegs != 0) {
    const uint8_t pads[4] = {lp.padList[0], lp.padList[1], lp.padList[2], lp.padList[3]};
    SetFmatrix(lp.l1H, lp.l1W, pads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue(padValue);
    // What the registers replace must not matter.
    lp.l1H = 1, lp.l1W = 1, lp.padValue = 0;
    for (int i = 0; i < 4; ++i) lp.padList[i] = 0;
    LoadData<T, kFromRegisters>(dst, a1, lp);
  } else {
    LoadData(dst, a1, lp);
  }
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < p.dstElems; ++i) outGm.SetValue(i, dst.GetValue(i));
  if (p.toB != 0) {
    qB2.FreeTensor(dst);
  } else {
    qA2.FreeTensor(dst);
  }
  qA1.FreeTensor(a1);
}

}  // namespace

extern "C" __global__ __aicore__ void cube_load3d_b8(GM_ADDR fm, GM_ADDR out, Load3dArgs p) {
  Load3d<int8_t>(fm, out, p);
}
extern "C" __global__ __aicore__ void cube_load3d_b16(GM_ADDR fm, GM_ADDR out, Load3dArgs p) {
  Load3d<half>(fm, out, p);
}
extern "C" __global__ __aicore__ void cube_load3d_b32(GM_ADDR fm, GM_ADDR out, Load3dArgs p) {
  Load3d<float>(fm, out, p);
}

int32_t CubeLoad3dB8(void* s, void* fm, void* out, Load3dArgs p) {
  return cube_load3d_b8<<<1, nullptr, s>>>(static_cast<uint8_t*>(fm), static_cast<uint8_t*>(out), p);
}
int32_t CubeLoad3dB16(void* s, void* fm, void* out, Load3dArgs p) {
  return cube_load3d_b16<<<1, nullptr, s>>>(static_cast<uint8_t*>(fm), static_cast<uint8_t*>(out), p);
}
int32_t CubeLoad3dB32(void* s, void* fm, void* out, Load3dArgs p) {
  return cube_load3d_b32<<<1, nullptr, s>>>(static_cast<uint8_t*>(fm), static_cast<uint8_t*>(out), p);
}
