// The aclrtMalloc + aclrtFree pair that alloc.cc (one thread) and alloc_bench.cc (two threads, and the
// driver-allocation ratio) time: one block size and batch for both, so that their ratios compare like with
// like.
#pragma once

#include <cstddef>

namespace npurt_bench {

inline constexpr size_t kSize = 4096;  // bytes per allocation
inline constexpr int kBatch = 64;      // pairs per timed batch

}  // namespace npurt_bench
