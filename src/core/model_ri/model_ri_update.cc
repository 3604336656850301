// Introspection and update of a recorded graph: its streams and tasks, task parameters, task groups
// re-captured in place. Changes reach the prepared tasks through their sequence lock (ModelRI::WriteTask),
// so a replay in flight sees each task either before or after the change, never half of it. Replaced
// tasks keep their resources (an in-flight replay may still use them) until the graph goes.
#include <algorithm>
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "core/model_ri/model_ri.h"
#include "core/kernel/kernel_binary.h"
#include "core/kernel/kernel_launch.h"
#include "core/stream.h"

namespace npurt::core {

std::vector<Stream*> ModelRI::Streams() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Stream*> out;
  for (auto& gs : streams_) out.push_back(gs->origin);
  return out;
}

StatusOr<std::vector<HandleObject*>> ModelRI::TasksOf(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<HandleObject*> out;
  for (uint32_t s = 0; s < streams_.size(); ++s) {
    ModelRIStream& gs = *streams_[s];
    if (gs.origin != stream) continue;
    for (uint32_t i = 0; i < gs.nodes.size(); ++i) {
      ModelRINode& n = gs.nodes[i];
      if (n.handle == nullptr) {
        n.handle = NewHandle<ModelRITaskHandle>(this, s, i);
        if (n.handle == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for model tasks");
      }
      out.push_back(n.handle);
    }
    return out;
  }
  return Err(ACL_ERROR_INVALID_PARAM, "stream {} is not a stream of model instance {}", stream->id(), id_);
}

aclmdlRITaskType ModelRI::TaskType(const ModelRITaskHandle& task) {
  std::lock_guard<std::mutex> lock(mu_);
  return streams_[task.stream]->nodes[task.node].type;
}

Status ModelRI::KernelAttribute(const ModelRITaskHandle& task, aclrtLaunchKernelAttrId id,
                              aclrtLaunchKernelAttrValue* value) {
  std::lock_guard<std::mutex> lock(mu_);
  const ModelRIStream& gs = *streams_[task.stream];
  const ModelRINode& n = gs.nodes[task.node];
  if (n.type != ACL_MODEL_RI_TASK_KERNEL) {
    return Err(ACL_ERROR_INVALID_PARAM, "task {} of model instance {} is not a kernel task", task.node, id_);
  }
  const hal::KernelLaunch& k = *gs.tasks[n.first].kernel;
  std::memset(static_cast<void*>(value), 0, sizeof(*value));
  switch (id) {
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
      value->blockDimOffset = k.block_offset;
      return Status::Ok();
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
      value->timeout = static_cast<uint16_t>(std::min<uint64_t>(k.timeout_ns / 1000000000ull, UINT16_MAX));
      return Status::Ok();
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US: {
      const uint64_t us = k.timeout_ns / 1000;
      value->timeoutUs.timeoutLow = static_cast<uint32_t>(us);
      value->timeoutUs.timeoutHigh = static_cast<uint32_t>(us >> 32);
      return Status::Ok();
    }
    case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
    case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
      return Status::Ok();  // not kept by the simulated launch: their defaults (0)
  }
  return Err(ACL_ERROR_INVALID_PARAM, "launch attribute {} is invalid", static_cast<int>(id));
}

Status ModelRI::BeginGroup(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr || state() != State::kCapturing) {
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing", stream->id());
  }
  if (gs->group_begin != SIZE_MAX) {
    return Err(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "a task group is already open on stream {}", stream->id());
  }
  gs->group_begin = gs->nodes.size();
  return Status::Ok();
}

StatusOr<TaskGroup*> ModelRI::EndGroup(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr || state() != State::kCapturing) {
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing", stream->id());
  }
  if (gs->group_begin == SIZE_MAX) {
    return Err(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "no task group is open on stream {}", stream->id());
  }
  uint32_t index = 0;
  while (streams_[index].get() != gs) ++index;
  auto* grp = NewHandle<TaskGroup>(this, index, static_cast<uint32_t>(gs->group_begin),
                                   static_cast<uint32_t>(gs->nodes.size()));
  gs->group_begin = SIZE_MAX;
  if (grp == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for task groups");
  groups_.push_back(grp);
  return grp;
}

