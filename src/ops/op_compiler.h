// Compiling an operator call into a CompiledOp (no caching here; see compile_cache.h): the driver's
// operator backend validates, infers and compiles (core/operators.h); this layer checks the caller's
// output descriptors against what the operator produces.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/op_attrs.h"
#include "base/status.h"
#include "base/tensor_spec.h"
#include "core/operators.h"

namespace npurt::ops {

// One operator call as the op layer sees it (descriptors already unwrapped).
struct OpCall {
  std::string_view type;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> requested;  // the caller's output descriptors
  const AttrMap* attrs = nullptr;     // never null (an empty map stands for "no attributes")
  // A program compiled before for this call's family at other shapes, which the backend may re-tile
  // (core::OperatorCall::reuse): the compile cache passes its family's latest entry. Null: none.
  const core::OperatorProgram* reuse = nullptr;
};

struct CompiledOp {
  std::string type;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;  // fully inferred, static shapes
  std::shared_ptr<const core::OperatorProgram> program;  // what a launch dispatches (core/operators.h)
  uint64_t compile_ns = 0;
  bool retiled = false;  // the program re-tiles OpCall::reuse's code instead of compiling its own
};
using CompiledOpRef = std::shared_ptr<const CompiledOp>;

// Validates the call, infers outputs and builds the kernel. Output descriptors must match what the op
// produces: equal dtype and dims, or dynamic dims (-1 / unknown rank) that the inferred shape fills.
StatusOr<CompiledOpRef> CompileOp(const OpCall& call);
// Only validation and shape inference (aclopInferShape).
StatusOr<std::vector<TensorSpec>> InferOp(const OpCall& call);

const AttrMap& EmptyAttrs();

}  // namespace npurt::ops
