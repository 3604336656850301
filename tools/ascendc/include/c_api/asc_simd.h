// Ascend C's C API (asc_simd.h) for the sim: the Atlas A2 (dav-2201) subset that the C-style kernels of the
// samples use, on plain pointers. `__ubuf__ T x[N]` arrays are the kernel's unified-buffer tensors (on the NPU
// the compiler places them in the UB; on the sim they live on the core's thread stack, so a kernel's arrays are
// not held to the UB's capacity here).
//
//   system     asc_init, asc_get_block_idx, asc_get_block_num, asc_get_sub_block_id, asc_get_sub_block_num
//   sync       asc_sync, asc_sync_notify, asc_sync_wait, asc_sync_pipe, asc_sync_vec: a core runs its pipes in
//              program order on the sim, so these have nothing to wait for
//   mask       asc_set_mask_norm, asc_set_mask_count, asc_set_vector_mask(high, low)
//   copies     asc_copy_gm2ub / asc_copy_ub2gm / asc_copy_ub2ub: (dst, src, bytes), and the burst form
//              (dst, src, n_burst, burst_len, src_gap, dst_gap) in 32-byte blocks; *_sync forms
//   vector     binary  asc_{add,sub,mul,div,max,min,and,or}
//              scalar  asc_{add,sub,mul,max,min}_scalar
//              unary   asc_{exp,log,abs,sqrt,relu}
//              fill    asc_duplicate
//              each as a count form (dst, ..., count) with its *_sync, and the high-dimension form (..., repeat,
//              block strides, repeat strides; the mask register), with the level-0 semantics of vector_mask.h
// Anything else of the C API is not declared: a kernel that calls it stops at the build with its name.
// Element types: half, float, int16_t, int32_t (and/or: int16_t, uint16_t); half computes in float, rounded once.
#pragma once

#include <pthread.h>

#include <cmath>
#include <cstring>

#include "kernel_operator.h"

namespace npurt_capi {
using namespace AscendC;
using AscendC::npurt_detail::g_state;

// The running core's thread stack, where the kernel's `__ubuf__` arrays are.
inline bool OnThisStack(const void* addr, uint64_t bytes) {
  thread_local uintptr_t lo = 0, hi = 0;
  if (hi == 0) {
    pthread_attr_t attr;
    void* base = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &base, &size);
      pthread_attr_destroy(&attr);
    }
    lo = reinterpret_cast<uintptr_t>(base);
    hi = lo + size;
  }
  const auto p = reinterpret_cast<uintptr_t>(addr);
  return p >= lo && p + bytes <= hi;
}

// A local operand [addr, +bytes): a `__ubuf__` array of the kernel, or the core's unified buffer / cube memory.
inline void CheckLocal(const void* addr, uint64_t bytes, const char* what) {
  if (addr == nullptr) AscendC::npurt_detail::Fail("%s: null local pointer", what);
  if (!OnThisStack(addr, bytes)) AscendC::npurt_detail::CheckLocal(addr, bytes, what);
}

template <typename T>
using Compute = AscendC::npurt_detail::ComputeType<T>;

// The elements a count form touches: counter mode over `count` elements, the mask register left as it was.
template <typename T, typename F>
inline void ForCount(uint32_t count, F&& f) {
  for (uint32_t i = 0; i < count; ++i) f(i);
}

// The high-dimension (level-0) form over the mask register: f(dst_off, src_offs...) per active element;
// every active element of a repeat is computed before any is written (in-place operands see old values).
template <typename T, size_t N, typename F>
inline void ForRepeats(uint8_t repeat, const AscendC::npurt_detail::Stride (&s)[N], const char* what, F&& f) {
  namespace d = AscendC::npurt_detail;
  const d::MaskPlan p = d::PlanMask(sizeof(T), false, nullptr, 0, repeat, what);
  for (uint32_t r = 0; r < p.repeats; ++r) {
    uint64_t offs[256 / sizeof(T)][N];
    uint32_t n = 0;
    for (uint32_t k = 0; k < p.per_repeat; ++k) {
      if (!d::Active(p, r, k)) continue;
      for (size_t i = 0; i < N; ++i) offs[n][i] = d::ElemOffset(s[i], r, k, sizeof(T));
      ++n;
    }
    f(offs, n);
  }
}

}  // namespace npurt_capi

