#include "core/label.h"

#include <utility>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/sync/event.h"
#include "core/handle_tags.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {
std::atomic<uint64_t> g_next_label_id{0};
}  // namespace

Label::Label(Context* context)
    : HandleObject(handle_tags::kLabel), context_(context), id_(g_next_label_id.fetch_add(1) + 1) {}

Label::~Label() {
  if (Stream* s = stream()) s->Release();
}

StatusOr<Label*> Label::Create(Context* context) {
  Label* l = NewHandle<Label>(context);
  if (l == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for labels");
  return l;
}

Status Label::Set(Stream* stream) {
  if (stream->context() != context_) {
    return Err(ACL_ERROR_RT_LABEL_CONTEXT, "label {} belongs to another context than stream {}", id_, stream->id());
  }
  Stream* none = nullptr;
  if (!stream_.compare_exchange_strong(none, stream, std::memory_order_acq_rel)) {
    return Err(ACL_ERROR_INVALID_PARAM, "label {} is already set (on stream {}); a label is set once", id_,
               none->id());
  }
  stream->Retain();
  hal::Task t;
  t.kind = hal::TaskKind::kLabelSet;
  t.value = id_;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

void Label::Destroy() {
  if (!Invalidate()) return;
  Release();
}

LabelList::LabelList(std::vector<Label*> labels) : HandleObject(handle_tags::kLabelList), labels_(std::move(labels)) {
  for (Label* l : labels_) {
    l->Retain();
    ids_.push_back(l->id());
  }
}

LabelList::~LabelList() {
  for (Label* l : labels_) l->Release();
}

StatusOr<LabelList*> LabelList::Create(Label* const* labels, size_t count) {
  LabelList* list = NewHandle<LabelList>(std::vector<Label*>(labels, labels + count));
  if (list == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for label lists");
  return list;
}

Status LabelList::Switch(const void* index_ptr, uint32_t max_value, Stream* stream) {
  if (max_value == 0 || max_value > ids_.size()) {
    return Err(ACL_ERROR_INVALID_PARAM, "maxValue {} must be 1..{} (the list's labels)", max_value, ids_.size());
  }
  auto span = ResolveSpan(index_ptr, sizeof(uint32_t), "ptr");
  if (!span.ok()) return span.status();
  if (span->device == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr {} is not device memory", index_ptr);
  for (uint32_t i = 0; i < max_value; ++i) {
    Label* l = labels_[i];
    if (l->context() != stream->context()) {
      return Err(ACL_ERROR_RT_LABEL_CONTEXT, "label {} of the list belongs to another context than stream {}", i,
                 stream->id());
    }
    if (l->stream() != nullptr) {
      return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "label {} of the list is already set: a backward jump (a loop) needs a model that replays its "
                 "stream; on a stream a switch can only skip forward to labels set after it", i);
    }
  }
  hal::Task t;
  t.kind = hal::TaskKind::kLabelSwitch;
  t.src = index_ptr;
  t.size = max_value;
  t.host_arg = const_cast<uint64_t*>(ids_.data());
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

void LabelList::Destroy() {
  if (!Invalidate()) return;
  Release();
}

}  // namespace npurt::core
