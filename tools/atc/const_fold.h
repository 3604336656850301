// Constant folding: evaluating, at conversion time, ONNX nodes whose inputs are all known (initializers,
// Constant nodes, shapes of statically shaped tensors). This is how the Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape chains of PyTorch exports, ConstantOfShape/Range/Where of position ids and
// transposed weights become plain constants. Nothing here runs at inference time.
//
// Integers compute in int64, floating point in double, and results are stored in the ONNX result type.
#pragma once

#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "base/status.h"
#include "graph.h"

namespace npurt::atc {

// True if FoldNode can evaluate op_type (given constant inputs).
bool CanFold(const std::string& op_type);

// Evaluates `node`; inputs[i] is null for an omitted optional input. An error says why the node cannot be
// evaluated (bad values, unsupported data type).
StatusOr<std::vector<HostTensor>> FoldNode(const onnx::NodeProto& node, const std::vector<const HostTensor*>& inputs,
                                           int64_t opset);

// The values of an integer constant (int32/int64/...) or a float one truncated, as int64.
std::vector<int64_t> IntValues(const HostTensor& t);
std::vector<double> DoubleValues(const HostTensor& t);
HostTensor MakeInts(const std::vector<int64_t>& values, std::vector<int64_t> dims, int32_t dtype = 9);
HostTensor MakeDoubles(const std::vector<double>& values, std::vector<int64_t> dims, int32_t dtype = 0);

}  // namespace npurt::atc
