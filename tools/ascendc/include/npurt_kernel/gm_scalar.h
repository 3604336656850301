// Scalar access to global memory and the data cache, for the sim. Part of kernel_operator.h.
//
// On an NPU the scalar unit reaches global memory through a per-core data cache; DMA (DataCopy) does not.
// On the sim every core is a host thread and global memory is host memory, coherent between threads, so:
//   ReadGmByPassDCache<T>(addr) / WriteGmByPassDCache<T>(addr, value)   one atomic load / store of the
//       element (acquire / release), T an 8- to 64-bit integer: a block polling a flag that another block
//       writes sees the write, and what the writer wrote before it.
//   DataCacheCleanAndInvalid<T, CacheLine, DcciDst>(tensor)   nothing to write back or drop: a full memory
//       fence that also keeps the compiler from reusing a value read before it (a loop that re-reads
//       GlobalTensor::GetValue after it sees other blocks' writes).
//   DataSyncBarrier<MemDsbT>()   a full memory fence.
//   Nop<count>()   count pause instructions (what a polling loop inserts to leave the bus to others).
// The kernel generator marks kernels calling ReadGmByPassDCache or DataCacheCleanAndInvalid co-operative:
// they poll for other blocks' writes, so all blocks of their launches run at once.
#pragma once

#include <atomic>

#include "npurt_kernel/block_wait.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

namespace npurt_detail {

template <typename T>
constexpr void CheckByPassType() {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 8,
                "ReadGmByPassDCache/WriteGmByPassDCache: T is int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, "
                "int64_t or uint64_t");
}

template <typename T>
inline GmAtomic<T> GmElement(__gm__ T* addr, bool is_write, const char* what) {
  if ((reinterpret_cast<uintptr_t>(addr) % sizeof(T)) != 0) {
    Fail("%s: address %p is not aligned to its %zu-byte element", what, static_cast<void*>(addr), sizeof(T));
  }
  CheckGlobal(addr, sizeof(T), is_write, what);
  return GmAtomic<T>{addr};
}

inline void FullFence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  __asm__ __volatile__("" ::: "memory");
}

}  // namespace npurt_detail

template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr) {
  npurt_detail::CheckByPassType<T>();
  return npurt_detail::GmElement(addr, false, "ReadGmByPassDCache").load(std::memory_order_acquire);
}

template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value) {
  npurt_detail::CheckByPassType<T>();
  npurt_detail::GmElement(addr, true, "WriteGmByPassDCache").store(value, std::memory_order_release);
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& /*dst*/) {
  npurt_detail::FullFence();
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& /*dst*/) {
  npurt_detail::FullFence();
}
template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& /*dst*/) {
  npurt_detail::FullFence();
}

template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier() {
  npurt_detail::FullFence();
}

template <uint16_t count>
__aicore__ inline void Nop() {
  for (uint32_t i = 0; i < count; ++i) npurt_detail::CpuRelax();
}

}  // namespace AscendC
