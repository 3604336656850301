// Test kernels of the quantization library functions (npurt_kernel/adv_quant.h): sources and dst (with its
// initial contents) staged through the unified buffer, one call, dst written back.
#include "kernel_operator.h"

#include "adv_case.h"

namespace {

using AscendC::LocalTensor;

template <typename T>
__aicore__ inline LocalTensor<T> StageQ(AscendC::TPipe& pipe, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                        AscendC::GlobalTensor<T>& g, GM_ADDR gm, uint32_t n) {
  pipe.InitBuffer(buf, (n * sizeof(T) + 31) / 32 * 32);
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm), n);
  LocalTensor<T> t = buf.Get<T>(n);
  for (uint32_t i = 0; i < n; ++i) t.SetValue(i, g.GetValue(i));
  return t;
}

template <typename T>
__aicore__ inline void WriteBackQ(AscendC::GlobalTensor<T>& g, const LocalTensor<T>& t, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) g.SetValue(i, t.GetValue(i));
}

template <typename T>
__aicore__ inline void QuantCase(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t count, uint32_t form, float scale,
                                 float offset) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd, bt;
  AscendC::GlobalTensor<T> gs;
  AscendC::GlobalTensor<int8_t> gd;
  LocalTensor<T> s = StageQ(pipe, bs, gs, src, n);
  LocalTensor<int8_t> d = StageQ(pipe, bd, gd, dst, n);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  switch (form) {
    case kAdvWhole: AscendC::AscendQuant<T>(d, s, scale, offset); break;
    case kAdvCount: AscendC::AscendQuant<T>(d, s, scale, offset, count); break;
    case kAdvWholeTmp: AscendC::AscendQuant<T>(d, s, tmp, scale, offset); break;
    default: AscendC::AscendQuant<T, false>(d, s, tmp, scale, offset, count); break;
  }
  WriteBackQ(gd, d, n);
}

// dst_elems: dst's size in elements; scalar != 0: deqScale is the scalar `scalar_value`, else the tensor
// `scale` of scale_count elements (S); mode 0 single-row, 1 multi-row; with_tmp: the sharedTmpBuffer form.
template <typename D, typename S>
__aicore__ inline void DequantCase(GM_ADDR src, GM_ADDR scale, GM_ADDR dst, const AscendC::DequantParams& p,
                                   uint32_t dst_elems, uint32_t scale_count, uint32_t scalar, float scalar_value,
                                   uint32_t mode, uint32_t with_tmp) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bc, bd, bt;
  AscendC::GlobalTensor<int32_t> gs;
  AscendC::GlobalTensor<S> gc;
  AscendC::GlobalTensor<D> gd;
  LocalTensor<int32_t> s = StageQ(pipe, bs, gs, src, p.m * p.n);
  LocalTensor<D> d = StageQ(pipe, bd, gd, dst, dst_elems);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  constexpr auto kSingle = AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW;
  constexpr auto kMulti = AscendC::DeQuantMode::DEQUANT_WITH_MULTI_ROW;
  if (scalar != 0) {
    const S v = static_cast<S>(scalar_value);
    if (mode == 0) {
      if (with_tmp) AscendC::AscendDequant<D, S, kSingle>(d, s, v, tmp, p); else AscendC::AscendDequant<D, S, kSingle>(d, s, v, p);
    } else {
      if (with_tmp) AscendC::AscendDequant<D, S, kMulti>(d, s, v, tmp, p); else AscendC::AscendDequant<D, S, kMulti>(d, s, v, p);
    }
  } else {
    LocalTensor<S> c = StageQ(pipe, bc, gc, scale, scale_count);
    if (mode == 0) {
      if (with_tmp) AscendC::AscendDequant(d, s, c, tmp, p); else AscendC::AscendDequant(d, s, c, p);
    } else {
      if (with_tmp) AscendC::AscendDequant<D, S, kMulti>(d, s, c, tmp, p); else AscendC::AscendDequant<D, S, kMulti>(d, s, c, p);
    }
  }
  WriteBackQ(gd, d, dst_elems);
}

}  // namespace

// AscendQuant per tensor of n half (is_half) or float sources into int8_t.
extern "C" __global__ __aicore__ void adv_quant(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t count, uint32_t is_half,
                                                uint32_t form, float scale, float offset) {
  if (is_half != 0) {
    QuantCase<half>(src, dst, n, count, form, scale, offset);
  } else {
    QuantCase<float>(src, dst, n, count, form, scale, offset);
  }
}

// AscendDequant: dst_type 0 half, 1 float, 2 bfloat16_t; scale_type 0 float, 1 half, 2 uint64_t (the float
// in the low 32 bits).
extern "C" __global__ __aicore__ void adv_dequant(GM_ADDR src, GM_ADDR scale, GM_ADDR dst, uint32_t m, uint32_t n,
                                                  uint32_t cal_count, uint32_t dst_elems, uint32_t scale_count,
                                                  uint32_t dst_type, uint32_t scale_type, uint32_t scalar,
                                                  float scalar_value, uint32_t mode, uint32_t with_tmp) {
  const AscendC::DequantParams p{m, n, cal_count};
#define ADV_DEQUANT_SCALES(D)                                                                                     \
  if (scale_type == 0) {                                                                                          \
    DequantCase<D, float>(src, scale, dst, p, dst_elems, scale_count, scalar, scalar_value, mode, with_tmp);      \
  } else if (scale_type == 1) {                                                                                   \
    DequantCase<D, half>(src, scale, dst, p, dst_elems, scale_count, scalar, scalar_value, mode, with_tmp);       \
  } else {                                                                                                        \
    DequantCase<D, uint64_t>(src, scale, dst, p, dst_elems, scale_count, 0, scalar_value, mode, with_tmp);        \
  }
  if (dst_type == 0) {
    ADV_DEQUANT_SCALES(half)
  } else if (dst_type == 1) {
    ADV_DEQUANT_SCALES(float)
  } else {
    ADV_DEQUANT_SCALES(bfloat16_t)
  }
#undef ADV_DEQUANT_SCALES
}
