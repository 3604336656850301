// Graph passes over the backend Graph, run in this order by the converter (converter.cc):
//   RemoveDeadNodes       nodes no model output depends on
//   FoldBatchNormIntoConv BatchNorm after a Conv2D with constant weights: the filter and bias absorb it
//                         (computed in fp32/double), the BatchNorm disappears
//   FuseGelu              the erf form x * 0.5 * (1 + erf(x / sqrt(2))) (PyTorch's export of GELU) -> Gelu
//   FuseLayerNorm         ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div [/Mul/Add] (LayerNorm before opset 17)
//                         -> LayerNorm
//   FuseLinearBias        BatchMatMul by a constant [K, N] then Add of a constant [N] -> MatMul with bias
//                         between two view Reshapes ([..., M, K] -> [B*M, K] and back)
//   FuseResidualAdds      (--fusion, on by default) an Add of a Conv2D/MatMul/GEMM result that only it reads
//                         and a tensor of the same shape ready before that node: the node's post-op "add"
//   FuseActivations       (--fusion) a Relu/Relu6/Sigmoid/Tanh/Clip/Gelu following Conv2D, MatMul or GEMM
//                         becomes one of that node's post_ops (drivers/host/ops/kernels/post_ops.h)
//   CastOutputs           (--output_type=FP16) a Cast to fp16 in front of each fp32 output
//   CastInputsFromFp16    (--input_fp16_nodes) the named fp32 inputs become fp16 inputs, each followed by a
//                         Cast to fp32 (run first: the model computes as it did)
//   EnsureOutputsWritten  a model output that is a model input, a constant or another output gets a copy
//                         node, since every output is written by a node of its own
//   ValidateWithBackend   every node compiled by the backend (compile=true) with its final input specs,
//                         its outputs equal to the recorded ones
// Each pass returns how many rewrites it made (for atc's info log).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "graph.h"

namespace npurt::atc {

int RemoveDeadNodes(Graph& g);
StatusOr<int> FoldBatchNormIntoConv(Graph& g);
int FuseGelu(Graph& g);
int FuseLayerNorm(Graph& g);
int FuseLinearBias(Graph& g);
int FuseResidualAdds(Graph& g);
int FuseActivations(Graph& g);
Status CastOutputs(Graph& g, int32_t dtype);
Status CastInputsFromFp16(Graph& g, const std::vector<std::string>& names);
Status EnsureOutputsWritten(Graph& g);
Status ValidateWithBackend(const Graph& g, bool compile);

// Output specs of `node` as the backend infers them (compile = false), or its error.
// Which dims of each data-dependent tensor follow the data (Tensor::varying_dims): the graph inferred again with
// every NonZero's count one less than its bound; the dims that change vary.
void MarkVaryingDims(Graph& g);

StatusOr<std::vector<TensorSpec>> InferNode(const Graph& g, const Node& node, bool compile);

}  // namespace npurt::atc
