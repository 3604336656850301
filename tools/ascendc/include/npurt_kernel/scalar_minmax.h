// The scalar min / max that CANN's kernel compiler provides as built-ins in the global namespace (kernels call
// them unqualified, e.g. min(baseM, rowNum)). One overload per scalar type, so an unqualified call still picks
// the standard template where a kernel brings std::min into scope and both fit equally. Part of
// kernel_operator.h.
#pragma once

#include <cstdint>

#include "npurt_kernel/tensor.h"

#define NPURT_SCALAR_MINMAX(type)                                            \
  __aicore__ inline type min(type a, type b) { return b < a ? b : a; }       \
  __aicore__ inline type max(type a, type b) { return a < b ? b : a; }
NPURT_SCALAR_MINMAX(int16_t)
NPURT_SCALAR_MINMAX(uint16_t)
NPURT_SCALAR_MINMAX(int32_t)
NPURT_SCALAR_MINMAX(uint32_t)
NPURT_SCALAR_MINMAX(int64_t)
NPURT_SCALAR_MINMAX(uint64_t)
NPURT_SCALAR_MINMAX(float)
NPURT_SCALAR_MINMAX(half)
#undef NPURT_SCALAR_MINMAX
