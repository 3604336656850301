#include "ops/op_launch.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/builtin_tasks.h"
#include "core/device.h"
#include "core/dump_config.h"
#include "core/memory_ops.h"
#include "core/overflow.h"
#include "core/racecheck.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "ops/op_dump.h"
#include "ops/op_prof.h"

namespace npurt::ops {
namespace {

std::atomic<int> g_running{0};

struct LaunchRecord {
  CompiledOpRef op;
  BoundBuffers bound;
  int cores;
  core::Device* check_overflow;  // the stream's overflow switch was on: check float outputs (core/overflow.h)
  OpDumpPlanPtr dump;            // an operator dump is on for this launch (ops/op_dump.h)
};

void CheckOutputs(const LaunchRecord& r) {
  for (size_t i = 0; i < r.op->outputs.size(); ++i) {
    const TensorSpec& spec = r.op->outputs[i];
    if (core::HasNonFinite(r.bound.outputs[i], static_cast<size_t>(spec.numel()), spec.dtype)) {
      core::RaiseOverflow(r.check_overflow);
      return;
    }
  }
}

int32_t RunRecord(void* arg) {
  auto* r = static_cast<LaunchRecord*>(arg);
  const int running = g_running.fetch_add(1, std::memory_order_acq_rel) + 1;
  const int threads = std::max(1, r->cores / running);
  omp_set_num_threads(threads);
  if (r->dump != nullptr) [[unlikely]] DumpOpInputs(*r->dump, *r->op, r->bound);
  Status st = RunNow(*r->op, r->bound, threads);
  g_running.fetch_sub(1, std::memory_order_acq_rel);
  if (r->dump != nullptr) [[unlikely]] DumpOpOutputs(*r->dump, *r->op, r->bound, st.ok());
  if (!st.ok()) {
    NPURT_LOG_ERROR("OP", "{} failed on the device: {}", r->op->type, st.message());
    return st.code();
  }
  if (r->check_overflow != nullptr) CheckOutputs(*r);
  return 0;
}

void FreeRecord(void* arg) { delete static_cast<LaunchRecord*>(arg); }

// The race detector (core/racecheck.h): the run reads its inputs and writes its outputs.
void DeclareRaceAccesses(const CompiledOp& op, const BoundBuffers& bound, const char* name) {
  std::vector<core::racecheck::Range> reads, writes;
  for (size_t i = 0; i < bound.inputs.size() && i < op.inputs.size(); ++i) {
    reads.push_back({bound.inputs[i], op.inputs[i].bytes()});
  }
  for (size_t i = 0; i < bound.outputs.size() && i < op.outputs.size(); ++i) {
    writes.push_back({bound.outputs[i], op.outputs[i].bytes()});
  }
  core::racecheck::DeclareCompute(name != nullptr ? name : op.type.c_str(), std::move(reads), std::move(writes));
}

int Cores(core::Stream* stream) {
  static const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int aicores = static_cast<int>(stream->device()->info().aicore_count);
  return std::clamp(aicores, 1, hw);
}

}  // namespace

Status CheckDeviceRange(const void* ptr, size_t bytes, core::Stream* stream, const char* what) {
  auto span = core::ResolveSpan(ptr, bytes, what);
  if (!span.ok()) return std::move(span).status();
  if (span->device == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} {} is host memory; operators need device memory (aclrtMalloc)", what,
               ptr);
  }
  if (span->device != stream->device()) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} {} is memory of device {}, but the stream runs on device {}", what, ptr,
               span->device->id(), stream->device()->id());
  }
  return Status::Ok();
}

namespace {

// CheckDeviceRange for tensor `index` of `kind` ("input", "output"). Its name ("input 1") is formatted only
// when the check fails: formatting it for every tensor of every launch cost more than the check.
Status CheckTensorRange(const void* ptr, size_t bytes, core::Stream* stream, const char* kind, size_t index) {
  Status first = CheckDeviceRange(ptr, bytes, stream, kind);
  if (first.ok()) return first;
  char what[48];
  snprintf(what, sizeof(what), "%s %zu", kind, index);
  Status named = CheckDeviceRange(ptr, bytes, stream, what);
  return named.ok() ? first : named;  // (the memory changed in between: the first answer stands)
}

}  // namespace