// ---- system ---------------------------------------------------------------------------------------------
__aicore__ inline void asc_init() { AscendC::InitSocState(); }
__aicore__ inline int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
__aicore__ inline int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }
__aicore__ inline int64_t asc_get_sub_block_id() { return AscendC::GetSubBlockIdx(); }
__aicore__ inline int64_t asc_get_sub_block_num() { return AscendC::GetSubBlockNum(); }

// ---- sync (program order on the sim) ---------------------------------------------------------------------
__aicore__ inline void asc_sync() {}
__aicore__ inline void asc_sync_notify(pipe_t, pipe_t, event_t) {}
__aicore__ inline void asc_sync_wait(pipe_t, pipe_t, event_t) {}
__aicore__ inline void asc_sync_pipe(pipe_t) {}
__aicore__ inline void asc_sync_vec() {}

// ---- mask register ------------------------------------------------------------------------------------------
__aicore__ inline void asc_set_mask_norm() { AscendC::SetMaskNorm(); }
__aicore__ inline void asc_set_mask_count() { AscendC::SetMaskCount(); }
__aicore__ inline void asc_set_vector_mask(uint64_t mask_high, uint64_t mask_low) {
  AscendC::npurt_detail::g_state.vector_mask[0] = mask_low;
  AscendC::npurt_detail::g_state.vector_mask[1] = mask_high;
}

// ---- copies ----------------------------------------------------------------------------------------------
namespace npurt_capi {
// n_burst bursts of burst_len 32-byte blocks, src_gap / dst_gap blocks between them.
inline void CopyBursts(void* dst, const void* src, uint32_t n_burst, uint32_t burst_len, uint32_t src_gap,
                       uint32_t dst_gap, bool dst_local, const char* what) {
  if (n_burst == 0 || burst_len == 0) AscendC::npurt_detail::Fail("%s: n_burst and burst_len must be >= 1", what);
  const uint64_t len = uint64_t{burst_len} * 32;
  const uint64_t local_span = (uint64_t{n_burst} - 1) * (len + uint64_t{dst_local ? dst_gap : src_gap} * 32) + len;
  CheckLocal(dst_local ? dst : src, local_span, what);
  for (uint32_t i = 0; i < n_burst; ++i) {
    std::memcpy(static_cast<uint8_t*>(dst) + i * (len + uint64_t{dst_gap} * 32),
                static_cast<const uint8_t*>(src) + i * (len + uint64_t{src_gap} * 32), len);
  }
}
inline void CopyBytes(void* dst, const void* src, uint32_t size, int local_side, const char* what) {
  if (local_side & 1) CheckLocal(dst, size, what);
  if (local_side & 2) CheckLocal(src, size, what);
  std::memmove(dst, src, size);
}
}  // namespace npurt_capi

