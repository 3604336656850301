#include "core/operators.h"

#include <atomic>
#include <string_view>

#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "core/kernel/builtin_tasks.h"
#include "core/device.h"
#include "core/kernel/overflow.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace npurt::core {

StatusOr<OperatorBuild> BuildOperator(const OperatorCall& call) {
  auto backend = Runtime::Get().OpBackend();
  if (!backend.ok()) return std::move(backend).status();
  hal::OpRequest request;
  request.type = call.type;
  request.inputs = call.inputs;
  request.requested = call.requested;
  request.attrs = call.attrs;
  request.compile = call.compile;
  request.constants = call.constants;
  request.shape_slots = call.shape_slots;
  if (call.reuse != nullptr && KernelRetileEnabled()) request.reuse = call.reuse->executable();
  auto built = backend.value()->Build(request);
  if (!built.ok()) return std::move(built).status();
  OperatorBuild out;
  out.outputs = std::move(built->outputs);
  out.reused = built->reused;
  if (built->executable != nullptr) out.program = std::make_shared<OperatorProgram>(std::move(built->executable));
  return out;
}

std::string OperatorFamilyKey(const OperatorCall& call) {
  std::string key(call.type);
  auto put = [&](const std::vector<TensorSpec>* specs) {
    key.push_back('|');
    if (specs == nullptr) return;
    for (const TensorSpec& s : *specs) {
      key += std::to_string(s.dtype);
      key.push_back('/');
      key += std::to_string(s.format);
      key.push_back('/');
      key += std::to_string(s.dims.size());
      key.push_back(',');
    }
  };
  put(call.inputs);
  put(call.requested);
  key.push_back('|');
  SerializeAttrs(*call.attrs, &key);
  return key;
}

void WarmOperatorBackend() {
  auto backend = Runtime::Get().OpBackend();
  if (backend.ok()) backend.value()->Warm();
}

bool KernelRetileEnabled() {
  static const bool on = [] {
    const char* v = env::Raw(env::Var::kKernelRetile);
    return v == nullptr || *v == '\0' || std::string_view(v) != "0";
  }();
  return on;
}

namespace {
std::atomic<CachedBuildFn> g_cache{nullptr};
}  // namespace

void SetOperatorCache(CachedBuildFn fn) { g_cache.store(fn, std::memory_order_release); }

StatusOr<OperatorBuild> BuildOperatorCached(const OperatorCall& call) {
  CachedBuildFn cache = g_cache.load(std::memory_order_acquire);
  bool constant = false;
  if (call.constants != nullptr) {
    for (const void* c : *call.constants) constant = constant || c != nullptr;
  }
  if (cache == nullptr || constant || !call.compile || call.shape_slots) return BuildOperator(call);
  return cache(call);
}

void OperatorDispatch::Bind(const OperatorProgram& program, const void* const* inputs, uint32_t num_inputs,
                            void* const* outputs, uint32_t num_outputs, Stream* stream, const char* name,
                            int64_t* const* shapes) {
  dispatch_.executable = program.executable();
  dispatch_.shapes = shapes;
  dispatch_.inputs = inputs;
  dispatch_.outputs = outputs;
  dispatch_.num_inputs = num_inputs;
  dispatch_.num_outputs = num_outputs;
  dispatch_.max_parallelism = stream->device()->info().aicore_count;
  dispatch_.saturate = Saturating();
  dispatch_.name = name;
  if (OverflowChecked(stream)) {
    dispatch_.check_overflow = true;
    raise_overflow_ = stream->device();
  }
}

void OperatorDispatch::Finish() {
  // The cleanup runs before the queue's next task: a later overflow read sees what this run raised.
  if (raise_overflow_ != nullptr && dispatch_.overflowed != 0) RaiseOverflow(raise_overflow_);
}

void SubmitOperator(Stream* stream, OperatorDispatch* run, void (*cleanup)(void*), void* cleanup_arg,
                    uint32_t task_id) {
  SubmitDispatch(stream, &run->dispatch_, cleanup, cleanup_arg, task_id);
}

Status RunOperatorNow(const OperatorProgram& program, const void* const* inputs, uint32_t num_inputs,
                      void* const* outputs, uint32_t num_outputs, int parallelism, const char* name) {
  hal::Dispatch d;
  d.executable = program.executable();
  d.inputs = inputs;
  d.outputs = outputs;
  d.num_inputs = num_inputs;
  d.num_outputs = num_outputs;
  d.max_parallelism = static_cast<uint32_t>(parallelism > 0 ? parallelism : 1);
  d.name = name;
  std::string message;
  const int32_t code = d.executable->Run(d, &message);
  if (code != 0) return Status(code, std::move(message));
  return Status::Ok();
}

}  // namespace npurt::core