Status BindBuffers(const CompiledOp& op, const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs,
                   core::Stream* stream, BoundBuffers* bound, const std::vector<const std::vector<uint8_t>*>* consts) {
  // Buffers past the operator's inputs are those of omitted optional inputs (CANN's placeholder: a null
  // data buffer, or none), which the operator was compiled without.
  size_t given = inputs.size();
  while (given > op.inputs.size() && (!inputs[given - 1].present || (inputs[given - 1].data == nullptr &&
                                                                      inputs[given - 1].size == 0))) {
    --given;
  }
  if (given != op.inputs.size() || outputs.size() != op.outputs.size()) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: {} input(s) and {} output(s) given, the operator was compiled for {} and {}",
               op.type, inputs.size(), outputs.size(), op.inputs.size(), op.outputs.size());
  }
  bound->inputs.resize(op.inputs.size());
  bound->outputs.resize(op.outputs.size());
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const size_t need = op.inputs[i].bytes();
    const UserBuffer& b = inputs[i];
    if (!b.present) {
      const std::vector<uint8_t>* c = consts != nullptr && i < consts->size() ? (*consts)[i] : nullptr;
      if (c == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{}: input buffer {} is a null pointer", op.type, i);
      if (c->size() < need) {
        return Err(ACL_ERROR_INVALID_PARAM, "{}: constant input {} holds {} bytes, the tensor needs {}", op.type, i,
                   c->size(), need);
      }
      bound->owned.push_back(*c);
      bound->inputs[i] = bound->owned.back().data();  // stable: moving the vector keeps its buffer
      continue;
    }
    bound->inputs[i] = b.data;
    if (need == 0) continue;
    if (b.data == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{}: input {} has no data (null address)", op.type, i);
    if (b.size < need) {
      return Err(ACL_ERROR_INVALID_PARAM, "{}: input buffer {} holds {} bytes, its tensor {} needs {}", op.type, i,
                 b.size, Describe(op.inputs[i]), need);
    }
    NPURT_RETURN_IF_ERROR(CheckTensorRange(b.data, need, stream, "input", i));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const size_t need = op.outputs[i].bytes();
    const UserBuffer& b = outputs[i];
    if (!b.present) return Err(ACL_ERROR_INVALID_PARAM, "{}: output buffer {} is a null pointer", op.type, i);
    bound->outputs[i] = b.data;
    if (need == 0) continue;
    if (b.data == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{}: output {} has no data (null address)", op.type, i);
    if (b.size < need) {
      return Err(ACL_ERROR_INVALID_PARAM, "{}: output buffer {} holds {} bytes, its tensor {} needs {}", op.type, i,
                 b.size, Describe(op.outputs[i]), need);
    }
    NPURT_RETURN_IF_ERROR(CheckTensorRange(b.data, need, stream, "output", i));
  }
  return Status::Ok();
}

Status RunNow(const CompiledOp& op, const BoundBuffers& bound, int threads) {
  KernelArgs args{bound.inputs.data(), bound.outputs.data(), threads};
  return op.kernel->Run(args);
}

int ComputeThreads(core::Stream* stream) { return std::max(1, Cores(stream) / (g_running.load() + 1)); }

Status Launch(CompiledOpRef op, BoundBuffers bound, core::Stream* stream, const char* name) {
  core::Device* check = core::OverflowChecked(stream) ? stream->device() : nullptr;
  auto* r = new LaunchRecord{std::move(op), std::move(bound), Cores(stream), check, nullptr};
  uint32_t task_id = 0;  // assigned here when a dump or the profile names the task, else by the stream
  if (core::dump::Switches() != 0) [[unlikely]] r->dump = PlanOpDump(*r->op, name, stream, &task_id);
  TagOpTask(r->op, name, static_cast<uint32_t>(r->cores), &task_id);  // before Submit: the run may free r
  if (core::racecheck::On()) [[unlikely]] DeclareRaceAccesses(*r->op, r->bound, name);
  core::SubmitComputeTask(stream, &RunRecord, r, &FreeRecord, task_id);
  return Status::Ok();
}

}  // namespace npurt::ops
