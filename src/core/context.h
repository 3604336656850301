// Context (core): the unit of isolation on a device. Owns a default stream and tracks the streams
// and events created in it, so destroying a context reclaims its streams, events and memory.
// The current context is thread-local (see thread_state.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>

#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"

namespace npurt::core {

class Device;
class Stream;
class Event;

class Context final : public HandleObject {
 public:
  static StatusOr<Context*> Create(Device* device, bool is_default);

  Device* device() const { return device_; }
  bool is_default() const { return is_default_; }
  Stream* default_stream() const { return default_stream_; }

  void AddStream(Stream* s);
  void RemoveStream(Stream* s);
  void AddEvent(Event* e);
  void RemoveEvent(Event* e);

  // Destroys every stream and event of the context (waiting for their work), frees the memory it
  // allocated, and invalidates the handle.
  void Destroy();

  Status GetSysParam(int32_t opt, int64_t* value) const;
  void SetSysParam(int32_t opt, int64_t value);

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  Context(Device* device, bool is_default) : HandleObject(handle_tags::kContext), device_(device), is_default_(is_default) {}
  ~Context() override = default;

  Device* device_;
  bool is_default_;
  Stream* default_stream_ = nullptr;
  mutable std::mutex mu_;
  std::set<Stream*> streams_;
  std::set<Event*> events_;
  std::map<int32_t, int64_t> sys_params_;
};

// The calling thread's current context, validated (nullptr if none or destroyed).
Context* CurrentContext();
void SetCurrentContext(Context* context);
// The current context or ACL_ERROR_RT_CONTEXT_NULL.
StatusOr<Context*> RequireContext();

}  // namespace npurt::core
