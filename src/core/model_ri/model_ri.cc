#include "core/model_ri/model_ri.h"

#include <algorithm>
#include <unordered_map>

#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/handle_tags.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

std::atomic<uint32_t> g_next_graph_id{0};

// aclmdlRIGetTasksByStream names a stream, not a model: the graph each stream was last recorded into.
std::mutex g_by_stream_mu;
std::unordered_map<const Stream*, ModelRI*>& ByStream() {
  static auto* map = new std::unordered_map<const Stream*, ModelRI*>();
  return *map;
}

}  // namespace

ModelRI::ModelRI(Context* context, State state)
    : HandleObject(handle_tags::kModelRI),
      context_(context),
      device_(context->device()),
      id_(g_next_graph_id.fetch_add(1, std::memory_order_relaxed)),
      state_(state),
      done_flag_(context->device()->hal()->CreateFlag()) {}

StatusOr<ModelRI*> ModelRI::Create(Context* context, State state) {
  ModelRI* g = NewHandle<ModelRI>(context, state);
  if (g == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for model instances");
  return g;
}

ModelRI::~ModelRI() {
  // The last launch finished (it held a reference): every queue is idle and no task is in flight.
  for (auto& gs : streams_) {
    for (const hal::Task& t : gs->tasks) {
      if (t.cleanup != nullptr) t.cleanup(t.cleanup_arg);
    }
    for (const ModelRINode& n : gs->nodes) {
      if (n.handle != nullptr) {
        n.handle->Invalidate();
        n.handle->Release();
      }
    }
    if (gs->origin != nullptr) gs->origin->Release();
  }
  for (const hal::Task& t : retired_) {
    if (t.cleanup != nullptr) t.cleanup(t.cleanup_arg);
  }
  for (const hal::Task& t : update_tasks_) {
    if (t.cleanup != nullptr) t.cleanup(t.cleanup_arg);
  }
  for (TaskGroup* grp : groups_) {
    grp->Invalidate();
    grp->Release();
  }
  for (ModelRI* child : children_) child->Release();
  for (HandleObject* cond : conditions_) {
    cond->Invalidate();
    cond->Release();
  }
}

ModelRIStream* ModelRI::StreamOf(Stream* stream) {
  for (auto& gs : streams_) {
    if (gs->origin == stream) return gs.get();
  }
  return nullptr;
}

ModelRIStream& ModelRI::AddStream(Stream* stream, bool standalone) {
  auto gs = std::make_unique<ModelRIStream>();
  gs->origin = stream;
  stream->Retain();
  gs->standalone = standalone;
  gs->list.version = &gs->version;
  streams_.push_back(std::move(gs));
  stream->set_recording(this);
  return *streams_.back();
}

void ModelRI::AppendLocked(ModelRIStream& gs, const hal::Task* tasks, uint32_t count, aclmdlRITaskType type,
                         Event* event) {
  ModelRINode n;
  n.first = static_cast<uint32_t>(gs.tasks.size());
  n.count = count;
  n.type = type;
  n.event = event;
  if (gs.standalone || &gs == streams_[head_].get()) {
    uint32_t index = 0;
    while (streams_[index].get() != &gs) ++index;
    for (uint32_t i = 0; i < count; ++i) order_.emplace_back(index, n.first + i);
  }
  gs.tasks.insert(gs.tasks.end(), tasks, tasks + count);
  gs.nodes.push_back(n);
}

void ModelRI::AppendConditional(ModelRIStream& gs, std::unique_ptr<CondNode> node) {
  node->desc.branches = node->branches.data();
  node->desc.branch_count = static_cast<uint32_t>(node->branches.size());
  hal::Task t;
  t.kind = hal::TaskKind::kBatch;
  t.cond = &node->desc;
  t.id = NextTaskId();
  cond_nodes_.push_back(std::move(node));
  AppendLocked(gs, &t, 1, ACL_MODEL_RI_TASK_DEFAULT, nullptr);
}

void ModelRI::Finalize() {
  BuildRunList();
  // Joined streams with work replay concurrently where the driver's queues run independently.
  branches_.clear();
  head_records_.clear();
  if (device_->info().caps.concurrent_queues) {
    for (uint32_t i = 0; i < streams_.size(); ++i) {
      if (i == head_ || !streams_[i]->standalone || streams_[i]->tasks.empty()) continue;
      auto b = std::make_unique<Branch>();
      b->stream = i;
      b->end = device_->hal()->CreateFlag();
      branches_.push_back(std::move(b));
    }
  }
  if (!branches_.empty()) {
    start_flag_ = device_->hal()->CreateFlag();
    for (const auto& [flag, source] : record_source_) {
      if (source.first == streams_[head_].get()) {
        head_records_.push_back(flag);
        continue;
      }
      for (auto& b : branches_) {
        if (streams_[b->stream].get() == source.first) b->records.push_back(flag);
      }
    }
  }
  // Conditional tasks of other graphs that name this one run it from now on.
  branch_.store(&run_list_, std::memory_order_release);
}

void ModelRI::BuildRunList() {
  for (auto& gs : streams_) {
    gs->list.tasks = gs->tasks.data();
    gs->list.count = static_cast<uint32_t>(gs->tasks.size());
  }
  size_t standalone = 0;
  for (auto& gs : streams_) standalone += gs->standalone ? 1 : 0;
  if (standalone == 0) {
    run_list_ = streams_[head_]->list;
    run_list_.version = &streams_[head_]->version;
    return;
  }
  // Several captured streams: one nested batch per run of consecutive tasks of one stream, in capture
  // order. The runs point into the streams' lists, so updates reach them through the same lock.
  runs_.clear();
  for (size_t i = 0; i < order_.size();) {
    const uint32_t s = order_[i].first;
    size_t j = i;
    while (j < order_.size() && order_[j].first == s && order_[j].second == order_[i].second + (j - i)) ++j;
    ModelRIStream& gs = *streams_[s];
    runs_.push_back({gs.tasks.data() + order_[i].second, static_cast<uint32_t>(j - i), &gs.version});
    i = j;
  }
  run_tasks_.assign(runs_.size(), hal::Task{});
  for (size_t i = 0; i < runs_.size(); ++i) {
    run_tasks_[i].kind = hal::TaskKind::kBatch;
    run_tasks_[i].batch = &runs_[i];
  }
  run_list_ = {run_tasks_.data(), static_cast<uint32_t>(run_tasks_.size()), nullptr};
}

void ModelRI::WriteTask(ModelRIStream& gs, uint32_t index, const hal::Task& task) {
  // Sequence lock (hal::TaskList): readers that overlap the write retry, so none sees half a task.
  hal::WriteTask(gs.tasks.data(), &gs.version, index, task);
}

void ModelRI::LeaveStreams() {
  std::lock_guard<std::mutex> lock(g_by_stream_mu);
  for (auto& gs : streams_) {
    if (gs->origin->recording() == this) gs->origin->set_recording(nullptr);
    ModelRI*& slot = ByStream()[gs->origin];
    if (slot != this) {
      if (slot != nullptr) slot->Release();
      Retain();
      slot = this;
    }
  }
}

ModelRI* ModelRI::OfStream(Stream* stream) {
  std::lock_guard<std::mutex> lock(g_by_stream_mu);
  auto it = ByStream().find(stream);
  if (it == ByStream().end() || !it->second->alive()) return nullptr;
  it->second->Retain();
  return it->second;
}

void ModelRI::SetName(std::string name) {
  std::lock_guard<std::mutex> lock(mu_);
  name_ = std::move(name);
}

std::string ModelRI::name() {
  std::lock_guard<std::mutex> lock(mu_);
  return name_;
}

Status ModelRI::AddDestroyCallback(aclrtCallback fn, void* user_data) {
  std::lock_guard<std::mutex> lock(mu_);
  destroy_callbacks_.emplace_back(fn, user_data);
  return Status::Ok();
}

Status ModelRI::RemoveDestroyCallback(aclrtCallback fn) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(destroy_callbacks_.begin(), destroy_callbacks_.end(),
                         [&](const auto& cb) { return cb.first == fn; });
  if (it == destroy_callbacks_.end()) {
    return Err(ACL_ERROR_INVALID_PARAM, "the callback is not registered with model {}", id_);
  }
  destroy_callbacks_.erase(it);
  return Status::Ok();
}

