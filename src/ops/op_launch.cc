#include "ops/op_launch.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/kernel/builtin_tasks.h"
#include "core/device.h"
#include "core/dump/dump_config.h"
#include "core/memory/memory_ops.h"
#include "core/operators.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "ops/op_dump.h"
#include "ops/op_prof.h"

namespace npurt::ops {
namespace {

// One launch: the compiled op, its bound buffers and the dispatch of its executable. The tasks of the
// launch (the dispatch, and the dump's host work around it when an operator dump is on) each hold a
// reference; the last one's cleanup frees it.
struct OpLaunch {
  CompiledOpRef op;
  BoundBuffers bound;
  core::OperatorDispatch run;
  OpDumpPlanPtr dump;  // an operator dump is on for this launch (ops/op_dump.h)
  std::atomic<int> refs{1};
};

void Release(void* arg) {
  auto* r = static_cast<OpLaunch*>(arg);
  if (r->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete r;
}

void FinishDispatch(void* arg) {
  auto* r = static_cast<OpLaunch*>(arg);
  r->run.Finish();
  Release(r);
}

void DumpInputs(void* arg) {
  auto* r = static_cast<OpLaunch*>(arg);
  DumpOpInputs(*r->dump, *r->op, r->bound);
}

void DumpOutputs(void* arg) {
  auto* r = static_cast<OpLaunch*>(arg);
  DumpOpOutputs(*r->dump, *r->op, r->bound, r->run.status() == 0);
}

// The race detector (core/racecheck/racecheck.h): the run reads its inputs and writes its outputs.
void DeclareRaceAccesses(const CompiledOp& op, const BoundBuffers& bound, const char* name) {
  std::vector<core::racecheck::Range> reads, writes;
  for (size_t i = 0; i < bound.inputs.size() && i < op.inputs.size(); ++i) {
    reads.push_back({bound.inputs[i], op.inputs[i].bytes()});
  }
  for (size_t i = 0; i < bound.outputs.size() && i < op.outputs.size(); ++i) {
    writes.push_back({bound.outputs[i], op.outputs[i].bytes()});
  }
  core::racecheck::DeclareDispatch(name != nullptr ? name : op.type.c_str(), std::move(reads), std::move(writes));
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
  return core::RunOperatorNow(*op.program, bound.inputs.data(), static_cast<uint32_t>(bound.inputs.size()),
                              bound.outputs.data(), static_cast<uint32_t>(bound.outputs.size()), threads,
                              op.type.c_str());
}

Status Launch(CompiledOpRef op, BoundBuffers bound, core::Stream* stream, const char* name) {
  auto* r = new OpLaunch;
  r->op = std::move(op);
  r->bound = std::move(bound);
  r->run.Bind(*r->op->program, r->bound.inputs.data(), static_cast<uint32_t>(r->bound.inputs.size()),
              r->bound.outputs.data(), static_cast<uint32_t>(r->bound.outputs.size()), stream,
              name != nullptr ? name : r->op->type.c_str());
  const int cores = Cores(stream);
  uint32_t task_id = 0;  // assigned here when a dump or the profile names the task, else by the stream
  if (core::dump::Switches() != 0) [[unlikely]] r->dump = PlanOpDump(*r->op, name, stream, &task_id);
  TagOpTask(r->op, name, static_cast<uint32_t>(cores), &task_id);  // before Submit: the run may free r
  if (core::racecheck::On()) [[unlikely]] DeclareRaceAccesses(*r->op, r->bound, name);
  if (r->dump != nullptr) [[unlikely]] {
    // Host work right before and right after the run, in stream order, so the files hold what the
    // operator really read and wrote.
    r->refs.store(3, std::memory_order_relaxed);
    core::SubmitHostWorkTask(stream, &DumpInputs, r, &Release);
    core::SubmitOperator(stream, &r->run, &FinishDispatch, r, task_id);
    core::SubmitHostWorkTask(stream, &DumpOutputs, r, &Release);
    return Status::Ok();
  }
  core::SubmitOperator(stream, &r->run, &FinishDispatch, r, task_id);
  return Status::Ok();
}

}  // namespace npurt::ops
