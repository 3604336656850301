// Copies into simulated device memory. Device words are polled concurrently by value waits
// (aclrtValueWait, stream waits on memory) with atomic loads, as hardware polls memory that DMA engines
// write: a 4- or 8-byte aligned copy is therefore one atomic store, so that a poller never sees the
// word torn (and the C++ memory model sees no data race). Larger copies are plain memmove.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace npurt {

inline void CopyDeviceBytes(void* dst, const void* src, size_t n) {
  const auto d = reinterpret_cast<uintptr_t>(dst);
  if (n == 8 && d % 8 == 0) {
    uint64_t v;
    std::memcpy(&v, src, 8);
    __atomic_store_n(static_cast<uint64_t*>(dst), v, __ATOMIC_RELEASE);
  } else if (n == 4 && d % 4 == 0) {
    uint32_t v;
    std::memcpy(&v, src, 4);
    __atomic_store_n(static_cast<uint32_t*>(dst), v, __ATOMIC_RELEASE);
  } else {
    std::memmove(dst, src, n);
  }
}

}  // namespace npurt
