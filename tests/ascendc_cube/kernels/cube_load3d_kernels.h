// Host functions of cube_load3d_kernels.cpp: Load3D v2 (img2col) from A1 into L0A or L0B, read back whole.
#pragma once

#include <cstdint>

// One LoadData(dst, src, LoadData3DParamsV2): the feature map (c1 x h x w x C0 elements, NC1HWC0) goes to A1
// with a plain DataCopy; the destination (A2, or B2 with toB) is first filled with `fill` bytes, then read
// back as dstElems elements.
struct Load3dArgs {
  uint32_t c1, h, w;
  uint32_t fh, fw, strideH, strideW, dilH, dilW;
  uint32_t pad[4];  // left, right, top, bottom
  uint32_t mStart, mExt, kStart, kExt;
  uint32_t transpose;  // enTranspose
  uint32_t toB;        // destination B2 instead of A2
  uint32_t viaRegs;    // SetFmatrix / SetLoadDataPaddingValue and IsResetLoad3dConfig{false, false}
  uint32_t padBits;    // padValue, bit for bit in the element's width
  uint32_t dstElems;
  uint32_t fill;  // byte the destination starts with
  uint32_t pro;       // LoadData3DParamsV2Pro (the feature map and padding value from the registers)
  uint32_t boundary;  // SetLoadDataBoundary's bytes (pro only; the feature map sits at L1's start)
};

// fm, out: device pointers of 1-, 2- (half) and 4-byte (float) elements.
int32_t CubeLoad3dB8(void* stream, void* fm, void* out, Load3dArgs args);
int32_t CubeLoad3dB16(void* stream, void* fm, void* out, Load3dArgs args);
int32_t CubeLoad3dB32(void* stream, void* fm, void* out, Load3dArgs args);
