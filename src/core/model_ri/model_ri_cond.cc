#include "core/model_ri/model_ri_cond.h"

#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/device.h"
#include "core/model_ri/model_ri.h"
#include "core/handle_tags.h"
#include "core/stream.h"

namespace npurt::core {
CondHandle::CondHandle(ModelRI* owner, Context* context, uint64_t* value)
    : HandleObject(handle_tags::kModelCond), owner_(owner), context_(context), value_(value) {}

CondHandle::~CondHandle() { (void)context_->device()->allocator().Free(value_, {}); }

StatusOr<CondHandle*> CondHandle::Create(ModelRI* owner, uint32_t default_value, bool assign_default) {
  Context* ctx = owner->context();
  // The value word lives in device memory: the graph's tasks (or the host, through the pointer
  // aclmdlRICondHandleGetCondPtr gives) write it, and the driver reads it when a conditional task runs
  // (hal::Conditional). Its first value is written through the device.
  auto mem = ctx->device()->allocator().Allocate(sizeof(uint64_t), ctx);
  if (!mem.ok()) return mem.status();
  auto* value = static_cast<uint64_t*>(mem.value());
  const uint64_t initial = assign_default ? default_value : 0;
  if (Status written = ctx->device()->hal()->CopyNow(value, &initial, sizeof initial); !written.ok()) {
    (void)ctx->device()->allocator().Free(value, {});
    return written;
  }
  CondHandle* h = NewHandle<CondHandle>(owner, ctx, value);
  if (h == nullptr) {
    (void)ctx->device()->allocator().Free(value, {});
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for condition handles");
  }
  std::lock_guard<std::mutex> lock(owner->mu());
  owner->AdoptCondition(h);
  return h;
}

Status ModelRI::AddCondTask(Stream* stream, void* cond_handle_obj, aclmdlRICondTaskType type,
                          const std::vector<ModelRI*>& children) {
  auto* cond = static_cast<CondHandle*>(cond_handle_obj);
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr || state() != State::kCapturing) {
    for (ModelRI* c : children) c->Release();
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing into the condition's model instance",
               stream->id());
  }
  // IF: branch 0 when the value is non-zero, else branch 1 (if any). WHILE: branch 0 while non-zero.
  // SWITCH: branch `value` if there is one. A branch never captured (or empty) runs nothing; for WHILE
  // that also ends the loop.
  auto node = std::make_unique<CondNode>();
  switch (type) {
    case ACL_MODEL_RI_COND_TYPE_IF: node->desc.kind = hal::CondKind::kIf; break;
    case ACL_MODEL_RI_COND_TYPE_WHILE: node->desc.kind = hal::CondKind::kWhile; break;
    case ACL_MODEL_RI_COND_TYPE_SWITCH: node->desc.kind = hal::CondKind::kSwitch; break;
  }
  node->desc.word = cond->value();
  for (ModelRI* c : children) node->branches.push_back(c->branch());
  children_.insert(children_.end(), children.begin(), children.end());  // takes their references
  AppendConditional(*gs, std::move(node));
  gs->ended = false;
  return Status::Ok();
}

}  // namespace npurt::core
