// Lowering: the ONNX graph (in its topological order) into atc's backend Graph. Each ONNX node is
//   - evaluated now if its inputs are constant (const_fold.h), or if it is Shape/Size of a statically
//     shaped tensor;
//   - otherwise lowered by its mapper (mappers.h) into backend operators, each validated and shape-
//     inferred through the runtime's operator backend (core::BuildOperator), whose inferred shapes are
//     checked against ONNX shape inference.
// Nodes that cannot be converted are collected, not stopped at: the error lists every one of them with
// its name, type, opset and reason.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include <onnx/onnx_pb.h>

#include "atc_options.h"
#include "base/status.h"
#include "graph.h"

namespace npurt::atc {

struct LoweringResult {
  Graph graph;
  int64_t nodes_folded = 0;   // ONNX nodes evaluated at conversion time
  int64_t nodes_lowered = 0;  // ONNX nodes that became backend operators (or aliases)
};

// Initializers converted once, by name: the runtime's shape compiler converts a model's initializers when it
// opens it and lowers each new set of shapes from a copy of the graph whose initializers are hollow (name,
// type and dims only), so no compile copies or converts the weights again.
using InitializerStore = std::unordered_map<std::string, std::shared_ptr<const HostTensor>>;

// `model_dir`: where external tensor data lives. `opts`: input formats, out_nodes. `initializers`: where the
// initializers' values are when the graph's own are hollow (null: the graph's).
StatusOr<LoweringResult> LowerOnnxGraph(const onnx::ModelProto& model, int64_t opset, const Options& opts,
                                        const std::string& model_dir,
                                        const InitializerStore* initializers = nullptr);

}  // namespace npurt::atc
