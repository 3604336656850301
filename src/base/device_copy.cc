#include "base/device_copy.h"

#include <cstring>

namespace npurt {

void CopyDeviceBytes(void* dst, const void* src, size_t n) {
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

void CopyDeviceRows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  for (size_t r = 0; r < rows; ++r) std::memmove(d + r * dpitch, s + r * spitch, width);
}

void FillDeviceBytes(void* dst, uint8_t value, size_t n) { std::memset(dst, value, n); }

void FillDeviceWords(uint32_t* dst, uint32_t value, size_t count) {
  for (size_t i = 0; i < count; ++i) dst[i] = value;
}

}  // namespace npurt
