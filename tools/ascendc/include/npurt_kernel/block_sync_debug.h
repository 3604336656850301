// The synchronisation of blocks through global memory and the kernel-side debugging helpers of the sim:
// IBSet/IBWait, ordered execution, GroupBarrier (block_sync.h); scalar global-memory access and the data
// cache (gm_scalar.h); DumpTensor (dump_tensor.h). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/block_sync.h"
#include "npurt_kernel/gm_scalar.h"
#include "npurt_kernel/dump_tensor.h"