__aicore__ inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint32_t size) {
  npurt_capi::CopyBytes(dst, src, size, 1, "asc_copy_gm2ub");
}
__aicore__ inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint16_t n_burst, uint16_t burst_len,
                                      uint16_t src_gap, uint16_t dst_gap) {
  npurt_capi::CopyBursts(dst, src, n_burst, burst_len, src_gap, dst_gap, true, "asc_copy_gm2ub");
}
__aicore__ inline void asc_copy_gm2ub_sync(__ubuf__ void* dst, __gm__ void* src, uint32_t size) {
  asc_copy_gm2ub(dst, src, size);
}
__aicore__ inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint32_t size) {
  npurt_capi::CopyBytes(dst, src, size, 2, "asc_copy_ub2gm");
}
__aicore__ inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint16_t n_burst, uint16_t burst_len,
                                      uint16_t src_gap, uint16_t dst_gap) {
  npurt_capi::CopyBursts(dst, src, n_burst, burst_len, src_gap, dst_gap, false, "asc_copy_ub2gm");
}
__aicore__ inline void asc_copy_ub2gm_sync(__gm__ void* dst, __ubuf__ void* src, uint32_t size) {
  asc_copy_ub2gm(dst, src, size);
}
__aicore__ inline void asc_copy_ub2ub(__ubuf__ void* dst, __ubuf__ void* src, uint32_t size) {
  npurt_capi::CopyBytes(dst, src, size, 3, "asc_copy_ub2ub");
}
__aicore__ inline void asc_copy_ub2ub_sync(__ubuf__ void* dst, __ubuf__ void* src, uint32_t size) {
  asc_copy_ub2ub(dst, src, size);
}

