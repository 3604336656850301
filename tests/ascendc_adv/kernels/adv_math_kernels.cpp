// Test kernels of the element-wise library functions (npurt_kernel/adv_math.h): the source(s) and dst
// (holding its initial contents, so elements past calCount can be checked unchanged) are staged through
// the unified buffer, one call in the form asked for, and dst is written back.
#include "kernel_operator.h"

#include "adv_case.h"

namespace {

using AscendC::LocalTensor;

// A tensor of exactly n elements in its own buffer (the whole-tensor forms compute over GetSize()).
template <typename T>
__aicore__ inline LocalTensor<T> Stage(AscendC::TPipe& pipe, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                       AscendC::GlobalTensor<T>& g, GM_ADDR gm, uint32_t n) {
  const uint32_t bytes = (n * sizeof(T) + 31) / 32 * 32;
  pipe.InitBuffer(buf, bytes);
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm), n);
  LocalTensor<T> t = buf.Get<T>(n);
  // DataCopy moves whole 32-byte blocks: copy the padded length, n is a multiple of 32 bytes in the tests
  // or the tail is copied element by element.
  const uint32_t whole = n * sizeof(T) / 32 * 32 / sizeof(T);
  if (whole > 0) AscendC::DataCopy(t, g, whole);
  for (uint32_t i = whole; i < n; ++i) t.SetValue(i, g.GetValue(i));
  return t;
}

template <typename T>
__aicore__ inline void WriteBack(AscendC::GlobalTensor<T>& g, const LocalTensor<T>& t, uint32_t n) {
  const uint32_t whole = n * sizeof(T) / 32 * 32 / sizeof(T);
  if (whole > 0) AscendC::DataCopy(g, t, whole);
  for (uint32_t i = whole; i < n; ++i) g.SetValue(i, t.GetValue(i));
}

// Name(dst, src [, tmp] [, count]) in the four forms.
#define ADV_UNARY_FORMS(Name)                                                    \
  switch (form) {                                                                \
    case kAdvWhole: AscendC::Name<T, false>(d, s); break;                        \
    case kAdvCount: AscendC::Name<T, false>(d, s, count); break;                 \
    case kAdvWholeTmp: AscendC::Name<T, false>(d, s, tmp); break;                \
    default: AscendC::Name<T, false>(d, s, tmp, count); break;                   \
  }

template <typename T>
__aicore__ inline void UnaryCall(uint32_t op, uint32_t form, const LocalTensor<T>& d, const LocalTensor<T>& s,
                                 const LocalTensor<uint8_t>& tmp, uint32_t n, uint32_t count, float scalar) {
  const bool with_tmp = form == kAdvWholeTmp || form == kAdvCountTmp;
  const uint32_t c = (form == kAdvWhole || form == kAdvWholeTmp) ? n : count;
  switch (op) {
    case kAdvAcosh: ADV_UNARY_FORMS(Acosh) break;
    case kAdvCeil: ADV_UNARY_FORMS(Ceil) break;
    case kAdvFrac: ADV_UNARY_FORMS(Frac) break;
    case kAdvErf: ADV_UNARY_FORMS(Erf) break;
    case kAdvLog: ADV_UNARY_FORMS(Log) break;
    case kAdvSigmoid: ADV_UNARY_FORMS(Sigmoid) break;
    case kAdvExp:
      if (with_tmp) {
        AscendC::Exp<T, 10, false>(d, s, tmp, c);
      } else {
        AscendC::Exp<T, 0, false>(d, s, c);
      }
      break;
    case kAdvGelu:
      if (with_tmp) {
        AscendC::Gelu(d, s, tmp, c);
      } else {
        AscendC::Gelu<T, true>(d, s, c);
      }
      break;
    case kAdvFasterGelu:
      if (with_tmp) {
        AscendC::FasterGelu(d, s, tmp, c);
      } else {
        AscendC::FasterGelu<T, false, true>(d, s, c);
      }
      break;
    case kAdvSilu: AscendC::Silu<T, false>(d, s, c); break;
    case kAdvSwish: AscendC::Swish(d, s, c, static_cast<T>(scalar)); break;
    case kAdvClampMin:
      if (with_tmp) {
        AscendC::ClampMin<T, false>(d, s, tmp, static_cast<T>(scalar), c);
      } else {
        AscendC::ClampMin<T, false>(d, s, static_cast<T>(scalar), c);
      }
      break;
    default:
      if (with_tmp) {
        AscendC::ClampMax<T, false>(d, s, tmp, static_cast<T>(scalar), c);
      } else {
        AscendC::ClampMax<T, false>(d, s, static_cast<T>(scalar), c);
      }
      break;
  }
}

