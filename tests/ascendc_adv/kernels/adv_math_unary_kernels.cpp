// Test kernels of the rest of the element-wise math library (npurt_kernel/adv_math_unary.h): source and dst
// (with its initial contents) staged in the unified buffer, one call in the form asked for (form: 0 whole
// tensor, 1 calCount, 2 whole with tmp, 3 calCount with tmp), dst written back.
#include "kernel_operator.h"

#include "adv_stage.h"

namespace {

using AscendC::LocalTensor;

#define NPURT_FORMS(Name)                                                \
  switch (form) {                                                        \
    case 0: AscendC::Name<T, false>(d, s); break;                        \
    case 1: AscendC::Name<T, false>(d, s, count); break;                 \
    case 2: AscendC::Name<T, false>(d, s, tmp); break;                   \
    default: AscendC::Name<T, false>(d, s, tmp, count); break;           \
  }

// op: the position in the test's list (Sin, Cos, ..., Lgamma).
template <typename T>
__aicore__ inline void UnaryCall(uint32_t op, uint32_t form, const LocalTensor<T>& d, const LocalTensor<T>& s,
                                 const LocalTensor<uint8_t>& tmp, uint32_t count) {
  switch (op) {
    case 0: NPURT_FORMS(Sin) break;
    case 1: NPURT_FORMS(Cos) break;
    case 2: NPURT_FORMS(Tan) break;
    case 3: NPURT_FORMS(Tanh) break;
    case 4: NPURT_FORMS(Asin) break;
    case 5: NPURT_FORMS(Acos) break;
    case 6: NPURT_FORMS(Atan) break;
    case 7: NPURT_FORMS(Sinh) break;
    case 8: NPURT_FORMS(Cosh) break;
    case 9: NPURT_FORMS(Asinh) break;
    case 10: NPURT_FORMS(Atanh) break;
    case 11: NPURT_FORMS(Floor) break;
    case 12: NPURT_FORMS(Round) break;
    case 13: NPURT_FORMS(Rint) break;
    case 14: NPURT_FORMS(Trunc) break;
    case 15: NPURT_FORMS(Sign) break;
    case 16: NPURT_FORMS(Erfc) break;
    case 17: NPURT_FORMS(Digamma) break;
    default: NPURT_FORMS(Lgamma) break;
  }
}
#undef NPURT_FORMS

template <typename T>
__aicore__ inline void UnaryCase(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t count, uint32_t op, uint32_t form) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bt;
  AscendC::GlobalTensor<T> gx, gy;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, n), ly = AdvStage(pipe, by, gy, y, n);
  pipe.InitBuffer(bt, 1024);
  UnaryCall<T>(op, form, ly, lx, bt.Get<uint8_t>(), count);
  AdvWriteBack(ly, gy, n);
}

// IsFinite from T into U (count elements).
template <typename T, typename U>
__aicore__ inline void FiniteCase(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t count) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by;
  AscendC::GlobalTensor<T> gx;
  AscendC::GlobalTensor<U> gy;
  LocalTensor<T> lx = AdvStage(pipe, bx, gx, x, n);
  LocalTensor<U> ly = AdvStage(pipe, by, gy, y, n);
  AscendC::IsFinite(ly, lx, count);
  AdvWriteBack(ly, gy, n);
}

}  // namespace

// x, y: n elements of half (is_half) or float; y keeps its contents past the count.
extern "C" __global__ __aicore__ void adv_math_unary(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t count, uint32_t op,
                                                     uint32_t form, uint32_t is_half) {
  if (is_half != 0) {
    UnaryCase<half>(x, y, n, count, op, form);
  } else {
    UnaryCase<float>(x, y, n, count, op, form);
  }
}

// kind 0: float -> float, 1: half -> half, 2: float -> uint8_t.
extern "C" __global__ __aicore__ void adv_isfinite(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t count, uint32_t kind) {
  if (kind == 0) {
    FiniteCase<float, float>(x, y, n, count);
  } else if (kind == 1) {
    FiniteCase<half, half>(x, y, n, count);
  } else {
    FiniteCase<float, uint8_t>(x, y, n, count);
  }
}
