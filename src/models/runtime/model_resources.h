// What a loaded model's recorded tasks point at (loaded_model.cc and shape_variants.cc share it): the node
// records, the device memory the runtime allocated, and references to other such bundles, all kept until
// the last reference goes (a recorded RI's last task holds one until its last replay finished).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_spec.h"
#include "core/dump/tensor_dump.h"
#include "core/operators.h"

namespace npurt::core {
class Context;
}  // namespace npurt::core

namespace npurt::models {

// What the recorded tasks point at: kept until the RI's last reference goes (its final task's cleanup).
struct NodeRecord {
  std::string name;
  std::shared_ptr<const core::OperatorProgram> program;
  core::OperatorDispatch dispatch;
  // A tensor dump configured when the model was loaded (aclmdlInitDump + aclmdlSetDump before the load, as
  // in CANN): host work recorded around the node reads its tensors at every replay (core/dump/tensor_dump.h).
  std::unique_ptr<core::dump::TensorDumpPlan> dump;
  std::vector<TensorSpec> in_specs, out_specs;
  void** args = nullptr;  // the node's slots in the argument table: inputs, then outputs (patched per run)
  void* release = nullptr;  // the last node with a dump: the ModelResources its output dump task releases
  bool dumping = false;     // this execution dumps (set before the run, read after it: same stream, in order)
};

struct ModelResources {
  core::Context* context = nullptr;  // retained: its device's allocator frees what the model allocated
  std::vector<void*> owned;          // device memory the runtime allocated for the model
  std::vector<std::vector<NodeRecord>> nodes;  // per recorded graph; each sized once (the RIs point into them)
  std::vector<ModelResources*> holds;          // references released with this bundle (weights, the arena)
  std::atomic<int> refs{1};
};

// A bundle holding one reference (its creator's), retaining `ctx`.
ModelResources* NewResources(core::Context* ctx);
// Drops one reference (a task cleanup's signature); the last frees the bundle and its memory.
void ReleaseResources(void* arg);
// Device memory of `bytes` owned by `res` (freed with it).
StatusOr<void*> AllocateFor(ModelResources* res, uint64_t bytes);

}  // namespace npurt::models