template <typename T>
__aicore__ inline void UnaryCase(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t count, uint32_t op, uint32_t form,
                                 float scalar) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd, bt;
  AscendC::GlobalTensor<T> gs, gd;
  LocalTensor<T> s = Stage(pipe, bs, gs, src, n);
  LocalTensor<T> d = Stage(pipe, bd, gd, dst, n);
  pipe.InitBuffer(bt, 1024);
  UnaryCall<T>(op, form, d, s, bt.Get<uint8_t>(), n, count, scalar);
  WriteBack(gd, d, n);
}

// Name(dst, src0, src1 [, tmp] [, count]) in the four forms.
#define ADV_BINARY_FORMS(Name)                                                   \
  switch (form) {                                                                \
    case kAdvWhole: AscendC::Name<T, false>(d, a, b); break;                     \
    case kAdvCount: AscendC::Name<T, false>(d, a, b, count); break;              \
    case kAdvWholeTmp: AscendC::Name<T, false>(d, a, b, tmp); break;             \
    default: AscendC::Name<T, false>(d, a, b, tmp, count); break;                \
  }

template <typename T>
__aicore__ inline void BinaryCall(uint32_t op, uint32_t form, const LocalTensor<T>& d, const LocalTensor<T>& a,
                                  const LocalTensor<T>& b, const LocalTensor<uint8_t>& tmp, uint32_t count,
                                  float scalar) {
  if constexpr (std::is_same<T, int16_t>::value) {
    ADV_BINARY_FORMS(Xor)
  } else {
    if constexpr (!std::is_same<T, int32_t>::value) {
      if (op == kAdvGeGLU) {
        ADV_BINARY_FORMS(GeGLU)
        return;
      }
      if (op == kAdvFmod) {
        ADV_BINARY_FORMS(Fmod)
        return;
      }
      if (op == kAdvSwiGLU) {
        switch (form) {
          case kAdvWhole: AscendC::SwiGLU<T, false>(d, a, b, scalar); break;
          case kAdvCount: AscendC::SwiGLU<T, false>(d, a, b, scalar, count); break;
          case kAdvWholeTmp: AscendC::SwiGLU<T, false>(d, a, b, scalar, tmp); break;
          default: AscendC::SwiGLU<T, false>(d, a, b, scalar, tmp, count); break;
        }
        return;
      }
    }
    const bool whole = form == kAdvWhole || form == kAdvWholeTmp;
    if (op == kAdvPowerTT) {
      ADV_BINARY_FORMS(Power)
    } else if (op == kAdvPowerTS) {
      if (whole) {
        AscendC::Power<T, false>(d, a, b.GetValue(0), tmp);
      } else {
        AscendC::Power<T, false>(d, a, b.GetValue(0), tmp, count);
      }
    } else {
      if (whole) {
        AscendC::Power<T, false>(d, a.GetValue(0), b, tmp);
      } else {
        AscendC::Power<T, false>(d, a.GetValue(0), b, tmp, count);
      }
    }
  }
}