Status ModelRI::BeginGroupUpdate(Stream* update_stream, TaskGroup* group) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state() != State::kReady) {
    return Err(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "model instance {} is still being captured", id_);
  }
  if (updating_ != nullptr) {
    return Err(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "a task group update of model instance {} is already open", id_);
  }
  if (update_stream->recording() != nullptr) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already recording", update_stream->id());
  }
  updating_ = group;
  update_stream_ = update_stream;
  update_stream->set_recording(this);
  return Status::Ok();
}

Status ModelRI::EndGroupUpdate(Stream* update_stream) {
  std::lock_guard<std::mutex> lock(mu_);
  if (update_stream != update_stream_) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "stream {} has no task group update open", update_stream->id());
  }
  update_stream->set_recording(nullptr);
  TaskGroup* grp = updating_;
  updating_ = nullptr;
  update_stream_ = nullptr;
  std::vector<hal::Task> fresh;
  fresh.swap(update_tasks_);
  ModelRIStream& gs = *streams_[grp->stream];
  const uint32_t first = grp->first < gs.nodes.size() ? gs.nodes[grp->first].first : 0;
  const uint32_t end = grp->last > grp->first ? gs.nodes[grp->last - 1].first + gs.nodes[grp->last - 1].count : first;
  bool same = fresh.size() == end - first;
  for (uint32_t i = 0; same && i < fresh.size(); ++i) same = fresh[i].kind == gs.tasks[first + i].kind;
  if (!same) {
    retired_.insert(retired_.end(), fresh.begin(), fresh.end());
    return Err(ACL_ERROR_RT_MODEL_UPDATE_FAILED,
               "the update of a task group must issue the same tasks as its capture ({} tasks, same kinds); got {}",
               end - first, fresh.size());
  }
  for (uint32_t i = 0; i < fresh.size(); ++i) {
    retired_.push_back(gs.tasks[first + i]);
    WriteTask(gs, first + i, fresh[i]);
  }
  return Status::Ok();
}

Status ModelRI::GetParams(const ModelRITaskHandle& task, aclmdlRITaskParams* params) {
  std::lock_guard<std::mutex> lock(mu_);
  const ModelRIStream& gs = *streams_[task.stream];
  const ModelRINode& n = gs.nodes[task.node];
  const hal::Task& t = gs.tasks[n.first];
  std::memset(static_cast<void*>(params), 0, sizeof(*params));
  params->type = n.type;
  for (TaskGroup* g : groups_) {
    if (g->stream == task.stream && task.node >= g->first && task.node < g->last) params->taskGrp = g;
  }
  switch (n.type) {
    case ACL_MODEL_RI_TASK_KERNEL:
      params->kernelTaskParams.funcHandle = LaunchFunction(t.kernel);
      params->kernelTaskParams.args = const_cast<void*>(t.kernel->args);
      params->kernelTaskParams.argsSize = t.kernel->args_size;
      params->kernelTaskParams.numBlocks = t.kernel->num_blocks;
      params->kernelTaskParams.isHostArgs = 1;
      break;
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
      params->eventRecordTaskParams.event = n.event;
      break;
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
      params->eventWaitTaskParams.event = n.event;
      break;
    case ACL_MODEL_RI_TASK_EVENT_RESET:
      params->eventResetTaskParams.event = n.event;
      break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
      params->valueWriteTaskParams.devAddr = t.dst;
      params->valueWriteTaskParams.value = t.value;
      break;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      params->valueWaitTaskParams.devAddr = t.dst;
      params->valueWaitTaskParams.value = t.value;
      params->valueWaitTaskParams.flag = t.aux;
      break;
    default:
      break;
  }
  return Status::Ok();
}

