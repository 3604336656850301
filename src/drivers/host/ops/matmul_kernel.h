// The oneDNN matrix-product kernel behind MatMul, BatchMatMul, GEMM and CBLAS.
#pragma once

#include <memory>

#include "acl/acl_base_rt.h"
#include "drivers/host/ops/host_op.h"
#include "drivers/host/ops/kernels/post_ops.h"

namespace npurt::drivers::host {

struct MatmulConfig {
  int64_t m = 0, n = 0, k = 0;
  int64_t batch_a = 1, batch_b = 1;  // flattened batch counts (1 = broadcast)
  bool trans_a = false, trans_b = false, trans_c = false;
  int32_t a_dtype = ACL_FLOAT, b_dtype = ACL_FLOAT, c_dtype = ACL_FLOAT;
  // Input positions in OpRunArgs (A and B always 0 and 1); -1 = absent.
  int a_input = 0, b_input = 1;
  int bias_input = -1;
  int32_t bias_dtype = ACL_FLOAT;
  int c_input = -1, alpha_input = -1, beta_input = -1;  // GEMM
  int32_t scalar_dtype = ACL_FLOAT;                     // dtype of alpha/beta
  // Fused post-ops (kernels/post_ops.h), applied in order to the result (after GEMM's beta*C); the addend
  // of "add" is input `addend_input`, stored like the output.
  PostOpChain post;
  int addend_input = -1;
  // B's data when it is constant for the kernel's lifetime (OpBuild::constants), else null: then B is
  // reordered once, at build, into the layout the primitive prefers.
  const void* b_constant = nullptr;
  // GEMM: the 16-bit float type C is stored in (fp16, bf16; also when the kernel computes in fp32 for it),
  // whose rounding each step follows (matmul.cc); 0 for none.
  int32_t round_dtype = 0;
};

StatusOr<std::unique_ptr<Kernel>> MakeMatmulKernel(const MatmulConfig& config);

// Runs a small product through a runtime-rows primitive once per process, so that oneDNN's GEMM JIT (which
// re-tiled products run on) is generated now rather than in the first re-tiled kernel's run.
void WarmMatmulRetiling();

}  // namespace npurt::drivers::host
