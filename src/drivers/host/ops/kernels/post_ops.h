// Fused post-ops of the oneDNN-backed operators (Conv2D, MatMul, BatchMatMul, GEMM): the attribute
// `post_ops`, a list of names applied in order to the operator's result inside its primitive (oneDNN
// post-ops), so that an activation or a residual add costs no separate pass over memory.
//
// Names: "relu"; "clip" (bounds from the float attributes clip_min and clip_max, default -inf and +inf;
// ReLU6 is clip 0..6); "sigmoid"; "swish" (x * sigmoid(x), SiLU); "gelu_erf"; "gelu_tanh"; "tanh";
// "add" (adds one more input, of the output's shape and data type, stored like the output: the residual of
// a ResNet block, the residual of a transformer layer). "add" may appear once. Anything else is
// ACL_ERROR_OP_ATTR_NOT_MATCH naming it.
//
// Input order: the operator's own inputs, then its optional bias where it has one, then the addend of "add"
// as the LAST input. A bias left out is either omitted (Conv2D x, filter, addend) or, in its place, an
// absent input: a spec of data type ACL_DT_UNDEFINED (what the model loader passes for a null optional
// input; its pointer at dispatch is ignored and may be null).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <vector>

#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {

struct PostOp {
  bool add = false;  // "add" (a binary add of the addend); else an eltwise of `alg`
  dnnl::algorithm alg = dnnl::algorithm::eltwise_relu;
  float alpha = 0.0f, beta = 0.0f;  // the eltwise's parameters (clip: lower and upper bound)
};

struct PostOpChain {
  std::vector<PostOp> ops;
  int add_index = -1;  // position of "add" in ops, -1 without one
  bool empty() const { return ops.empty(); }
  bool has_add() const { return add_index >= 0; }
};

// Reads post_ops (and clip_min / clip_max when "clip" is used) from the build's attributes.
StatusOr<PostOpChain> ReadPostOps(const OpBuild& b);

// Where an operator's trailing inputs are: `fixed` required inputs, then (when `bias_allowed`) an optional
// bias, then the addend when the chain has "add". -1: absent.
struct TrailingInputs {
  int bias = -1;
  int addend = -1;
};
StatusOr<TrailingInputs> LocateTrailingInputs(const OpBuild& b, size_t fixed, bool bias_allowed,
                                              const PostOpChain& chain);

// The addend must be of the output's data type and dims: ACL_ERROR_OP_INPUT_NOT_MATCH otherwise.
Status CheckAddend(const OpBuild& b, int input, const TensorSpec& output);

// Appends the chain to `po` (after what it holds: GEMM's sum); "add" reads a tensor described by `addend`
// (a binary add), or, with `add_as_sum`, is a sum post-op: the caller then puts the addend into dst before
// the primitive runs.
void AppendPostOps(const PostOpChain& chain, const dnnl::memory::desc& addend, dnnl::post_ops& po,
                   bool add_as_sum = false);

// The execution argument of the addend when the chain starts at post-op position `first` of the primitive.
inline int AddendArg(const PostOpChain& chain, int first = 0) {
  return DNNL_ARG_ATTR_MULTIPLE_POST_OP(first + chain.add_index) | DNNL_ARG_SRC_1;
}

}  // namespace npurt::drivers::host
