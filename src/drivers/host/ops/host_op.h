// What an operator is to the host backend (host_op_backend.h): a schema (name, input count, how to
// validate, infer and compile it) and, once compiled, a Kernel that runs on the host CPU.
//
// Compiling = validating the call, inferring the output specs and building the executable form (a
// oneDNN primitive with its layouts, or the tiling of an npurt kernel). A compiled kernel is
// immutable and may run on several streams at once: per-run state lives in the run's scratch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/op_attrs.h"
#include "base/tensor_spec.h"

namespace npurt::drivers::host {

// Pointers of one run, in schema order, already validated against the specs.
struct OpRunArgs {
  const void* const* inputs = nullptr;
  void* const* outputs = nullptr;
  int threads = 1;  // compute threads this run may use (OpenMP team size)
  // A kernel built with OpBuild::shape_slots: its inputs' then its outputs' shape slots (hal::Dispatch::shapes).
  // A kernel whose output shape depends on the data (NonZero) writes its outputs' actual dims there.
  int64_t* const* shapes = nullptr;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  // Runs on an executor of the simulated device; returns OK or the failure reported on the stream.
  virtual Status Run(const OpRunArgs& args) const = 0;
  // The kernel a build may re-tile (OpBuild::reuse): itself, or the kernel a wrapper runs.
  virtual const Kernel* compiled() const { return this; }
};

// The state of one compilation. Ops read `inputs`, `requested` (the caller's output descriptors, whose
// dims may be dynamic) and `attrs`; they fill `outputs` and, when `compile` is set, `kernel`.
struct OpBuild {
  std::string_view type;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> requested;
  const AttrMap* attrs = nullptr;
  bool compile = true;
  // Per input, or null for none: data constant for the kernel's lifetime (hal::OpRequest::constants), in
  // the types of `inputs` (the backend widens fp16 constants for fp16_via_fp32 builds). A kernel may derive
  // what it keeps from it at build (weights in its primitive's layout) and then ignore that input's pointer
  // at run time. Read it through ConstantInput.
  const std::vector<const void*>* constants = nullptr;
  // The call's input specs before the backend widened them (fp16_via_fp32), or null when `inputs` are
  // the call's own: for kernels whose rounding follows the stored types (GEMM's steps).
  const std::vector<TensorSpec>* stored_inputs = nullptr;
  // A kernel this backend built for a call of the same type, attributes, data types, ranks and constants at
  // other shapes (hal::OpRequest::reuse), or null. A build whose kernel generates code (oneDNN's) may
  // return one sharing that kernel's code, re-tiled for these shapes, and set `reused`; npurt's own kernels
  // generate none (their build is their tiling) and ignore it.
  const Kernel* reuse = nullptr;
  // The run will have shape slots (hal::OpRequest::shape_slots): an operator whose output shape depends on
  // the data (NonZero) compiles only then, its `outputs` being upper bounds (what its buffers are planned for).
  bool shape_slots = false;

  std::vector<TensorSpec> outputs;
  std::unique_ptr<Kernel> kernel;
  bool reused = false;
};

using BuildFn = Status (*)(OpBuild& b);

struct OpSchema {
  const char* name;
  int min_inputs;
  int max_inputs;  // -1: any number >= min_inputs
  BuildFn build;
  // The build handles fp32/bf16 only; fp16 calls run as fp32 with conversions around them (oneDNN on
  // CPUs without AVX512-FP16 has no fp16 kernels).
  bool fp16_via_fp32 = false;
  const char* dtypes = "";   // documentation: supported data types
  const char* summary = "";  // documentation: inputs, outputs, attributes
  // An input position that may hold an absent input (a spec of ACL_DT_UNDEFINED: an optional input left
  // out, as the model loader passes it, also before later inputs): the build treats it as not given.
  // -1: none.
  int absent_input = -1;
};

// Registry of built-in operators (aliases share a schema).
const OpSchema* FindOp(std::string_view type);
std::vector<const OpSchema*> AllOps();
std::string SupportedOpList();
std::vector<std::string> OpTypeNames();  // sorted, aliases included

// Registration entry points of each kernel family (called once by the registry).
struct OpTable;
void RegisterElementwiseOps(OpTable& t);
void RegisterNnOps(OpTable& t);
void RegisterMatmulOps(OpTable& t);
void RegisterDataOps(OpTable& t);
void RegisterDataDependentOps(OpTable& t);

struct OpTable {
  virtual ~OpTable() = default;
  virtual void Add(const OpSchema& schema) = 0;
  virtual void Alias(const char* alias, const char* name) = 0;
};

// Helpers for builds.
// The constant data of `input`, or null when it is a runtime input.
inline const void* ConstantInput(const OpBuild& b, size_t input) {
  return b.constants != nullptr && input < b.constants->size() ? (*b.constants)[input] : nullptr;
}
Status ExpectDTypes(const OpBuild& b, size_t input, std::initializer_list<int32_t> allowed);
Status SameDType(const OpBuild& b, size_t a, size_t c);
// Normalises a possibly negative axis against `rank`.
StatusOr<int64_t> NormAxis(const OpBuild& b, int64_t axis, size_t rank);
// Numpy broadcasting of two shapes.
StatusOr<std::vector<int64_t>> BroadcastShapes(const OpBuild& b, const std::vector<int64_t>& x,
                                               const std::vector<int64_t>& y);
// Requested output dtype if given, else `fallback`.
int32_t RequestedDType(const OpBuild& b, size_t output, int32_t fallback);
int32_t RequestedFormat(const OpBuild& b, size_t output, int32_t fallback);

// Per-thread scratch memory of at least `bytes`, valid until the next call on this thread (kernels use
// it for conversions and oneDNN scratchpads; runs never share it).
void* Scratch(size_t bytes, int slot = 0);

}  // namespace npurt::drivers::host
