// Element-wise reductions of the collectives, for every data type and reduce op they accept. The engines
// reduce device memory in place on the host side of the simulated device (its memory is host-addressable)
// or staged bytes that arrived from another process; both use these loops.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/op_args.h"

namespace npurt::hccl {

// out[i] = in[0][i] op in[1][i] op ... op in[n-1][i] for i in [0, count). `out` may be one of the inputs
// (every input element i is read before out[i] is written). The caller checked ReduceSupported.
using ReduceManyFn = void (*)(void* out, const void* const* in, size_t n, size_t count);
// dst[i] = dst[i] op src[i].
using ReduceInPlaceFn = void (*)(void* dst, const void* src, size_t count);

struct ReduceKernels {
  ReduceManyFn many = nullptr;
  ReduceInPlaceFn in_place = nullptr;
};

// The kernels of (dtype, op), or {} when the pair cannot be reduced.
ReduceKernels FindReduce(DataType dtype, ReduceOp op);

// Why (dtype, op) cannot be reduced, or nullptr when it can: unknown op; a type without arithmetic (the
// 8-bit float formats, int128); PROD of int16 or bf16, as HCCL refuses.
const char* ReduceRefusal(DataType dtype, ReduceOp op);

}  // namespace npurt::hccl
