// Ascend C for npurt's simulated NPU: the language spellings, scalar types, the block context and the
// kernel-side services (failing, trapping, printing). Part of kernel_operator.h; do not include alone.
//
// Kernel sources are compiled by the host compiler. The spellings that the Ascend C compiler gives a
// meaning to (__global__, __aicore__, __gm__ ...) expand to nothing here: the toolchain's generator
// (npurt_kernel_gen.py) finds the kernels and writes their entries. Everything below is header-only
// and has internal or hidden linkage in the kernel binary, so kernel code never depends on the runtime's
// symbols or on the C++ standard library's ABI.
#pragma once

#include <npurt/kernel_abi.h>

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// ---- language spellings ---------------------------------------------------------------------------
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
// Kernel-type qualifiers (`__vector__`, `__cube__`, and CANN's newer `__mix__(1, 2) __global__ void k(...)`):
// the generator reads them (the kernel's type in the table); they compile to nothing, every sim core running
// vector and cube code alike.
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(cube, vector)
#endif
// Ascend 950's register-based vector functions are not simulated: a kernel that declares one stops at it,
// with why (rather than at an unknown type or an unknown MicroAPI call further on).
#define __simd_vf__ \
  _Pragma("GCC error \"npurt: __simd_vf__ (Ascend 950 register-based vector functions, MicroAPI) is not simulated; npurt simulates dav-2201 (Atlas A2): use the level-0/level-2 vector API\"")
#define __simd_callee__ __simd_vf__
#define __gm__
// Marks a mixed kernel's Matmul workspace parameter; the generated entry passes it to SetSysWorkspace.
#define __kfc_workspace__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __sync_alias__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif
// Branch hints kernels use unqualified, as CANN's headers provide them.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
// Kernel-type declarations (mixed cube/vector scheduling) do not change how the sim runs a kernel.
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)
#define __NPURT_SIM__ 1

// ---- scalar types ---------------------------------------------------------------------------------
// half is IEEE binary16 with the compiler's own arithmetic (every operation rounds to half, as the
// vector unit does).
using half = _Float16;

// bfloat16: the upper 16 bits of a float; conversions round to nearest even; arithmetic goes through
// float, as on the vector unit.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float f) : bits(FromFloat(f)) {}  // NOLINT: implicit, like the device type
  bfloat16_t(double d) : bits(FromFloat(static_cast<float>(d))) {}  // NOLINT
  bfloat16_t(int v) : bits(FromFloat(static_cast<float>(v))) {}     // NOLINT
  operator float() const {  // NOLINT: implicit, like the device type
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  static uint16_t FromFloat(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest, ties to even
    return static_cast<uint16_t>(u >> 16);
  }
};

enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX };
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {

// Where a tensor lives (TPosition) and the queue positions of TQue.
enum class TPosition : uint8_t {
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM, TSCM, C2PIPE2GM, MAX
};
using QuePosition = TPosition;

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

// The pipes and event ids are global names, as CANN's compiler provides them (PipeBarrier<PIPE_V>() and
// SetFlag<...>(EVENT_ID0) compile without `using namespace AscendC`); AscendC:: spells them too.
using ::pipe_t;
using ::event_t;
using ::PIPE_S, ::PIPE_V, ::PIPE_M, ::PIPE_MTE1, ::PIPE_MTE2, ::PIPE_MTE3, ::PIPE_ALL, ::PIPE_MTE4, ::PIPE_MTE5,
    ::PIPE_V2, ::PIPE_FIX;
using ::EVENT_ID0, ::EVENT_ID1, ::EVENT_ID2, ::EVENT_ID3, ::EVENT_ID4, ::EVENT_ID5, ::EVENT_ID6, ::EVENT_ID7;
enum class HardEvent : uint8_t { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MAX };

constexpr int32_t ONE_BLK_SIZE = 32;          // bytes in a data block (the DataCopy unit)
constexpr int32_t DEFAULT_C0_SIZE = 32;       // bytes of a C0 row of a fractal (the cube's 32-byte unit)
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes one vector instruction repeat processes
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t BLOCK_CUBE = 16;

namespace npurt_detail {

// The block this thread is running (set by the generated entry) and the unified-buffer bytes that
// TPipe::InitBuffer has handed out in it.
// The atomic operation of copies to global memory (SetAtomicAdd/Max/Min, atomic.h) and its element type.
enum : uint8_t { kAtomicNone = 0, kAtomicAdd, kAtomicMax, kAtomicMin };
enum : uint8_t { kAtomicF32 = 0, kAtomicF16, kAtomicBf16, kAtomicS32, kAtomicS16, kAtomicS8, kAtomicUnsupported };

struct BlockState {
  const npurt_kernel_block* block = nullptr;
  uint64_t ub_used = 0;
  // The vector unit's mask register (vector_mask.h): normal mode, all elements, at the start of a block.
  uint64_t vector_mask[2] = {~0ull, ~0ull};  // [0]: elements 0..63, [1]: 64..127 (counter mode: [0] = count)
  bool mask_counter = false;
  uint8_t atomic_op = kAtomicNone;
  uint8_t atomic_type = kAtomicF32;
  bool print_midline = false;  // utils/debug/asc_printf.h: the block's last print did not end its line
  // The padding value SetPadValue wrote (data_copy.h), bit for bit; unset at the start of a block.
  bool pad_value_set = false;
  uint64_t pad_value = 0;
  // The result of the last count-form ReduceSum, bit for bit (GetReduceRepeatSumSpr, cast_reduce.h).
  uint64_t reduce_sum_spr = 0;
};
inline thread_local BlockState g_state;

// ACL error codes used for kernel-side failures (acl/error_codes/rt_error_codes.h).
constexpr int32_t kAicoreException = 507015;

[[noreturn]] inline void FailV(int32_t code, const char* format, va_list ap) {
  char message[512];
  std::vsnprintf(message, sizeof message, format, ap);
  const npurt_kernel_block* b = g_state.block;
  if (b != nullptr && b->services != nullptr && b->services->fail != nullptr) b->services->fail(code, message);
  // Not on a simulated AI core (cannot happen for code reached through a kernel entry).
  std::fprintf(stderr, "npurt kernel: %s\n", message);
  std::abort();
}

// Fails the running kernel with an AI-core exception and a message (printf-style). Does not return.
[[noreturn]] inline void Fail(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  FailV(kAicoreException, format, ap);
}

inline const npurt_kernel_block* Block() { return g_state.block; }

// Memory checking of global-memory accesses (only when the runtime runs with NPURT_SIM_MEMCHECK=1).
inline void CheckGlobal(const void* addr, uint64_t bytes, bool is_write, const char* what) {
  const npurt_kernel_block* b = g_state.block;
  if (b != nullptr && b->services->check_global != nullptr && bytes != 0) {
    b->services->check_global(addr, bytes, is_write ? 1 : 0, what);
  }
}

// Float overflow of a vector instruction: the runtime raises the device's overflow status if the launch's
// stream checks overflow (runtimes whose services lack the entry ignore it).
inline void ReportOverflow() {
  const npurt_kernel_block* b = g_state.block;
  if (b != nullptr && b->services != nullptr &&
      b->services->struct_size >= offsetof(npurt_kernel_services, report_overflow) + sizeof(void (*)()) &&
      b->services->report_overflow != nullptr) {
    b->services->report_overflow();
  }
}

inline bool InCubeMemory(const void* addr, uint64_t bytes);  // npurt_kernel/local_memory.h

// Every local-memory access of the data-movement and vector APIs stays inside this core's unified buffer
// (or, for copies to and from the cube's positions, one of its cube memories).
inline void CheckLocal(const void* addr, uint64_t bytes, const char* what) {
  const npurt_kernel_block* b = g_state.block;
  if (b == nullptr) return;
  const auto base = reinterpret_cast<uintptr_t>(b->ub_base);
  const auto p = reinterpret_cast<uintptr_t>(addr);
  if ((p < base || p + bytes > base + b->ub_size) && !InCubeMemory(addr, bytes)) {
    Fail("%s: local tensor [%p, +%llu bytes) is outside the %llu-byte unified buffer of core %u", what, addr,
         static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(b->ub_size), b->core_id);
  }
}

}  // namespace npurt_detail

// Block index and count of the running block.
namespace npurt_detail {
// The running participant of a mixed kernel's block (npurt_kernel_block.sub_block): its vector sub-block,
// whether it is the cube part, and the vector sub-blocks per block (0: a plain kernel).
inline uint32_t SubBlock() { return g_state.block->sub_block & 0xffu; }
inline bool OnCubePart() { return (g_state.block->sub_block & 0x100u) != 0; }
inline uint32_t VectorsPerBlock() { return (g_state.block->sub_block >> 16) & 0xffu; }
inline bool HasCubePart() { return (g_state.block->sub_block & 0x200u) != 0; }
}  // namespace npurt_detail

// The core types of g_coreType: ASCEND_IS_AIC / ASCEND_IS_AIV tell the parts of a mixed kernel apart.
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

// Block index: a vector participant of a mixed kernel with N sub-blocks per block counts in
// [0, N * GetBlockNum()) (block * N + sub-block), as on an NPU; the cube part and plain kernels in
// [0, GetBlockNum()).
__aicore__ inline int64_t GetBlockIdx() {
  const uint32_t per = npurt_detail::VectorsPerBlock();
  const int64_t b = static_cast<int64_t>(npurt_detail::g_state.block->block_idx);
  return per != 0 && !npurt_detail::OnCubePart() ? b * per + npurt_detail::SubBlock() : b;
}
__aicore__ inline int64_t GetBlockNum() { return static_cast<int64_t>(npurt_detail::g_state.block->block_num); }
// Vector sub-blocks of a mixed kernel's block (KERNEL_TYPE_MIX_AIC_1_2: 2): the running one's index in the
// block, their number; GetTaskRation is that number on a vector participant, 1 on the cube part. A plain
// kernel's block is one sub-block.
__aicore__ inline int64_t GetSubBlockIdx() { return npurt_detail::OnCubePart() ? 0 : npurt_detail::SubBlock(); }
__aicore__ inline int64_t GetSubBlockNum() {
  const uint32_t per = npurt_detail::VectorsPerBlock();
  return per == 0 ? 1 : per;
}
__aicore__ inline int64_t GetTaskRation() { return npurt_detail::OnCubePart() ? 1 : GetSubBlockNum(); }

// Synchronisation between the pipes of one core: a block runs its pipes in program order here, so
// barriers and flags have nothing to wait for.
template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {}
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t /*event_id*/) {}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t /*event_id*/) {}

