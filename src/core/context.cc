#include "core/context.h"

#include <vector>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/handle_tags.h"
#include "core/stream.h"
#include "core/thread_state.h"

namespace npurt::core {

StatusOr<Context*> Context::Create(Device* device, bool is_default) {
  Context* ctx = NewHandle<Context>(device, is_default);
  if (ctx == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for contexts");
  StreamOptions opts;
  opts.is_default = true;
  auto s = Stream::Create(ctx, opts);
  if (!s.ok()) {
    ctx->Invalidate();
    ctx->Release();
    return s.status();
  }
  ctx->default_stream_ = s.value();
  return ctx;
}

void Context::AddStream(Stream* s) {
  std::lock_guard<std::mutex> lock(mu_);
  streams_.insert(s);
}

void Context::RemoveStream(Stream* s) {
  std::lock_guard<std::mutex> lock(mu_);
  streams_.erase(s);
}

void Context::AddEvent(Event* e) {
  std::lock_guard<std::mutex> lock(mu_);
  events_.insert(e);
}

void Context::RemoveEvent(Event* e) {
  std::lock_guard<std::mutex> lock(mu_);
  events_.erase(e);
}

void Context::Destroy() {
  if (!Invalidate()) return;
  // Referenced while listed (a stream or event leaves the lists before its handle's reference goes): another
  // thread destroying one of them meanwhile cannot free it under us.
  std::vector<Ref<Stream>> streams;
  std::vector<Ref<Event>> events;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (Stream* s : streams_) streams.emplace_back(s);
    for (Event* e : events_) events.emplace_back(e);
  }
  // User streams first (they may wait on events), the default stream last.
  for (const Ref<Stream>& s : streams) {
    if (s.get() != default_stream_) s->Destroy(/*force=*/false);
  }
  if (default_stream_ != nullptr) default_stream_->Destroy(false);
  for (const Ref<Event>& e : events) e->Destroy();
  device_->allocator().FreeOwnedBy(this);
  if (Tls().current_context == this) Tls().current_context = nullptr;
  Release();
}

Status Context::GetSysParam(int32_t opt, int64_t* value) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sys_params_.find(opt);
  if (it == sys_params_.end()) {
    return Err(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "system parameter option {} was never set in this context", opt);
  }
  *value = it->second;
  return Status::Ok();
}

void Context::SetSysParam(int32_t opt, int64_t value) {
  std::lock_guard<std::mutex> lock(mu_);
  sys_params_[opt] = value;
}

Context* CurrentContext() {
  Context* c = Tls().current_context;
  if (c == nullptr) return nullptr;
  return LookupHandle<Context>(c, handle_tags::kContext);
}

void SetCurrentContext(Context* context) { Tls().current_context = context; }

StatusOr<Context*> RequireContext() {
  Context* c = CurrentContext();
  if (c == nullptr) {
    return Err(ACL_ERROR_RT_CONTEXT_NULL,
               "the calling thread has no current context: call aclrtSetDevice or aclrtSetCurrentContext first");
  }
  return c;
}

}  // namespace npurt::core