void ModelRI::Destroy() {
  if (!HandleObject::Invalidate()) return;
  std::vector<std::pair<aclrtCallback, void*>> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    callbacks.swap(destroy_callbacks_);
    for (auto& gs : streams_) {
      if (gs->origin->recording() == this) gs->origin->set_recording(nullptr);
    }
    ForgetRecords();
    for (ModelRI* child : children_) child->HandleObject::Invalidate();
  }
  for (auto& cb : callbacks) cb.first(cb.second);
  // Destroyed here, not in ~ModelRI: that may run on this stream's executor (a launch's last cleanup). The
  // helpers finish the replays queued on them first (a stream's destruction waits for its work).
  if (exec_stream_ != nullptr) {
    exec_stream_->Destroy(false);
    exec_stream_ = nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(launch_mu_);
    for (auto& b : branches_) {
      if (b->helper != nullptr) b->helper->Destroy(false);
      b->helper = nullptr;
    }
  }
  ForgetStreams(this);
  for (ModelRI* child : children_) ForgetStreams(child);
  NPURT_LOG_DEBUG("RUNTIME", "destroyed model instance {}", id_);
  Release();
}

void ModelRI::ForgetStreams(ModelRI* graph) {
  std::lock_guard<std::mutex> lock(g_by_stream_mu);
  for (auto it = ByStream().begin(); it != ByStream().end();) {
    if (it->second == graph) {
      it = ByStream().erase(it);
      graph->Release();
    } else {
      ++it;
    }
  }
}

void ModelRI::ForgetRecords() {
  for (auto& r : last_record_) {
    ModelRI* self = this;
    r.first->recorded_in.compare_exchange_strong(self, nullptr);
  }
  last_record_.clear();
}

void ModelRI::ReleaseModelRI(void* graph) { static_cast<ModelRI*>(graph)->Release(); }

}  // namespace npurt::core
