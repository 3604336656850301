// The ONNX op -> backend operator mappers. Each mapper reads one ONNX node through a NodeContext and
// emits backend operators with exactly the attributes the backend's Build reads (src/drivers/host/ops/
// kernels/*.cc), following ONNX semantics (pads order, auto_pad, ceil_mode, Gemm's transposes and
// scales, Clip's bounds from inputs, Softmax's pre-13 coercion, ...). A mapper never computes on the host
// what belongs to inference: if the backend has no operator for something, the mapper fails with a reason.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "base/op_attrs.h"
#include "base/status.h"
#include "base/tensor_spec.h"
#include "graph.h"

namespace npurt::atc {

class NodeContext {
 public:
  virtual ~NodeContext() = default;
  virtual const onnx::NodeProto& node() const = 0;
  virtual int64_t opset() const = 0;

  // Inputs: present = given and not the empty name.
  virtual size_t num_inputs() const = 0;
  virtual bool has_input(size_t i) const = 0;
  virtual bool is_const(size_t i) const = 0;
  virtual const HostTensor& constant(size_t i) const = 0;  // is_const(i)
  virtual TensorSpec spec(size_t i) const = 0;
  // Whether input i's dims depend on the data (downstream of NonZero): spec(i) is then an upper bound, and the
  // mapper must not bake its dims into what it emits (a reshape's target is given relative to the input).
  virtual bool data_dependent(size_t i) const = 0;
  // The graph tensor of input i (a constant becomes a weight tensor).
  virtual int32_t tensor(size_t i) = 0;
  // A new constant (weight) tensor.
  virtual int32_t AddConstant(HostTensor value, const std::string& what) = 0;

  // Emits one backend operator; `out` receives its output tensors (validated and inferred by the backend).
  // out_dtypes: the requested output data types (-1: the backend's choice), one per output.
  virtual Status Emit(const std::string& op_type, AttrMap attrs, const std::vector<int32_t>& inputs,
                      std::vector<int32_t>* out, const std::vector<int32_t>& out_dtypes = {-1},
                      bool view_candidate = false) = 0;
  Status EmitOne(const std::string& op_type, AttrMap attrs, const std::vector<int32_t>& inputs, int32_t* out,
                 int32_t out_dtype = -1, bool view_candidate = false) {
    std::vector<int32_t> outs;
    NPURT_RETURN_IF_ERROR(Emit(op_type, std::move(attrs), inputs, &outs, {out_dtype}, view_candidate));
    *out = outs[0];
    return Status::Ok();
  }
  virtual const TensorSpec& tensor_spec(int32_t tensor) const = 0;
  // ONNX-order pads of a zero Pad in front of input i that the node must apply itself (empty: none).
  virtual std::vector<int64_t> pending_pads(size_t i) const = 0;
  // Binds output k to `tensor` padded by `pads` (Pad's mapper: the padding is left to the consumer).
  virtual void BindPadded(size_t k, int32_t tensor, std::vector<int64_t> pads) = 0;

  // Outputs of the ONNX node.
  virtual size_t num_outputs() const = 0;
  virtual bool output_used(size_t k) const = 0;
  virtual void Bind(size_t k, int32_t tensor) = 0;
  virtual void BindConst(size_t k, HostTensor value) = 0;
};

using MapFn = Status (*)(NodeContext& ctx);

// The mapper of an ONNX op type (default domain), or null.
MapFn FindMapper(const std::string& op_type);
std::vector<std::string> SupportedOnnxOps();

// Registration of the two mapper families.
void AddNnMappers(std::vector<std::pair<std::string, MapFn>>* table);
void AddTensorMappers(std::vector<std::pair<std::string, MapFn>>* table);

// Shared helpers.
Status MapFail(const std::string& reason);
// A scalar constant of `dtype` (float types and integers).
HostTensor ScalarOf(int32_t dtype, double value);

}  // namespace npurt::atc
