// Stream (core): an ordered queue of device work, owned by a context. Wraps one driver queue and adds
// policy: ids, priority and flags, failure mode, sticky errors reported by synchronize, task ids.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/handle.h"
#include "base/status.h"
#include "hal/hal.h"

namespace npurt::core {

class Context;
class Device;
class ModelRI;
struct LaunchRing;

struct StreamOptions {
  uint32_t priority = 0;
  uint32_t flags = 0;
  bool is_default = false;
};

class Stream final : public HandleObject {
 public:
  // Creates a stream in `context` (registers it with the device; fails past the stream limit).
  static StatusOr<Stream*> Create(Context* context, const StreamOptions& options);

  Context* context() const { return context_; }
  Device* device() const { return device_; }
  hal::Queue* queue() const { return queue_.get(); }
  int32_t id() const { return id_; }
  uint32_t priority() const { return priority_.load(std::memory_order_relaxed); }
  void set_priority(uint32_t p) { priority_.store(p, std::memory_order_relaxed); }
  uint32_t flags() const { return options_.flags; }
  bool is_default() const { return options_.is_default; }
  uint64_t failure_mode() const { return failure_mode_.load(std::memory_order_relaxed); }
  void set_failure_mode(uint64_t mode);
  bool persistent() const;

  // Submits a task (assigns its runtime-wide id) and returns its sequence number. While the stream
  // records into a graph (capture, model building) the task goes to the graph instead and 0 is returned
  // (a sequence number every stream has passed, so callers that wait for it do not block).
  uint64_t Submit(hal::Task& task);
  // The graph this stream records into (null = none); set and cleared by the graph under its lock.
  ModelRI* recording() const { return recording_.load(std::memory_order_acquire); }
  void set_recording(ModelRI* graph) { recording_.store(graph, std::memory_order_release); }
  // True once every task up to `seq` completed.
  uint64_t completed() const { return queue_->completed(); }  // the last task completed, in order
  bool Passed(uint64_t seq) const { return completed() >= seq; }
  bool Idle() const { return queue_->completed() >= queue_->submitted(); }
  // Waits for all work submitted so far; returns the stream's sticky error, or a timeout error.
  Status Synchronize(int64_t timeout_ms);
  // The sticky error as a Status (OK if none).
  Status StickyError() const;

  // Destroys the stream for the API: waits for queued work (or discards it when `force`), then
  // unregisters it. The object lives on while references remain.
  void Destroy(bool force);

  // Callback subscription (aclrtSubscribeReport / aclrtSubscribeHostFunc): the thread id, 0 = none.
  std::atomic<uint64_t> report_thread{0};
  std::atomic<uint64_t> host_func_thread{0};
  std::atomic<uint32_t> overflow_switch{0};
  std::atomic<uint32_t> user_custom_tag{0};
  std::atomic<uint32_t> cache_op_info{0};
  std::atomic<uint32_t> res_limit[2] = {0, 0};  // aclrtSetStreamResLimit: 0 = device's limit
  // The stream's kernel launch records (core/kernel/launch_records.h), made by its first launch.
  std::atomic<LaunchRing*> launch_ring{nullptr};

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  Stream(Context* context, const StreamOptions& options);
  ~Stream() override;
  static void OnTaskFailure(void* ctx, hal::Queue* queue, const hal::TaskFailure& failure);

  Context* context_;
  Device* device_;
  StreamOptions options_;
  std::unique_ptr<hal::Queue> queue_;
  int32_t id_;
  std::atomic<uint32_t> priority_;
  std::atomic<uint64_t> failure_mode_{0};
  std::atomic<bool> destroyed_{false};
  std::atomic<ModelRI*> recording_{nullptr};
};

uint32_t NextTaskId();

}  // namespace npurt::core
