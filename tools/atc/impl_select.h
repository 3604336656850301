// Implementation choices that atc's options make on the graph's nodes, as attributes the backend reads
// (drivers/host/ops/kernels/conv.cc), after the fusion passes and before the layout pass (converter.cc):
//   SelectConvAlgorithms  --op_select_implmode: a Conv2D whose implementation mode is high_performance
//                         (CANN's default) and which Winograd serves (a 3x3 filter, stride 1, no dilation, one
//                         group, fp32) gets attr algorithm "winograd"; high_precision keeps the direct algorithm
//   SelectComputeTypes    --precision_mode allow_mix_precision_bf16 / allow_fp32_to_bf16 and --precision_mode_v2
//                         mixed_bfloat16: every fp32 Conv2D gets attr compute_dtype "bfloat16" (fp32 tensors,
//                         bf16 arithmetic with fp32 accumulation where the CPU running the model has AVX512-BF16)
//   ChainBf16Activations  after the layout pass: an NC1HWC0 tensor that one bf16 Conv2D writes (without a fused
//                         residual add) and only bf16 Conv2Ds read, as their x, is stored in bf16 (the writer
//                         gets attr dst_dtype "bfloat16"): half the bytes, and no conversion on either side
// Each returns how many nodes (tensors for the last) it marked (atc's info log).
#pragma once

#include <string>

#include "atc_options.h"
#include "graph.h"

namespace npurt::atc {

// Whether --op_select_implmode (with --optypelist_for_implmode) asks op_type for high-performance
// implementations: the default, high_performance[_for_all], or high_precision with a list that leaves it out.
bool HighPerformanceImpl(const Options& opts, const std::string& op_type);
// Whether the precision options let fp32 convolutions compute in bf16.
bool Bf16Compute(const Options& opts);

int SelectConvAlgorithms(Graph& g, const Options& opts);
int SelectComputeTypes(Graph& g, const Options& opts);
int ChainBf16Activations(Graph& g);

}  // namespace npurt::atc
