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
#include <memory>
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

// A constant tensor's bytes, shared between copies until one of them writes: the lowering binds an initializer's
// bytes to the graph without copying them, and in the runtime's shape compiler every compile of a model shares
// the session's initializers (a BERT layer's 28 MB were copied three times per new shape before). Writing
// (the non-const data(), resize) first takes a private copy when the bytes are shared.
class ConstBytes {
 public:
  ConstBytes() = default;
  ConstBytes(std::vector<uint8_t> bytes)  // NOLINT: a constant's bytes, as computed
      : bytes_(std::make_shared<const std::vector<uint8_t>>(std::move(bytes))), own_(true) {}
  // The bytes of `owner` (kept alive), not copied.
  static ConstBytes Of(const std::shared_ptr<const HostTensor>& owner) {
    ConstBytes b;
    if (owner != nullptr) b.bytes_ = std::shared_ptr<const std::vector<uint8_t>>(owner, &owner->bytes);
    return b;
  }
  size_t size() const { return bytes_ == nullptr ? 0 : bytes_->size(); }
  bool empty() const { return size() == 0; }
  const uint8_t* data() const { return bytes_ == nullptr ? nullptr : bytes_->data(); }
  uint8_t* data() { return Own().data(); }
  void resize(size_t n) { Own().resize(n, 0); }
  const std::vector<uint8_t>& vector() const { return bytes_ == nullptr ? Empty() : *bytes_; }
  // Which storage these bytes are (equal for copies that share it): the weight packer remembers where
  // pinned storage went (weight_packing.h).
  const void* identity() const { return bytes_.get(); }

 private:
  static const std::vector<uint8_t>& Empty() {
    static const std::vector<uint8_t> empty;
    return empty;
  }
  std::vector<uint8_t>& Own() {
    if (bytes_ == nullptr || !own_ || bytes_.use_count() > 1) {
      bytes_ = std::make_shared<std::vector<uint8_t>>(bytes_ == nullptr ? std::vector<uint8_t>() : *bytes_);
      own_ = true;
    }
    // Sole owner of a vector made by this class (never a HostTensor's bytes, which Of() only shares).
    return const_cast<std::vector<uint8_t>&>(*bytes_);
  }
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
  bool own_ = false;  // bytes_ is a vector this class made (not aliased from a HostTensor)
};

enum class TensorKind : uint8_t { kInput, kConstant, kIntermediate };

struct Tensor {
  std::string name;
  TensorSpec spec;
  TensorKind kind = TensorKind::kIntermediate;
  ConstBytes data;  // kConstant
  int32_t input_index = -1;   // kInput: position among the model inputs
  // Its dims depend on the data (an output of NonZero, or computed from one): `spec` is the upper bound its
  // bytes are planned for, and the model gives it a shape slot where the device keeps its actual dims.
  bool data_dependent = false;
  uint64_t varying_dims = 0;  // of a data-dependent tensor: bit k set when dim k follows the data (MarkVaryingDims)
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
  // Whether node n reads or writes a tensor whose dims depend on the data (it then tiles per run).
  bool Slotted(const Node& n) const;
};

// Marks the outputs of NonZero, and of every node that reads a data-dependent tensor, as data-dependent (after
// passes that add nodes: casts, output copies).
void PropagateDataDependence(Graph& g);
// The backend operators whose output shape depends on their input data.
bool ProducesDataDependentShape(const std::string& op_type);
// Whether the node's post_ops (a fused residual add: FuseResidualAdds) include "add".
bool FusesResidualAdd(const Node& n);

}  // namespace npurt::atc
