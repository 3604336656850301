// Test kernels of Transpose (16 x 16; NCHW <-> NHWC) and TransDataTo5HD (16-bit). Operands are staged
// whole into the unified buffer; dst holds its initial contents.
#include "kernel_operator.h"
#include "vec_mask_forms.h"

// 16 x 16 transpose of src into dst: mode 0 Transpose<half>, 1 Transpose<uint16_t> with TRANSPOSE_ND2ND_B16,
// 2 Transpose<int16_t> in place (dst = src).
extern "C" __global__ __aicore__ void vec_transpose16(GM_ADDR src, GM_ADDR dst, uint32_t mode) {
  AscendC::TPipe pipe;
  VecBuf bs, bd, bt;
  AscendC::LocalTensor<uint16_t> ls = VecStage<uint16_t>(pipe, bs, src, 256), ld = VecStage<uint16_t>(pipe, bd, dst, 256);
  if (mode == 0) {
    AscendC::Transpose<half>(ld.ReinterpretCast<half>(), ls.ReinterpretCast<half>());
  } else if (mode == 1) {
    pipe.InitBuffer(bt, 32);
    AscendC::TransposeParamsExt p;
    p.hSize = p.wSize = 16;
    p.transposeType = AscendC::TransposeType::TRANSPOSE_ND2ND_B16;
    AscendC::Transpose(ld, ls, bt.Get<uint8_t>(), p);
  } else {
    AscendC::Transpose<int16_t>(ls.ReinterpretCast<int16_t>(), ls.ReinterpretCast<int16_t>());
    ld = ls;
  }
  VecUnstage(dst, ld, 256);
}

// [N,C,H,W] -> [N,H,W,C] (to_nhwc) or back, floats; tmp_bytes of temporary buffer.
extern "C" __global__ __aicore__ void vec_transpose_nchw(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t c, uint32_t h,
                                                         uint32_t w, uint32_t to_nhwc, uint32_t tmp_bytes) {
  AscendC::TPipe pipe;
  VecBuf bs, bd, bt;
  const uint32_t total = n * c * h * w;
  AscendC::LocalTensor<float> ls = VecStage<float>(pipe, bs, src, total), ld = VecStage<float>(pipe, bd, dst, total);
  pipe.InitBuffer(bt, tmp_bytes);
  const AscendC::TransposeParamsExt p(static_cast<uint16_t>(n), static_cast<uint16_t>(c), static_cast<uint16_t>(h),
                                      static_cast<uint16_t>(w),
                                      to_nhwc != 0 ? AscendC::TransposeType::TRANSPOSE_NCHW2NHWC
                                                   : AscendC::TransposeType::TRANSPOSE_NHWC2NCHW);
  AscendC::Transpose(ld, ls, bt.Get<uint8_t>(), p);
  VecUnstage(dst, ld, total);
}

// TransDataTo5HD<half>: source list i at src + i * src_gap elements, destination list j at dst + j * 16;
// n_src / n_dst elements staged.
extern "C" __global__ __aicore__ void vec_trans5hd(GM_ADDR src, GM_ADDR dst, uint32_t n_src, uint32_t n_dst,
                                                   uint32_t src_gap, uint32_t repeat, uint32_t src_rep,
                                                   uint32_t dst_rep) {
  AscendC::TPipe pipe;
  VecBuf bs, bd;
  AscendC::LocalTensor<half> ls = VecStage<half>(pipe, bs, src, n_src), ld = VecStage<half>(pipe, bd, dst, n_dst);
  uint64_t sl[16], dl[16];
  for (uint32_t i = 0; i < 16; ++i) {
    sl[i] = reinterpret_cast<uint64_t>(ls[i * src_gap].GetPhyAddr());
    dl[i] = reinterpret_cast<uint64_t>(ld[i * 16].GetPhyAddr());
  }
  AscendC::TransDataTo5HDParams p;
  p.repeatTimes = static_cast<uint8_t>(repeat);
  p.srcRepStride = static_cast<uint16_t>(src_rep);
  p.dstRepStride = static_cast<uint16_t>(dst_rep);
  AscendC::TransDataTo5HD<half>(dl, sl, p);
  VecUnstage(dst, ld, n_dst);
}