namespace npurt_detail {
inline void PrintV(const char* format, ...) {
  char text[2048];
  va_list ap;
  va_start(ap, format);
  int n = std::vsnprintf(text, sizeof text, format, ap);
  va_end(ap);
  if (n < 0) return;
  size_t len = static_cast<size_t>(n) < sizeof text ? static_cast<size_t>(n) : sizeof text - 1;
  const npurt_kernel_block* b = g_state.block;
  if (b != nullptr && b->services->print != nullptr) {
    b->services->print(text, len);
  } else {
    std::fwrite(text, 1, len, stdout);
  }
}
}  // namespace npurt_detail

// Prints from the running block (printf syntax). The runtime writes whole lines to stdout, as written,
// so prints of concurrent blocks never interleave inside a line. A template,
// so that an unqualified printf in a kernel with `using namespace AscendC` picks this one.
template <typename... Args>
__aicore__ inline void printf(const char* format, Args... args) {
  npurt_detail::PrintV(format, args...);
}
#define PRINTF printf

}  // namespace AscendC

// ---- builtins outside the AscendC namespace --------------------------------------------------------
// block_idx / block_num: the running block's index and the launch's block count.
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 0;
// The core type of the running participant: AscendC::AIC for a mixed kernel's cube part, else AIV.
inline thread_local int32_t g_coreType = AscendC::AIV;
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
inline int64_t get_block_idx() { return block_idx; }
inline int64_t get_block_num() { return block_num; }

// trap(): stops the kernel with an AI-core exception (the generator also maps `asm("trap")` here).
[[noreturn]] inline void trap() { AscendC::npurt_detail::Fail("the kernel executed a trap instruction"); }
[[noreturn]] inline void npurt_kernel_trap() { trap(); }

// Data-cache maintenance of the newest cores: caches are coherent on the sim.
enum class cache_line_t : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class dcci_dst_t : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T>
inline void dcci(T* /*addr*/, cache_line_t /*line*/, dcci_dst_t /*dst*/ = dcci_dst_t::CACHELINE_ALL) {}

namespace AscendC::npurt_detail {
// Called by the generated entry before the kernel body runs.
inline void EnterBlock(const npurt_kernel_block* b) {
  g_state = BlockState{};
  g_state.block = b;
  ::g_coreType = (b->sub_block & 0x100u) != 0 ? AIC : AIV;
  ::block_idx = GetBlockIdx();
  ::block_num = b->block_num;
}
}  // namespace AscendC::npurt_detail

#include "npurt_kernel/local_memory.h"
