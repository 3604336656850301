// kernel_operator.h for npurt's simulated NPU: the Ascend C kernel programming interface, implemented
// for kernels that the host compiler builds (see docs/kernels.md for what is covered).
//
//   extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) { ... }
//
// The pieces: language spellings, half/bfloat16_t, block index and printf (npurt_kernel/base.h);
// GlobalTensor/LocalTensor (tensor.h); TPipe/TQue/TBuf over the core's unified buffer (pipe.h); DataCopy
// (data_copy.h); element-wise, scalar and unary vector operations, Duplicate (vector_ops.h); Cast and
// reductions (cast_reduce.h); atomic copies to global memory (atomic.h, through data_copy.h); SyncAll
// across the blocks of a launch (sync_all.h); the library APIs SoftMax, Pad, UnPad with their tilings
// (softmax_pad.h).
#ifndef NPURT_KERNEL_OPERATOR_H_
#define NPURT_KERNEL_OPERATOR_H_

#include "npurt_kernel/base.h"
#include "npurt_kernel/type_traits.h"
#include "npurt_kernel/tensor.h"
#include "npurt_kernel/pipe.h"
#include "npurt_kernel/data_copy.h"
#include "npurt_kernel/vector_ops.h"
#include "npurt_kernel/cast_reduce.h"
#include "npurt_kernel/sync_all.h"
#include "npurt_kernel/cube.h"
#include "npurt_kernel/workspace.h"
#include "npurt_kernel/vector_mask.h"
#include "npurt_kernel/vector_level0.h"
#include "npurt_kernel/vector_reduce.h"
#include "npurt_kernel/cast_level0.h"
#include "npurt_kernel/compare_select.h"
#include "npurt_kernel/vector_fused.h"
#include "npurt_kernel/gather_mask.h"
#include "npurt_kernel/fill_brcb.h"
#include "npurt_kernel/sort.h"
#include "npurt_kernel/proposal.h"
#include "npurt_kernel/broadcast.h"
#include "npurt_kernel/kernel_assert.h"
#include "npurt_kernel/softmax_pad.h"
#include "npurt_kernel/static_tensor.h"
#include "npurt_kernel/std.h"
#include "npurt_kernel/scalar.h"
#include "npurt_kernel/init_const.h"
#include "npurt_kernel/list_tensor.h"
#include "npurt_kernel/block_sync_debug.h"
#include "npurt_kernel/adv_cumsum.h"
#include "npurt_kernel/adv_layernorm.h"
#include "npurt_kernel/adv_layernorm_v2.h"
#include "npurt_kernel/ascendc_utils.h"
#include "npurt_kernel/adv_math.h"
#include "npurt_kernel/adv_math_unary.h"
#include "npurt_kernel/adv_norm.h"
#include "npurt_kernel/adv_quant.h"
#include "npurt_kernel/adv_reduce.h"
#include "npurt_kernel/adv_select_reduce.h"
#include "npurt_kernel/adv_softmax.h"
#include "npurt_kernel/adv_softmax_flashv3.h"
#include "npurt_kernel/scalar_minmax.h"
#include "npurt_kernel/adv_sort.h"
#include "npurt_kernel/adv_welford.h"

#endif  // NPURT_KERNEL_OPERATOR_H_
#include "npurt_kernel/kernel_assert_macro.h"  // outside the guard: assert after a later <cassert> (kernel_assert.h)
