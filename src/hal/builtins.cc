// The parameter helpers of the built-ins (hal/builtins.h) that both core (validating a submission) and a
// driver (running it) need.
#include "hal/builtins.h"

#include <cstring>

#include "base/dtype.h"

namespace npurt::hal {

size_t RandomElementSize(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT16: case ACL_BF16: case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_INT64:
    case ACL_UINT64: return DTypeSize(dtype);
    default: return 0;
  }
}

uint64_t RandomResultBytes(RandomFunction function, int32_t dtype, uint64_t n) {
  if (function == RandomFunction::kDropoutBitmask) return (n + 7) / 8;
  return n * RandomElementSize(dtype);
}

uint64_t RandomParamBits(const RandomParam& p) {
  uint64_t bits = 0;
  const size_t n = p.size < sizeof bits ? p.size : sizeof bits;
  if (p.is_addr) {
    const void* addr = nullptr;
    std::memcpy(&addr, p.value_or_addr, sizeof addr);
    std::memcpy(&bits, addr, n);
  } else {
    std::memcpy(&bits, p.value_or_addr, n);
  }
  return bits;
}

bool RandomUniformRangeValid(int32_t dtype, uint64_t lo, uint64_t hi) {
  switch (dtype) {
    case ACL_INT32: return static_cast<int32_t>(hi) > static_cast<int32_t>(lo);
    case ACL_INT64: return static_cast<int64_t>(hi) > static_cast<int64_t>(lo);
    case ACL_UINT32: return static_cast<uint32_t>(hi) > static_cast<uint32_t>(lo);
    case ACL_UINT64: return hi > lo;
    default: return true;
  }
}

}  // namespace npurt::hal
