// Vector-API kernels of the conformance suite: one kernel per element type runs the operation chosen by
// `op` (kernel_cts_ops.h) over n elements staged through the unified buffer, as real kernels do.
#include "kernel_operator.h"
#include "kernel_cts_ops.h"

namespace {

template <typename T>
__aicore__ inline void RunVectorOp(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n, uint32_t op, float scalar) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ba, bb, bo;
  pipe.InitBuffer(ba, n * sizeof(T));
  pipe.InitBuffer(bb, n * sizeof(T));
  pipe.InitBuffer(bo, n * sizeof(T) + 64);
  AscendC::GlobalTensor<T> ga, gb, go;
  ga.SetGlobalBuffer((__gm__ T*)a, n);
  gb.SetGlobalBuffer((__gm__ T*)b, n);
  go.SetGlobalBuffer((__gm__ T*)out, n);
  AscendC::LocalTensor<T> la = ba.Get<T>();
  AscendC::LocalTensor<T> lb = bb.Get<T>();
  AscendC::LocalTensor<T> lo = bo.Get<T>();
  AscendC::DataCopy(la, ga, n);
  AscendC::DataCopy(lb, gb, n);
  const T s = static_cast<T>(scalar);
  const int32_t c = static_cast<int32_t>(n);
  uint32_t produced = n;
  switch (op) {
    case kOpAdd: AscendC::Add(lo, la, lb, c); break;
    case kOpSub: AscendC::Sub(lo, la, lb, c); break;
    case kOpMul: AscendC::Mul(lo, la, lb, c); break;
    case kOpDiv: AscendC::Div(lo, la, lb, c); break;
    case kOpMax: AscendC::Max(lo, la, lb, c); break;
    case kOpMin: AscendC::Min(lo, la, lb, c); break;
    case kOpAdds: AscendC::Adds(lo, la, s, c); break;
    case kOpMuls: AscendC::Muls(lo, la, s, c); break;
    case kOpMaxs: AscendC::Maxs(lo, la, s, c); break;
    case kOpMins: AscendC::Mins(lo, la, s, c); break;
    case kOpExp: AscendC::Exp(lo, la, c); break;
    case kOpLn: AscendC::Ln(lo, la, c); break;
    case kOpAbs: AscendC::Abs(lo, la, c); break;
    case kOpSqrt: AscendC::Sqrt(lo, la, c); break;
    case kOpRelu: AscendC::Relu(lo, la, c); break;
    case kOpReciprocal: AscendC::Reciprocal(lo, la, c); break;
    case kOpDuplicate: AscendC::Duplicate(lo, s, c); break;
    case kOpReduceSum: AscendC::ReduceSum(lo, la, lb, c); produced = 1; break;
    case kOpReduceMax: AscendC::ReduceMax(lo, la, lb, c, true); produced = 2; break;
    default: trap();
  }
  AscendC::DataCopy(go, lo, produced);
}

}  // namespace

extern "C" __global__ __aicore__ void cts_vector_f32(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n, uint32_t op,
                                                     float scalar) {
  RunVectorOp<float>(a, b, out, n, op, scalar);
}

extern "C" __global__ __aicore__ void cts_vector_f16(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n, uint32_t op,
                                                     float scalar) {
  RunVectorOp<half>(a, b, out, n, op, scalar);
}

// Casts n floats to `target` (CtsCastTarget) with round mode `mode` (AscendC::RoundMode numbering).
extern "C" __global__ __aicore__ void cts_cast(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t mode, uint32_t target) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, n * sizeof(float));
  pipe.InitBuffer(bd, n * sizeof(float));
  AscendC::GlobalTensor<float> gs;
  gs.SetGlobalBuffer((__gm__ float*)src, n);
  AscendC::LocalTensor<float> ls = bs.Get<float>();
  AscendC::DataCopy(ls, gs, n);
  const auto rm = static_cast<AscendC::RoundMode>(mode);
  if (target == kCastToHalf) {
    AscendC::LocalTensor<half> ld = bd.Get<half>();
    AscendC::Cast(ld, ls, rm, n);
    AscendC::GlobalTensor<half> gd;
    gd.SetGlobalBuffer((__gm__ half*)dst, n);
    AscendC::DataCopy(gd, ld, n);
  } else if (target == kCastToInt32) {
    AscendC::LocalTensor<int32_t> ld = bd.Get<int32_t>();
    AscendC::Cast(ld, ls, rm, n);
    AscendC::GlobalTensor<int32_t> gd;
    gd.SetGlobalBuffer((__gm__ int32_t*)dst, n);
    AscendC::DataCopy(gd, ld, n);
  } else {
    AscendC::LocalTensor<bfloat16_t> ld = bd.Get<bfloat16_t>();
    AscendC::Cast(ld, ls, rm, n);
    AscendC::GlobalTensor<bfloat16_t> gd;
    gd.SetGlobalBuffer((__gm__ bfloat16_t*)dst, n);
    AscendC::DataCopy(gd, ld, n);
  }
}
