// Compiling and running one operator on host tensors, for the kernel tests (no device involved: the op
// layer does not care where memory lives).
#pragma once

#include <string>
#include <vector>

#include "ops/op_compiler.h"
#include "ops/op_launch.h"
#include "ref_util.h"

namespace npurt::ops {

using npurt_test::HostTensor;

struct Result {
  Status status;
  std::vector<HostTensor> outputs;
};

// Compiles `type` for the inputs and requested outputs, runs it and returns the outputs.
inline Result RunOp(const std::string& type, std::vector<HostTensor*> inputs, std::vector<HostTensor> requested,
           const AttrMap& attrs = {}, int32_t format = ACL_FORMAT_ND, std::vector<int32_t> in_formats = {}) {
  OpCall call;
  call.type = type;
  call.attrs = &attrs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    call.inputs.push_back(TensorSpec{inputs[i]->dtype, i < in_formats.size() ? in_formats[i] : format, inputs[i]->dims});
  }
  for (const auto& r : requested) call.requested.push_back(TensorSpec{r.dtype, format, r.dims});
  Result res;
  auto op = CompileOp(call);
  if (!op.ok()) {
    res.status = op.status();
    return res;
  }
  BoundBuffers bound;
  for (auto* in : inputs) bound.inputs.push_back(in->bytes.data());
  for (const auto& spec : op.value()->outputs) {
    res.outputs.emplace_back(static_cast<aclDataType>(spec.dtype), spec.dims);
  }
  for (auto& out : res.outputs) bound.outputs.push_back(out.bytes.data());
  res.status = RunNow(*op.value(), bound, 2);
  return res;
}

}  // namespace npurt::ops
