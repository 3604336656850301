// The tensor dump of one operator run (docs/dump.md): planned when the operator is launched or recorded
// (it snapshots the configuration and reserves the task id the files are named after), written on the
// executing thread around the run, in stream order: inputs right before the kernel runs, outputs right
// after, so the files hold what the operator really read and wrote. Single operators (ops/op_dump.cc) and
// the operators of loaded models (models/runtime/loaded_model.cc) dump through it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/tensor_spec.h"
#include "core/dump/dump_config.h"

namespace npurt::core {
class Stream;
}

namespace npurt::core::dump {

struct TensorDumpPlan {
  std::shared_ptr<const Config> config;
  std::string dir;     // <dump_path>/<session>/<device>
  std::string base;    // <op type>.<op name>.<task id>.<stream id>
  std::string prefix;  // <dir>/<base>.<timestamp>: set when the run starts
  std::string csv;     // stats mode: the rows of this execution
  std::vector<uint8_t> staging;  // the tensor being dumped, read from the device (reused across tensors)
  bool failed = false;  // a file could not be written (logged once per execution)
};

// The plan of an operator of type `type` named `name` on `stream`, or null when no tensor dump is on or its
// configuration does not select this operator; with a plan, *task_id is the task id reserved for the run.
std::unique_ptr<TensorDumpPlan> PlanTensorDump(const std::string& type, const char* name, Stream* stream,
                                               uint32_t* task_id);

// On the executing thread: before the run (starts a new execution's files) and after it (`ran`: the run
// succeeded, so its outputs are worth dumping). `data[i]` is tensor i's device address (null: absent).
void DumpInputs(TensorDumpPlan& plan, const std::vector<TensorSpec>& specs, const void* const* data);
void DumpOutputs(TensorDumpPlan& plan, const std::vector<TensorSpec>& specs, const void* const* data, bool ran);

}  // namespace npurt::core::dump
