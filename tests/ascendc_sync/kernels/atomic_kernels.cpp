// Atomic copies to global memory: every block copies its slice of src into the unified buffer and combines
// it into the same dst with DataCopy / DataCopyPad under SetAtomicAdd/Max/Min.
#include "kernel_operator.h"
#include "sync_kernels.h"

using namespace AscendC;

namespace {

enum class AtomicOp { kAdd, kMax, kMin };

template <typename T, AtomicOp op>
__aicore__ inline void CombineSlice(GM_ADDR src, GM_ADDR dst, uint32_t n) {
  GlobalTensor<T> sg, dg;
  sg.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src) + static_cast<uint64_t>(GetBlockIdx()) * n);
  dg.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst));
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, (n * sizeof(T) + 31) / 32 * 32);
  LocalTensor<T> t = q.AllocTensor<T>();
  DataCopy(t, sg, n);
  if constexpr (op == AtomicOp::kAdd) SetAtomicAdd<T>();
  if constexpr (op == AtomicOp::kMax) SetAtomicMax<T>();
  if constexpr (op == AtomicOp::kMin) SetAtomicMin<T>();
  DataCopy(dg, t, n);
  SetAtomicNone();
  q.FreeTensor(t);
}

}  // namespace

extern "C" __global__ __aicore__ void atomic_add_f32(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<float, AtomicOp::kAdd>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_add_f16(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<half, AtomicOp::kAdd>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_add_bf16(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<bfloat16_t, AtomicOp::kAdd>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_add_s32(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<int32_t, AtomicOp::kAdd>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_add_s16(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<int16_t, AtomicOp::kAdd>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_add_s8(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<int8_t, AtomicOp::kAdd>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_max_f32(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<float, AtomicOp::kMax>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_min_s32(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<int32_t, AtomicOp::kMin>(s, d, n); }
extern "C" __global__ __aicore__ void atomic_max_f16(GM_ADDR s, GM_ADDR d, uint32_t n) { CombineSlice<half, AtomicOp::kMax>(s, d, n); }

// DataCopyPad with a byte-exact row of n floats.
extern "C" __global__ __aicore__ void atomic_add_pad_f32(GM_ADDR src, GM_ADDR dst, uint32_t n) {
  GlobalTensor<float> sg, dg;
  sg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src) + static_cast<uint64_t>(GetBlockIdx()) * n);
  dg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst));
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (n * sizeof(float) + 31) / 32 * 32);
  LocalTensor<float> t = buf.Get<float>();
  DataCopyExtParams p(1, n * sizeof(float), 0, 0, 0);
  DataCopyPad(t, sg, p, DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
  SetAtomicAdd<float>();
  DataCopyPad(dg, t, p);
  SetAtomicNone();
}

// Strided DataCopy: `rows` rows of 8 floats (one 32-byte block) into global memory with a one-block gap,
// then, atomics off, a plain copy of the first row into dst2 (only block 0).
extern "C" __global__ __aicore__ void atomic_add_strided_f32(GM_ADDR src, GM_ADDR dst, uint32_t rows, GM_ADDR dst2) {
  GlobalTensor<float> sg, dg, d2;
  sg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src) + static_cast<uint64_t>(GetBlockIdx()) * rows * 8);
  dg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst));
  d2.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst2));
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, rows * 32);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, sg, rows * 8);
  SetAtomicAdd<float>();
  DataCopy(dg, t, DataCopyParams(static_cast<uint16_t>(rows), 1, 0, 1));
  DisableDmaAtomic();
  if (GetBlockIdx() == 0) DataCopy(d2, t, 8);
}

// Launchers (written out: the generator rewrites <<<>>> in code, not inside macro definitions).
int32_t AtomicAddF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_f32<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddF16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_f16<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddBf16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_bf16<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddS32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_s32<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddS16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_s16<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddS8(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_s8<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicMaxF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_max_f32<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicMinS32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_min_s32<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicMaxF16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_max_f16<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddPadF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n) {
  return static_cast<int32_t>(atomic_add_pad_f32<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, n));
}
int32_t AtomicAddStridedF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t rows, void* dst2) {
  return static_cast<int32_t>(
      atomic_add_strided_f32<<<blocks, nullptr, stream>>>((GM_ADDR)src, (GM_ADDR)dst, rows, (GM_ADDR)dst2));
}
