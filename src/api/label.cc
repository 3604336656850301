// Entry points: labels and stream switching (core/label.h), stream stop.
#include <vector>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/model_ri_streams.h"
#include "base/clock.h"
#include "core/kernel/builtin_tasks.h"
#include "core/context.h"
#include "core/label.h"
#include "core/handle_tags.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::Label;
using npurt::core::LabelList;
using npurt::core::Stream;

namespace {

npurt::StatusOr<Label*> ResolveLabel(aclrtLabel label) {
  if (label == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "label is a null pointer");
  Label* l = npurt::LookupHandle<Label>(label, npurt::handle_tags::kLabel);
  if (l == nullptr) return Err(ACL_ERROR_RT_INVALID_HANDLE, "label handle {} is not a live label", label);
  return l;
}

npurt::StatusOr<LabelList*> ResolveLabelList(aclrtLabelList list) {
  if (list == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "labelList is a null pointer");
  LabelList* l = npurt::LookupHandle<LabelList>(list, npurt::handle_tags::kLabelList);
  if (l == nullptr) return Err(ACL_ERROR_RT_INVALID_HANDLE, "label list handle {} is not a live label list", list);
  return l;
}

// Stream activation only has meaning for the streams of a model, which start inactive; a plain stream
// is always active.
npurt::Status RequireActiveStream(Stream* s, const char* what) {
  if (s->persistent()) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{} (stream {}) is a model stream (ACL_STREAM_PERSISTENT): "
               "activating model streams needs a model (aclmdlRI), which npurt does not run with this call", what,
               s->id());
  }
  return npurt::Status::Ok();
}

npurt::Status CheckCompareOperand(const void* p, int32_t data_type, const char* what) {
  if (p == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  const size_t bytes = data_type == ACL_RT_SWITCH_INT64 ? 8 : 4;
  auto span = npurt::core::ResolveSpan(p, bytes, what);
  if (!span.ok()) return span.status();
  if (span->device == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not device memory", what, p);
  return npurt::Status::Ok();
}

}  // namespace

aclError aclrtCreateLabel(aclrtLabel* label) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(label);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(l, Label::Create(ctx));
  *label = l;
  return ACL_SUCCESS;
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(l, ResolveLabel(label));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(l->Set(s));
  return ACL_SUCCESS;
}

aclError aclrtDestroyLabel(aclrtLabel label) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(l, ResolveLabel(label));
  l->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(labels);
  NPURT_API_NOT_NULL(labelList);
  if (num == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "num is 0"));
  std::vector<Label*> resolved;
  for (size_t i = 0; i < num; ++i) {
    NPURT_API_ASSIGN(l, ResolveLabel(labels[i]));
    resolved.push_back(l);
  }
  NPURT_API_ASSIGN(list, LabelList::Create(resolved.data(), resolved.size()));
  *labelList = list;
  return ACL_SUCCESS;
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(list, ResolveLabelList(labelList));
  list->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  NPURT_API_ASSIGN(list, ResolveLabelList(labelList));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(list->Switch(ptr, maxValue, s));
  return ACL_SUCCESS;
}

// A plain stream is always active: activation is an ordering point of `stream` and nothing more.
aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(target, npurt::api::ResolveStream(activeStream));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (target == s) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "a stream cannot activate itself"));
  }
  if (npurt::api::BuildingModel(s)) {
    NPURT_API_CHECK(npurt::api::ModelActivateStream(s, target));
    return ACL_SUCCESS;
  }
  NPURT_API_CHECK(RequireActiveStream(target, "activeStream"));
  npurt::core::SubmitOrderingPoint(s);
  return ACL_SUCCESS;
}

// Activates trueStream or falseStream on a device-side comparison. Both plain streams are always
// active, so the comparison changes nothing they run: the call validates its operands and orders
// `stream`; model streams are refused.
aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (static_cast<int>(cond) < ACL_RT_EQUAL || cond > ACL_RT_LESS_OR_EQUAL) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "condition {} is not an aclrtCondition (0..5)",
                                            int(cond)));
  }
  if (dataType != ACL_RT_SWITCH_INT32 && dataType != ACL_RT_SWITCH_INT64) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "data type {} is not an aclrtCompareDataType "
                                            "(0 int32, 1 int64)", int(dataType)));
  }
  NPURT_API_CHECK(CheckCompareOperand(leftValue, dataType, "leftValue"));
  NPURT_API_CHECK(CheckCompareOperand(rightValue, dataType, "rightValue"));
  {
    NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
    if (npurt::api::BuildingModel(s)) {
      // Inside a model being built either branch may be empty (null: nothing is activated).
      npurt::core::Stream* on_true = nullptr;
      npurt::core::Stream* on_false = nullptr;
      if (trueStream != nullptr) {
        NPURT_API_ASSIGN(t, npurt::api::ResolveStream(trueStream));
        on_true = t;
      }
      if (falseStream != nullptr) {
        NPURT_API_ASSIGN(f, npurt::api::ResolveStream(falseStream));
        on_false = f;
      }
      NPURT_API_CHECK(npurt::api::ModelSwitchStream(s, leftValue, cond, rightValue, dataType, on_true, on_false));
      return ACL_SUCCESS;
    }
  }
  NPURT_API_ASSIGN(t_stream, npurt::api::ResolveStream(trueStream));
  NPURT_API_ASSIGN(f_stream, npurt::api::ResolveStream(falseStream));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(RequireActiveStream(t_stream, "trueStream"));
  NPURT_API_CHECK(RequireActiveStream(f_stream, "falseStream"));
  npurt::core::SubmitOrderingPoint(s);
  return ACL_SUCCESS;
}

// Stops the stream: discards the tasks that have not started (a parked wait is released), interrupts a
// running kernel (it fails with ACL_ERROR_RT_INTERNAL_ERROR, which the next synchronize reports, as the
// official sample 1_stream_with_failure_mode shows on an NPU) and waits for the stream to drain, at most
// kStopWaitMs.
aclError aclrtStreamStop(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  constexpr uint64_t kStopWaitMs = 30000;
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  s->queue()->Abort(ACL_ERROR_RT_INTERNAL_ERROR, "its stream was stopped (aclrtStreamStop)");
  if (!s->queue()->WaitHost(s->queue()->submitted(), npurt::NowNs() + kStopWaitMs * 1000000ull)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "stream {}'s running task did not "
                                            "finish within {} ms of the stop", s->id(), kStopWaitMs));
  }
  return ACL_SUCCESS;
}