template <typename T>
__aicore__ inline void BinaryCase(GM_ADDR src0, GM_ADDR src1, GM_ADDR dst, uint32_t n, uint32_t count, uint32_t op,
                                  uint32_t form, float scalar) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b0, b1, bd, bt;
  AscendC::GlobalTensor<T> g0, g1, gd;
  LocalTensor<T> a = Stage(pipe, b0, g0, src0, n);
  LocalTensor<T> b = Stage(pipe, b1, g1, src1, n);
  LocalTensor<T> d = Stage(pipe, bd, gd, dst, n);
  pipe.InitBuffer(bt, 1024);
  BinaryCall<T>(op, form, d, a, b, bt.Get<uint8_t>(), count, scalar);
  WriteBack(gd, d, n);
}

// Axpy: dst (float, or half when dst_half) += src (half when src_half, else float) * scalar.
template <typename T, typename U>
__aicore__ inline void AxpyCase(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t count, float scalar) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd, bt;
  AscendC::GlobalTensor<U> gs;
  AscendC::GlobalTensor<T> gd;
  LocalTensor<U> s = Stage(pipe, bs, gs, src, n);
  LocalTensor<T> d = Stage(pipe, bd, gd, dst, n);
  pipe.InitBuffer(bt, 1024);
  AscendC::Axpy(d, s, static_cast<U>(scalar), bt.Get<uint8_t>(), count);
  WriteBack(gd, d, n);
}

}  // namespace

extern "C" __global__ __aicore__ void adv_unary(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t count, uint32_t op,
                                                uint32_t dtype, uint32_t form, float scalar) {
  if (dtype == kAdvF16) {
    UnaryCase<half>(src, dst, n, count, op, form, scalar);
  } else {
    UnaryCase<float>(src, dst, n, count, op, form, scalar);
  }
}

extern "C" __global__ __aicore__ void adv_binary(GM_ADDR src0, GM_ADDR src1, GM_ADDR dst, uint32_t n, uint32_t count,
                                                 uint32_t op, uint32_t dtype, uint32_t form, float scalar) {
  switch (dtype) {
    case kAdvF16: BinaryCase<half>(src0, src1, dst, n, count, op, form, scalar); break;
    case kAdvF32: BinaryCase<float>(src0, src1, dst, n, count, op, form, scalar); break;
    case kAdvI16: BinaryCase<int16_t>(src0, src1, dst, n, count, op, form, scalar); break;
    default: BinaryCase<int32_t>(src0, src1, dst, n, count, op, form, scalar); break;
  }
}

template <typename T>
__aicore__ inline void ArangeCase(GM_ADDR dst, uint32_t n, uint32_t count, float first, float diff) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bd;
  AscendC::GlobalTensor<T> gd;
  LocalTensor<T> d = Stage(pipe, bd, gd, dst, n);
  AscendC::Arange<T>(d, static_cast<T>(first), static_cast<T>(diff), static_cast<int32_t>(count));
  WriteBack(gd, d, n);
}

// Arange of count elements into dst (n elements, initial contents kept past count).
extern "C" __global__ __aicore__ void adv_arange(GM_ADDR dst, uint32_t n, uint32_t count, uint32_t dtype, float first,
                                                 float diff) {
  switch (dtype) {
    case kAdvF16: ArangeCase<half>(dst, n, count, first, diff); break;
    case kAdvF32: ArangeCase<float>(dst, n, count, first, diff); break;
    case kAdvI16: ArangeCase<int16_t>(dst, n, count, first, diff); break;
    default: ArangeCase<int32_t>(dst, n, count, first, diff); break;
  }
}

// mode 0: half source, float destination; 1: float both; 2: half both.
extern "C" __global__ __aicore__ void adv_axpy(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t count, uint32_t mode,
                                               float scalar) {
  if (mode == 0) {
    AxpyCase<float, half>(src, dst, n, count, scalar);
  } else if (mode == 1) {
    AxpyCase<float, float>(src, dst, n, count, scalar);
  } else {
    AxpyCase<half, half>(src, dst, n, count, scalar);
  }
}
