// Entry points: tasks of model running instances — introspection, parameters, task groups, conditional
// tasks, and the stream activation / switch tasks of explicitly built models.
#include <vector>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/model_ri_common.h"
#include "api/model_ri_streams.h"
#include "core/model_ri/model_ri.h"
#include "core/model_ri/model_ri_cond.h"
#include "core/handle_tags.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::ModelRI;

namespace {

// Copies `items` to out[0..capacity) with the capacity/count convention of aclmdlRIGetStreams.
template <typename T, typename U>
npurt::Status CopyOut(const std::vector<T>& items, U* out, uint32_t* count) {
  if (out == nullptr) {
    *count = static_cast<uint32_t>(items.size());
    return npurt::Status::Ok();
  }
  if (*count < items.size()) {
    return Err(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "the array holds {} entries, {} are needed", *count,
               items.size());
  }
  for (size_t i = 0; i < items.size(); ++i) out[i] = items[i];
  *count = static_cast<uint32_t>(items.size());
  return npurt::Status::Ok();
}

npurt::StatusOr<ModelRI*> Recording(npurt::core::Stream* s, ModelRI::State state) {
  ModelRI* g = s->recording();
  if (g == nullptr || g->state() != state) {
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not {}", s->id(),
               state == ModelRI::State::kBuilding ? "bound to a model instance being built" : "capturing");
  }
  return g;
}

npurt::StatusOr<npurt::core::TaskGroup*> ResolveGroup(aclrtTaskGrp handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is a null pointer");
  auto* grp = npurt::LookupHandle<npurt::core::TaskGroup>(handle, npurt::handle_tags::kModelTaskGroup);
  if (grp == nullptr || !grp->graph->alive()) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "task group {} is not a group of a live model instance", handle);
  }
  return grp;
}

npurt::StatusOr<npurt::core::CondHandle*> ResolveCond(aclmdlRICondHandle handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "condition handle is a null pointer");
  auto* c = npurt::LookupHandle<npurt::core::CondHandle>(handle, npurt::handle_tags::kModelCond);
  if (c == nullptr) return Err(ACL_ERROR_RT_INVALID_HANDLE, "{} is not a live condition handle", handle);
  return c;
}

}  // namespace

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(numStreams);
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(CopyOut(g->Streams(), streams, numStreams));
  return ACL_SUCCESS;
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(numTasks);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  ModelRI* g = ModelRI::OfStream(s);
  if (g == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "stream {} belongs to no model instance", s->id()));
  }
  auto list = g->TasksOf(s);
  g->Release();
  if (!list.ok()) return npurt::api::Report(__func__, list.status());
  NPURT_API_CHECK(CopyOut(list.value(), tasks, numTasks));
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(type);
  NPURT_API_ASSIGN(t, npurt::api::ResolveModelRITask(task));
  *type = t->graph->TaskType(*t);
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(id);
  NPURT_API_ASSIGN(t, npurt::api::ResolveModelRITask(task));
  *id = t->node;
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(params);
  NPURT_API_ASSIGN(t, npurt::api::ResolveModelRITask(task));
  NPURT_API_CHECK(t->graph->GetParams(*t, params));
  return ACL_SUCCESS;
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(params);
  NPURT_API_ASSIGN(t, npurt::api::ResolveModelRITask(task));
  NPURT_API_CHECK(t->graph->SetParams(*t, *params));
  return ACL_SUCCESS;
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                       aclrtLaunchKernelAttrValue* attrValue) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attrValue);
  NPURT_API_ASSIGN(t, npurt::api::ResolveModelRITask(task));
  NPURT_API_CHECK(t->graph->KernelAttribute(*t, attrId, attrValue));
  return ACL_SUCCESS;
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(t, npurt::api::ResolveModelRITask(task));
  NPURT_API_CHECK(t->graph->Disable(*t));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(g, Recording(s, ModelRI::State::kCapturing));
  NPURT_API_CHECK(g->BeginGroup(s));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(g, Recording(s, ModelRI::State::kCapturing));
  NPURT_API_ASSIGN(grp, g->EndGroup(s));
  *handle = grp;
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(grp, ResolveGroup(handle));
  NPURT_API_CHECK(grp->graph->BeginGroupUpdate(s, grp));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  ModelRI* g = s->recording();
  if (g == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                                            "stream {} has no task group update open", s->id()));
  }
  NPURT_API_CHECK(g->EndGroupUpdate(s));
  return ACL_SUCCESS;
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  if (flag != 0 && flag != ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag {} is invalid", static_cast<int>(flag)));
  }
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_ASSIGN(c, npurt::core::CondHandle::Create(g, defaultLaunchValue,
                                                      flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT));
  *handle = c;
  return ACL_SUCCESS;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  NPURT_API_ASSIGN(c, ResolveCond(handle));
  *ptr = c->value();
  return ACL_SUCCESS;
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  NPURT_HANDLE_SCOPE();
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags {} must be 0", flags));
  NPURT_API_ASSIGN(c, ResolveCond(params.handle));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (params.modelRIArray == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "modelRIArray is a null pointer"));
  }
  const bool size_ok = (params.type == ACL_MODEL_RI_COND_TYPE_IF && (params.size == 1 || params.size == 2)) ||
                       (params.type == ACL_MODEL_RI_COND_TYPE_WHILE && params.size == 1) ||
                       (params.type == ACL_MODEL_RI_COND_TYPE_SWITCH && params.size >= 1 && params.size <= 1024);
  if (!size_ok) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} branches do not fit condition type {}",
                                            params.size, static_cast<int>(params.type)));
  }
  NPURT_API_ASSIGN(g, Recording(s, ModelRI::State::kCapturing));
  if (g != c->owner()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "the condition handle belongs to another model instance than the capture"));
  }
  std::vector<ModelRI*> children;
  for (uint32_t i = 0; i < params.size; ++i) {
    auto child = ModelRI::Create(g->context(), ModelRI::State::kEmpty);
    if (!child.ok()) {
      for (ModelRI* ch : children) ch->Release();
      return npurt::api::Report(__func__, child.status());
    }
    children.push_back(child.value());
  }
  NPURT_API_CHECK(g->AddCondTask(s, c, params.type, children));
  for (uint32_t i = 0; i < params.size; ++i) params.modelRIArray[i] = children[i];
  return ACL_SUCCESS;
}

namespace npurt::api {

bool BuildingModel(npurt::core::Stream* s) {
  ModelRI* g = s->recording();
  return g != nullptr && g->state() == ModelRI::State::kBuilding;
}

npurt::Status ModelActivateStream(npurt::core::Stream* s, npurt::core::Stream* target) {
  return s->recording()->AppendActivate(s, target);
}

npurt::Status ModelSwitchStream(npurt::core::Stream* s, void* left, aclrtCondition cond, void* right,
                                aclrtCompareDataType type, npurt::core::Stream* on_true,
                                npurt::core::Stream* on_false) {
  npurt::core::SwitchNode node;
  node.left = left;
  node.right = right;
  node.cond = cond;
  node.type = type;
  return s->recording()->AppendSwitch(s, node, on_true, on_false);
}

}  // namespace npurt::api