Status ModelRI::SetParams(const ModelRITaskHandle& task, const aclmdlRITaskParams& params) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream& gs = *streams_[task.stream];
  ModelRINode& n = gs.nodes[task.node];
  if (params.type != n.type) {
    return Err(ACL_ERROR_INVALID_PARAM, "task type {} does not match the task's type {}", static_cast<int>(params.type),
               static_cast<int>(n.type));
  }
  switch (n.type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
      const aclmdlRIKernelTaskParams& k = params.kernelTaskParams;
      if (k.args == nullptr || k.argsSize == 0 || k.numBlocks == 0) {
        return Err(ACL_ERROR_INVALID_PARAM, "kernel task parameters need args, argsSize and numBlocks");
      }
      if (k.funcHandle != nullptr && k.funcHandle != LaunchFunction(gs.tasks[n.first].kernel)) {
        return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "changing the function of a kernel task is not supported");
      }
      if (const KernelFunction* f = LaunchFunction(gs.tasks[n.first].kernel); k.argsSize < f->args_size()) {
        return Err(ACL_ERROR_INVALID_PARAM, "argsSize {} is smaller than the {} bytes of kernel '{}' parameters",
                   k.argsSize, f->args_size(), f->name());
      }
      break;
    }
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
    case ACL_MODEL_RI_TASK_EVENT_RESET:
      if (params.eventRecordTaskParams.event != n.event) {
        return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "changing the event of an event task is not supported");
      }
      break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      if (params.valueWriteTaskParams.devAddr == nullptr) {
        return Err(ACL_ERROR_INVALID_PARAM, "value task parameters need devAddr");
      }
      if (n.type == ACL_MODEL_RI_TASK_VALUE_WAIT && params.valueWaitTaskParams.flag > ACL_STREAM_WAIT_VALUE_NOR) {
        return Err(ACL_ERROR_INVALID_PARAM, "value wait flag {} is invalid", params.valueWaitTaskParams.flag);
      }
      break;
    default:
      return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "tasks of this type have no parameters to set");
  }
  n.pending = true;
  n.pending_params = params;
  if (n.type == ACL_MODEL_RI_TASK_KERNEL) {
    const auto* a = static_cast<const uint8_t*>(params.kernelTaskParams.args);
    n.pending_args.assign(a, a + params.kernelTaskParams.argsSize);
  }
  return Status::Ok();
}

Status ModelRI::Disable(const ModelRITaskHandle& task) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRINode& n = streams_[task.stream]->nodes[task.node];
  n.pending = true;
  n.pending_disable = true;
  return Status::Ok();
}

Status ModelRI::ApplyUpdates() {
  std::lock_guard<std::mutex> lock(mu_);
  if (state() != State::kReady) return Err(ACL_ERROR_INVALID_PARAM, "model instance {} is not ready", id_);
  for (auto& gsp : streams_) {
    ModelRIStream& gs = *gsp;
    for (ModelRINode& n : gs.nodes) {
      if (!n.pending) continue;
      n.pending = false;
      for (uint32_t i = n.first; i < n.first + n.count; ++i) {
        const hal::Task old = gs.tasks[i];
        hal::Task t = old;
        t.cleanup = nullptr;  // the original keeps its cleanup, in retired_
        if (n.pending_disable) {
          t = hal::Task{};
          t.id = old.id;
        } else if (n.type == ACL_MODEL_RI_TASK_KERNEL) {
          const aclmdlRIKernelTaskParams& k = n.pending_params.kernelTaskParams;
          auto launch = std::make_unique<hal::KernelLaunch>(*old.kernel);
          auto args = std::make_unique<uint8_t[]>(n.pending_args.size());
          std::memcpy(args.get(), n.pending_args.data(), n.pending_args.size());
          launch->args = args.get();
          launch->args_size = n.pending_args.size();
          launch->num_blocks = k.numBlocks;
          launch->failure.clear();
          t.kernel = launch.get();
          launches_.push_back(std::move(launch));
          buffers_.push_back(std::move(args));
        } else if (n.type == ACL_MODEL_RI_TASK_VALUE_WRITE) {
          t.dst = n.pending_params.valueWriteTaskParams.devAddr;
          t.value = n.pending_params.valueWriteTaskParams.value;
        } else if (n.type == ACL_MODEL_RI_TASK_VALUE_WAIT) {
          t.dst = n.pending_params.valueWaitTaskParams.devAddr;
          t.value = n.pending_params.valueWaitTaskParams.value;
          t.aux = n.pending_params.valueWaitTaskParams.flag;
        } else {
          continue;  // event tasks: nothing to change
        }
        retired_.push_back(old);
        WriteTask(gs, i, t);
      }
      n.pending_disable = false;
    }
  }
  return Status::Ok();
}

}  // namespace npurt::core
