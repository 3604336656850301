// atc's working form of a model: the backend graph that lowering (onnx_lowering.h) builds from the ONNX
// graph, that the passes (passes.h) rewrite and that model_assembly.h turns into an om::ModelDef.
//
// A Graph holds tensors and nodes. Nodes are backend operators (the op types and attributes of the
// runtime's operator backend, src/drivers/host/ops/), listed in execution order; each tensor is a model
// input, a constant (its bytes live here until the weights are packed) or an intermediate written by
// exactly one node. Tensor ids are indices into Graph::tensors and stay valid while passes run (a pass
// that drops a tensor leaves it unreferenced; assembly keeps only what the final nodes, inputs and
// outputs name).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/op_attrs.h"
#include "base/tensor_spec.h"

namespace npurt::atc {

inline constexpr int32_t kFloat = 0;  // ACL_FLOAT, the dtype passes and mappers most often name

// A constant value during conversion: initializers, Constant nodes and what constant folding computes.
struct HostTensor {
  int32_t dtype = -1;  // aclDataType
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;  // dense, row-major, little-endian

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
  TensorSpec spec() const { return TensorSpec{dtype, 2 /* ACL_FORMAT_ND */, dims}; }
};

enum class TensorKind : uint8_t { kInput, kConstant, kIntermediate };

struct Tensor {
  std::string name;
  TensorSpec spec;
  TensorKind kind = TensorKind::kIntermediate;
  std::vector<uint8_t> data;  // kConstant
  int32_t input_index = -1;   // kInput: position among the model inputs
};

struct Node {
  std::string name;         // unique in the graph
  std::string source_type;  // the ONNX op it came from ("Conv", "Gemm", ...)
  std::string op_type;      // the backend's operator
  AttrMap attrs;
  std::vector<int32_t> inputs;  // -1: an optional input left out
  std::vector<int32_t> outputs;
  // A Reshape that only renames bytes (from Reshape/Flatten/Squeeze/Unsqueeze): the planner may give its
  // output the input's memory (a view), in which case the node does not move anything at run time.
  bool view_candidate = false;
  // The source nodes fused into it, after its own (aclmdlGetOpAttr's _datadump_original_op_names).
  std::vector<std::string> origin_names;
};

struct Graph {
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;
  std::vector<int32_t> inputs;   // model inputs, in index order
  std::vector<int32_t> outputs;  // model outputs, in index order

  int32_t AddTensor(Tensor t) {
    tensors.push_back(std::move(t));
    return static_cast<int32_t>(tensors.size() - 1);
  }
  // For each tensor, the number of node inputs that read it.
  std::vector<int> UseCounts() const;
  // For each tensor, the index of the node that writes it (-1: none).
  std::vector<int> Producers() const;
};

}  // namespace npurt::atc
