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

// AscendAntiQuant of k * n int8_t: per_tensor uses offset[0] and scale[0] as scalars; else the parameters
// are [groups, n] ([n, groups] transposed), their shape given by SetShapeInfo on the offset (shape_arg 0,
// the scale's left unset) or by AntiQuantShapeInfo (1).
template <typename O, bool transpose>
__aicore__ inline void AntiQuantCase(GM_ADDR src, GM_ADDR offset, GM_ADDR scale, GM_ADDR dst, uint32_t k, uint32_t n,
                                     uint32_t groups, uint32_t per_tensor, uint32_t shape_arg, uint32_t with_tmp) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bo, bc, bd, bt;
  AscendC::GlobalTensor<int8_t> gs;
  AscendC::GlobalTensor<O> go, gc, gd;
  const uint32_t params = per_tensor ? 1 : groups * n;
  LocalTensor<int8_t> s = StageQ(pipe, bs, gs, src, k * n);
  LocalTensor<O> o = StageQ(pipe, bo, go, offset, params);
  LocalTensor<O> c = StageQ(pipe, bc, gc, scale, params);
  LocalTensor<O> d = StageQ(pipe, bd, gd, dst, k * n);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  if (per_tensor != 0) {
    if (with_tmp) {
      AscendC::AscendAntiQuant<int8_t, O, transpose>(d, s, o.GetValue(0), c.GetValue(0), tmp, k);
    } else {
      AscendC::AscendAntiQuant<int8_t, O, transpose>(d, s, o.GetValue(0), c.GetValue(0), k);
    }
  } else {
    const uint32_t h = transpose ? n : groups, w = transpose ? groups : n;
    AscendC::AntiQuantShapeInfo info;
    if (shape_arg != 0) {
      info.offsetHeight = info.scaleHeight = h;
      info.offsetWidth = info.scaleWidth = w;
    } else {
      const uint32_t shape[] = {h, w};
      o.SetShapeInfo(AscendC::ShapeInfo(2, shape, AscendC::DataFormat::ND));
    }
    if (with_tmp) {
      AscendC::AscendAntiQuant<int8_t, O, transpose>(d, s, o, c, tmp, k, info);
    } else {
      AscendC::AscendAntiQuant<int8_t, O, transpose>(d, s, o, c, k, info);
    }
  }
  WriteBackQ(gd, d, k * n);
}

}  // namespace

// AscendAntiQuant: out_bf16 selects bfloat16_t output (else half).
extern "C" __global__ __aicore__ void adv_antiquant(GM_ADDR src, GM_ADDR offset, GM_ADDR scale, GM_ADDR dst, uint32_t k,
                                                    uint32_t n, uint32_t groups, uint32_t out_bf16, uint32_t transpose,
                                                    uint32_t per_tensor, uint32_t shape_arg, uint32_t with_tmp) {
  if (out_bf16 != 0) {
    if (transpose) AntiQuantCase<bfloat16_t, true>(src, offset, scale, dst, k, n, groups, per_tensor, shape_arg, with_tmp);
    else AntiQuantCase<bfloat16_t, false>(src, offset, scale, dst, k, n, groups, per_tensor, shape_arg, with_tmp);
  } else {
    if (transpose) AntiQuantCase<half, true>(src, offset, scale, dst, k, n, groups, per_tensor, shape_arg, with_tmp);
    else AntiQuantCase<half, false>(src, offset, scale, dst, k, n, groups, per_tensor, shape_arg, with_tmp);
  }
}

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
