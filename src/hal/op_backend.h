// Operator backends: how a driver turns an operator call (a type, tensor specs and attributes) into an
// executable of its devices (hal/executable.h). aclop, aclnn, CBLAS and the model executor all compile
// through the backend of the runtime's driver and dispatch what it built; the sim's backend is the host
// kernels on oneDNN (drivers/host/ops/). A driver without one returns null from Driver::op_backend, and
// the operator APIs refuse with ACL_ERROR_RT_FEATURE_NOT_SUPPORT. Part of the driver interface (hal/hal.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/op_attrs.h"
#include "base/status.h"
#include "base/tensor_spec.h"
#include "hal/executable.h"

namespace npurt::hal {

// One operator call. Input specs are static and of known data types (the op layer checked that);
// `requested` are the caller's output descriptors, whose dims may be dynamic (-1, unknown rank).
struct OpRequest {
  std::string_view type;
  const std::vector<TensorSpec>* inputs = nullptr;
  const std::vector<TensorSpec>* requested = nullptr;
  const AttrMap* attrs = nullptr;  // never null
  bool compile = true;             // false: validate and infer the outputs only (aclopInferShape)
  // Optional, one entry per input: a host-readable pointer to that input's data when the data is constant
  // for the lifetime of the executable built (a model's weights), or null for an input that is only known
  // at dispatch. A backend may read such data at build time and keep what it derived from it (weights
  // reordered into a kernel's layout), and may then ignore the input's pointer at dispatch (which must
  // still be passed). The data must stay valid and unchanged while the executable lives. An executable
  // built with constants is specific to that data: no cache may share it between calls whose constants
  // differ. Null (the default): every input is a runtime input. The op layer (aclop and its compile cache)
  // never sets it; the model loader does, for inputs in a model's weight region.
  const std::vector<const void*>* constants = nullptr;
  // Optional: an executable this backend built before for a call of the same type, attributes, data types,
  // formats, ranks and constants, at other shapes (the op compile cache's and a dynamic-shape model's
  // previous compile of the operator). A backend whose kernel for this call would differ from it only in its
  // tiling (the code it generated serves any size of the dims that changed) may return an executable that
  // shares that code, re-tiled for this request's shapes, instead of generating code again
  // (OpBuilt::reused). It must outlive the build; the executable returned keeps what it shares alive.
  const Executable* reuse = nullptr;
  // Shapes that only the device knows (a model's tensors whose dims depend on the data, downstream of an
  // operator such as NonZero; docs/models.md, "Shapes that depend on the data"). The input and output specs
  // are then upper bounds, what the buffers were planned for, and every run reads each input's actual dims
  // from its shape slot in device memory and writes each output's to its own (Dispatch::shapes): the
  // executable tiles for the dims it reads (building and caching what a new shape needs), so no run goes back
  // to the host between operators. An operator whose output shape depends on its input data requires it.
  bool shape_slots = false;
};

struct OpBuilt {
  std::vector<TensorSpec> outputs;  // inferred
  // What a launch dispatches: its inputs and outputs are the tensors of the request, in order. Immutable,
  // and dispatched on several queues at once. Null when the request did not compile.
  std::unique_ptr<Executable> executable;
  bool reused = false;  // the executable shares OpRequest::reuse's code, re-tiled
};

// What the backend documents of one operator type.
struct OpInfo {
  std::string name;
  std::string dtypes;
  std::string summary;
};

class OpBackend {
 public:
  virtual ~OpBackend() = default;
  virtual const char* name() const = 0;
  // Validates the call against the operator's contract, infers its outputs and, with request.compile,
  // builds its executable. An unknown type is ACL_ERROR_OP_NOT_FOUND; a call the operator does not
  // accept is the ACL_ERROR_OP_* code that says why, with a message.
  virtual StatusOr<OpBuilt> Build(const OpRequest& request) const = 0;
  // Prepares, once per process, what kernels built later share and would otherwise prepare on their first run
  // (the code generator that re-tiled kernels use: oneDNN's GEMM JIT, ~40 ms once). Blocking and thread-safe;
  // callers run it off the critical path (a dynamic-shape model's specialising thread, at load). Default:
  // nothing to prepare.
  virtual void Warm() const {}
  // The operator types it supports (aliases included), sorted by name.
  virtual std::vector<std::string> OpTypes() const = 0;
  virtual std::vector<OpInfo> Ops() const = 0;
};

}  // namespace npurt::hal
