#include "core/graph_cond.h"

#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/device.h"
#include "core/graph.h"
#include "core/handle_tags.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

uint64_t ReadCond(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

// IF: branch 0 when the value is non-zero, else branch 1 (if any). WHILE: branch 0 while non-zero.
// SWITCH: branch `value` if there is one.
const hal::TaskList* SelectCond(void* arg, uint32_t round) {
  const auto* n = static_cast<const CondNode*>(arg);
  const uint64_t v = ReadCond(n->cond);
  Graph* chosen = nullptr;
  switch (n->type) {
    case ACL_MODEL_RI_COND_TYPE_IF:
      if (round == 0) chosen = v != 0 ? n->children[0] : (n->children.size() > 1 ? n->children[1] : nullptr);
      break;
    case ACL_MODEL_RI_COND_TYPE_WHILE:
      if (v != 0) chosen = n->children[0];
      break;
    case ACL_MODEL_RI_COND_TYPE_SWITCH:
      if (round == 0 && v < n->children.size()) chosen = n->children[v];
      break;
  }
  // A branch never captured (or empty) ends the task; for WHILE that also stops the loop.
  return chosen != nullptr ? chosen->HeadList() : nullptr;
}

}  // namespace

CondHandle::CondHandle(Graph* owner, Context* context, uint64_t* value)
    : HandleObject(handle_tags::kModelCond), owner_(owner), context_(context), value_(value) {}

CondHandle::~CondHandle() { (void)context_->device()->allocator().Free(value_, {}); }

StatusOr<CondHandle*> CondHandle::Create(Graph* owner, uint32_t default_value, bool assign_default) {
  Context* ctx = owner->context();
  // The branch is chosen when the conditional task runs, by SelectCond reading the value word in device
  // memory through a host address: a device whose memory the host cannot address would need its driver to
  // evaluate conditions (a conditional node of its own), which the interface does not have yet.
  if (!ctx->device()->info().caps.host_visible_memory) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "conditional tasks need device memory the host can address, and device {} of driver '{}' has none",
               ctx->device()->id(), Runtime::Get().config().driver);
  }
  auto mem = ctx->device()->allocator().Allocate(sizeof(uint64_t), ctx);
  if (!mem.ok()) return mem.status();
  auto* value = static_cast<uint64_t*>(mem.value());
  __atomic_store_n(value, assign_default ? default_value : 0, __ATOMIC_RELEASE);
  CondHandle* h = NewHandle<CondHandle>(owner, ctx, value);
  if (h == nullptr) {
    (void)ctx->device()->allocator().Free(value, {});
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for condition handles");
  }
  std::lock_guard<std::mutex> lock(owner->mu());
  owner->AdoptCondition(h);
  return h;
}

const hal::TaskList* Graph::HeadList() {
  if (state() != State::kReady || streams_.empty()) return nullptr;
  return &run_list_;
}

Status Graph::AddCondTask(Stream* stream, void* cond_handle_obj, aclmdlRICondTaskType type,
                          const std::vector<Graph*>& children) {
  auto* cond = static_cast<CondHandle*>(cond_handle_obj);
  std::lock_guard<std::mutex> lock(mu_);
  GraphStream* gs = StreamOf(stream);
  if (gs == nullptr || state() != State::kCapturing) {
    for (Graph* c : children) c->Release();
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing into the condition's model instance",
               stream->id());
  }
  auto node = std::make_unique<CondNode>();
  node->type = type;
  node->cond = cond->value();
  node->children = children;
  children_.insert(children_.end(), children.begin(), children.end());  // takes their references
  AppendSelect(*gs, &SelectCond, node.get());
  cond_nodes_.push_back(std::move(node));
  gs->ended = false;
  return Status::Ok();
}

}  // namespace npurt::core
