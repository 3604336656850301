// Operator dump (docs/dump.md): the inputs and outputs of every operator run while an operator dump is
// configured (aclInit JSON / aclmdlSetDump "dump" section), and the operator info files of
// aclopStartDumpArgs.
//
// A launch asks PlanOpDump only when core::dump::Switches() is non-zero (one relaxed load on the launch
// path otherwise). The plan is made at launch (it snapshots the config and reserves the task id the files
// are named after); the bytes are read on the executing thread, in stream order: inputs right before
// the kernel runs, outputs right after, so they are what the operator really read and wrote.
#pragma once

#include <cstdint>
#include <memory>

#include "core/dump/tensor_dump.h"
#include "ops/op_compiler.h"
#include "ops/op_launch.h"

namespace npurt::core {
class Stream;
}

namespace npurt::ops {

// The tensor-dump plan of one launch (core/dump/tensor_dump.h, shared with the operators of loaded models).
using OpDumpPlan = core::dump::TensorDumpPlan;
using OpDumpPlanPtr = std::unique_ptr<OpDumpPlan>;

// Writes the operator info file (argument dump) and returns the tensor-dump plan of this launch (null
// when the op is not dumped); with a plan, task->id is reserved for the launch's task.
OpDumpPlanPtr PlanOpDump(const CompiledOp& op, const char* name, core::Stream* stream, uint32_t* task_id);

// On the executing thread, around the kernel run.
void DumpOpInputs(OpDumpPlan& plan, const CompiledOp& op, const BoundBuffers& bound);
void DumpOpOutputs(OpDumpPlan& plan, const CompiledOp& op, const BoundBuffers& bound, bool ran);

}  // namespace npurt::ops