// ---- vector ------------------------------------------------------------------------------------------------
// Binary: dst = op(src0, src1).
#define NPURT_CAPI_BINARY_T(name, T, expr)                                                                        \
  __aicore__ inline void asc_##name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) {        \
    npurt_capi::CheckLocal(dst, uint64_t{count} * sizeof(T), "asc_" #name);                                       \
    npurt_capi::CheckLocal(src0, uint64_t{count} * sizeof(T), "asc_" #name);                                      \
    npurt_capi::CheckLocal(src1, uint64_t{count} * sizeof(T), "asc_" #name);                                      \
    using C = npurt_capi::Compute<T>;                                                                            \
    npurt_capi::ForCount<T>(count, [&](uint32_t i) {                                                              \
      const C a = static_cast<C>(src0[i]), b = static_cast<C>(src1[i]);                                          \
      dst[i] = static_cast<T>(expr);                                                                              \
    });                                                                                                           \
  }                                                                                                               \
  __aicore__ inline void asc_##name##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) { \
    asc_##name(dst, src0, src1, count);                                                                           \
  }                                                                                                               \
  __aicore__ inline void asc_##name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,          \
                                    uint16_t dst_block_stride, uint16_t src0_block_stride,                        \
                                    uint16_t src1_block_stride, uint16_t dst_repeat_stride,                       \
                                    uint16_t src0_repeat_stride, uint16_t src1_repeat_stride) {                   \
    using C = npurt_capi::Compute<T>;                                                                            \
    const AscendC::npurt_detail::Stride s[3] = {{dst_block_stride, dst_repeat_stride},                            \
                                                {src0_block_stride, src0_repeat_stride},                          \
                                                {src1_block_stride, src1_repeat_stride}};                         \
    npurt_capi::ForRepeats<T>(repeat, s, "asc_" #name, [&](const uint64_t(*offs)[3], uint32_t n) {                \
      T out[256 / sizeof(T)];                                                                                     \
      for (uint32_t j = 0; j < n; ++j) {                                                                          \
        npurt_capi::CheckLocal(src0 + offs[j][1], sizeof(T), "asc_" #name);                                       \
        npurt_capi::CheckLocal(src1 + offs[j][2], sizeof(T), "asc_" #name);                                       \
        const C a = static_cast<C>(src0[offs[j][1]]), b = static_cast<C>(src1[offs[j][2]]);                      \
        out[j] = static_cast<T>(expr);                                                                            \
      }                                                                                                           \
      for (uint32_t j = 0; j < n; ++j) {                                                                          \
        npurt_capi::CheckLocal(dst + offs[j][0], sizeof(T), "asc_" #name);                                        \
        dst[offs[j][0]] = out[j];                                                                                 \
      }                                                                                                           \
    });                                                                                                           \
  }
#define NPURT_CAPI_BINARY_ARITH(name, expr)     \
  NPURT_CAPI_BINARY_T(name, half, expr)         \
  NPURT_CAPI_BINARY_T(name, float, expr)        \
  NPURT_CAPI_BINARY_T(name, int16_t, expr)      \
  NPURT_CAPI_BINARY_T(name, int32_t, expr)
NPURT_CAPI_BINARY_ARITH(add, a + b)
NPURT_CAPI_BINARY_ARITH(sub, a - b)
NPURT_CAPI_BINARY_ARITH(mul, a * b)
NPURT_CAPI_BINARY_T(div, half, a / b)
NPURT_CAPI_BINARY_T(div, float, a / b)
NPURT_CAPI_BINARY_ARITH(max, a > b ? a : b)
NPURT_CAPI_BINARY_ARITH(min, a < b ? a : b)
NPURT_CAPI_BINARY_T(and, int16_t, a & b)
NPURT_CAPI_BINARY_T(and, uint16_t, a & b)
NPURT_CAPI_BINARY_T(or, int16_t, a | b)
NPURT_CAPI_BINARY_T(or, uint16_t, a | b)
#undef NPURT_CAPI_BINARY_ARITH
#undef NPURT_CAPI_BINARY_T

// Unary (expr of a) and tensor-scalar (expr of a and v): dst = f(src).
#define NPURT_CAPI_UNARY_BODY(name, T, expr, ...)                                                                 \
  __aicore__ inline void asc_##name(__ubuf__ T* dst, __ubuf__ T* src __VA_ARGS__, uint32_t count) {               \
    npurt_capi::CheckLocal(dst, uint64_t{count} * sizeof(T), "asc_" #name);                                       \
    npurt_capi::CheckLocal(src, uint64_t{count} * sizeof(T), "asc_" #name);                                       \
    using C = npurt_capi::Compute<T>;                                                                            \
    npurt_capi::ForCount<T>(count, [&](uint32_t i) {                                                              \
      const C a = static_cast<C>(src[i]);                                                                        \
      dst[i] = static_cast<T>(expr);                                                                              \
    });                                                                                                           \
  }                                                                                                               \
  __aicore__ inline void asc_##name(__ubuf__ T* dst, __ubuf__ T* src __VA_ARGS__, uint8_t repeat,                 \
                                    uint16_t dst_block_stride, uint16_t src_block_stride,                         \
                                    uint16_t dst_repeat_stride, uint16_t src_repeat_stride) {                     \
    using C = npurt_capi::Compute<T>;                                                                            \
    const AscendC::npurt_detail::Stride s[2] = {{dst_block_stride, dst_repeat_stride},                            \
                                                {src_block_stride, src_repeat_stride}};                           \
    npurt_capi::ForRepeats<T>(repeat, s, "asc_" #name, [&](const uint64_t(*offs)[2], uint32_t n) {                \
      T out[256 / sizeof(T)];                                                                                     \
      for (uint32_t j = 0; j < n; ++j) {                                                                          \
        npurt_capi::CheckLocal(src + offs[j][1], sizeof(T), "asc_" #name);                                        \
        const C a = static_cast<C>(src[offs[j][1]]);                                                             \
        out[j] = static_cast<T>(expr);                                                                            \
      }                                                                                                           \
      for (uint32_t j = 0; j < n; ++j) {                                                                          \
        npurt_capi::CheckLocal(dst + offs[j][0], sizeof(T), "asc_" #name);                                        \
        dst[offs[j][0]] = out[j];                                                                                 \
      }                                                                                                           \
    });                                                                                                           \
  }
#define NPURT_CAPI_UNARY(name, T, expr)                                                                            \
  NPURT_CAPI_UNARY_BODY(name, T, expr, )                                                                         \
  __aicore__ inline void asc_##name##_sync(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count) {                    \
    asc_##name(dst, src, count);                                                                                  \
  }
#define NPURT_CAPI_SCALAR(name, T, expr)                                                                           \
  NPURT_CAPI_UNARY_BODY(name, T, expr, , T value)                                                                 \
  __aicore__ inline void asc_##name##_sync(__ubuf__ T* dst, __ubuf__ T* src, T value, uint32_t count) {           \
    asc_##name(dst, src, value, count);                                                                           \
  }
#define NPURT_CAPI_FLOATS(M, name, expr) M(name, half, expr) M(name, float, expr)
#define NPURT_CAPI_NUMBERS(M, name, expr) \
  M(name, half, expr) M(name, float, expr) M(name, int16_t, expr) M(name, int32_t, expr)
NPURT_CAPI_FLOATS(NPURT_CAPI_UNARY, exp, std::exp(a))
NPURT_CAPI_FLOATS(NPURT_CAPI_UNARY, log, std::log(a))
NPURT_CAPI_FLOATS(NPURT_CAPI_UNARY, sqrt, std::sqrt(a))
NPURT_CAPI_NUMBERS(NPURT_CAPI_UNARY, abs, a < 0 ? -a : a)
NPURT_CAPI_NUMBERS(NPURT_CAPI_UNARY, relu, a > 0 ? a : C(0))
NPURT_CAPI_NUMBERS(NPURT_CAPI_SCALAR, add_scalar, a + C(value))
NPURT_CAPI_NUMBERS(NPURT_CAPI_SCALAR, sub_scalar, a - C(value))
NPURT_CAPI_NUMBERS(NPURT_CAPI_SCALAR, mul_scalar, a * C(value))
NPURT_CAPI_NUMBERS(NPURT_CAPI_SCALAR, max_scalar, a > C(value) ? a : C(value))
NPURT_CAPI_NUMBERS(NPURT_CAPI_SCALAR, min_scalar, a < C(value) ? a : C(value))
#undef NPURT_CAPI_FLOATS
#undef NPURT_CAPI_NUMBERS
#undef NPURT_CAPI_SCALAR
#undef NPURT_CAPI_UNARY
#undef NPURT_CAPI_UNARY_BODY

// Fill: dst = value.
#define NPURT_CAPI_DUPLICATE(T)                                                                                   \
  __aicore__ inline void asc_duplicate(__ubuf__ T* dst, T value, uint32_t count) {                                \
    npurt_capi::CheckLocal(dst, uint64_t{count} * sizeof(T), "asc_duplicate");                                    \
    for (uint32_t i = 0; i < count; ++i) dst[i] = value;                                                          \
  }                                                                                                               \
  __aicore__ inline void asc_duplicate_sync(__ubuf__ T* dst, T value, uint32_t count) {                           \
    asc_duplicate(dst, value, count);                                                                             \
  }                                                                                                               \
  __aicore__ inline void asc_duplicate(__ubuf__ T* dst, T value, uint8_t repeat, uint16_t dst_block_stride,       \
                                       uint16_t dst_repeat_stride) {                                              \
    const AscendC::npurt_detail::Stride s[1] = {{dst_block_stride, dst_repeat_stride}};                           \
    npurt_capi::ForRepeats<T>(repeat, s, "asc_duplicate", [&](const uint64_t(*offs)[1], uint32_t n) {             \
      for (uint32_t j = 0; j < n; ++j) {                                                                          \
        npurt_capi::CheckLocal(dst + offs[j][0], sizeof(T), "asc_duplicate");                                     \
        dst[offs[j][0]] = value;                                                                                  \
      }                                                                                                           \
    });                                                                                                           \
  }
NPURT_CAPI_DUPLICATE(half)
NPURT_CAPI_DUPLICATE(float)
NPURT_CAPI_DUPLICATE(int16_t)
NPURT_CAPI_DUPLICATE(uint16_t)
NPURT_CAPI_DUPLICATE(int32_t)
NPURT_CAPI_DUPLICATE(uint32_t)
#undef NPURT_CAPI_DUPLICATE
