// utils/debug/asc_dump.h for npurt's simulated NPU: CANN 9's dump functions, which print what
// AscendC::DumpTensor prints (npurt_kernel/dump_tensor.h) for `size` elements at an address of one memory:
//   asc_dump_gm<T>(__gm__ T* addr, desc, size)      global memory
//   asc_dump_ubuf<T>(__ubuf__ T* addr, desc, size)  the unified buffer
//   asc_dump_l1buf<T>(__cbuf__ T* addr, desc, size) L1
//   asc_dump_cbuf<T>(__cc__ T* addr, desc, size)    L0C
// An address outside the memory the function names fails the kernel with a message.
#pragma once

#include "kernel_operator.h"

namespace AscendC::npurt_detail {
template <typename T>
inline void AscDumpLocal(const T* addr, uint32_t desc, uint32_t size, const char* memory, const char* what) {
  uint64_t offset = 0;
  const char* place = LocalDumpPlace(addr, static_cast<uint64_t>(size) * sizeof(T), &offset, what);
  if (std::strcmp(place, memory) != 0) {
    Fail("%s: the address %p is in the core's %s, not in its %s", what, static_cast<const void*>(addr), place, memory);
  }
  if constexpr (kDumpOn) DumpLocal(addr, desc, size, what);
}
}  // namespace AscendC::npurt_detail

template <typename T>
__aicore__ inline void asc_dump_gm(__gm__ T* addr, uint32_t desc, uint32_t size) {
  if constexpr (AscendC::npurt_detail::kDumpOn) AscendC::npurt_detail::DumpGlobal(addr, desc, size, "asc_dump_gm");
}
template <typename T>
__aicore__ inline void asc_dump_ubuf(__ubuf__ T* addr, uint32_t desc, uint32_t size) {
  AscendC::npurt_detail::AscDumpLocal(addr, desc, size, "UB", "asc_dump_ubuf");
}
template <typename T>
__aicore__ inline void asc_dump_l1buf(__cbuf__ T* addr, uint32_t desc, uint32_t size) {
  AscendC::npurt_detail::AscDumpLocal(addr, desc, size, "L1", "asc_dump_l1buf");
}
template <typename T>
__aicore__ inline void asc_dump_cbuf(__cc__ T* addr, uint32_t desc, uint32_t size) {
  AscendC::npurt_detail::AscDumpLocal(addr, desc, size, "L0C", "asc_dump_cbuf");
}
