// Entry points: model running instances — capture, explicit building, launch and lifetime.
#include <cstring>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/model_ri_common.h"
#include "core/context.h"
#include "core/model_ri/model_ri.h"
#include "core/model_ri/model_ri_capture.h"
#include "core/handle_tags.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::CaptureMode;
using npurt::core::ModelRI;

namespace npurt::api {

StatusOr<core::ModelRI*> ResolveModelRI(aclmdlRI model) {
  if (model == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "modelRI is a null pointer");
  ModelRI* g = LookupHandle<ModelRI>(model, handle_tags::kModelRI);
  if (g == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "modelRI {} is not a live model running instance", model);
  }
  return g;
}

StatusOr<core::ModelRITaskHandle*> ResolveModelRITask(aclmdlRITask task) {
  if (task == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "task is a null pointer");
  auto* t = LookupHandle<core::ModelRITaskHandle>(task, handle_tags::kModelTask);
  if (t == nullptr || !t->graph->alive()) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "task {} is not a task of a live model running instance", task);
  }
  return t;
}

}  // namespace npurt::api

namespace {

// `mode` as an int (npurt::RawEnum): a caller may pass any value, and reading an invalid one as the enum
// type is undefined.
npurt::StatusOr<CaptureMode> ParseMode(int mode) {
  if (mode != ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && mode != ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
      mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
    return Err(ACL_ERROR_INVALID_PARAM, "capture mode {} is invalid", mode);
  }
  return static_cast<CaptureMode>(mode);
}

// The graph `stream` captures into (not a task group update), or 107029.
npurt::StatusOr<ModelRI*> Capturing(npurt::core::Stream* s) {
  ModelRI* g = s->recording();
  if (g == nullptr || g->state() != ModelRI::State::kCapturing) {
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing", s->id());
  }
  return g;
}

// The entry points that apply one ModelRI method to a stream: resolve both, call, report.
aclError OnGraphStream(const char* fn, aclmdlRI modelRI, aclrtStream stream,
                       npurt::Status (ModelRI::*method)(npurt::core::Stream*)) {
  auto g = npurt::api::ResolveModelRI(modelRI);
  if (!g.ok()) return npurt::api::Report(fn, g.status());
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return npurt::api::Report(fn, s.status());
  return npurt::api::Report(fn, (g.value()->*method)(s.value()));
}

}  // namespace

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(m, ParseMode(npurt::RawEnum(mode)));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (s->recording() != nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already recording", s->id()));
  }
  NPURT_API_ASSIGN(g, ModelRI::Create(s->context(), ModelRI::State::kEmpty));
  npurt::Status st = g->BeginCapture(s, m);
  if (!st.ok()) {
    g->Destroy();
    return npurt::api::Report(__func__, st);
  }
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(m, ParseMode(npurt::RawEnum(mode)));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->BeginCapture(s, m));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(status);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  ModelRI* g = s->recording();
  if (g != nullptr && g->state() == ModelRI::State::kCapturing) {
    *status = g->invalidated() ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    if (modelRI != nullptr) *modelRI = g;
  } else {
    *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (modelRI != nullptr) *modelRI = nullptr;
  }
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(modelRI);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(g, Capturing(s));
  bool ended = false;
  npurt::Status st = g->EndCapture(s, &ended);
  if (!st.ok()) {
    if (ended) {
      // The capture was invalidated: it is over and its model is discarded.
      *modelRI = nullptr;
      g->Destroy();
    }
    return npurt::api::Report(__func__, st);
  }
  *modelRI = g;
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(mode);
  NPURT_API_ASSIGN(m, ParseMode(npurt::RawEnum(*mode)));
  *mode = static_cast<aclmdlRICaptureMode>(npurt::core::ExchangeThreadMode(m));
  return ACL_SUCCESS;
}

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(modelRI);
  if (flag != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag {} must be 0", flag));
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(g, ModelRI::Create(ctx, ModelRI::State::kBuilding));
  *modelRI = g;
  return ACL_SUCCESS;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "stream flag {:#x} is invalid", flag));
  }
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(g->Bind(s, flag == ACL_MODEL_STREAM_FLAG_HEAD));
  return ACL_SUCCESS;
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return OnGraphStream(__func__, modelRI, stream, &ModelRI::EndTask);
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
  NPURT_HANDLE_SCOPE();
  if (reserve != nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "reserve must be a null pointer"));
  }
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->FinishBuild());
  return ACL_SUCCESS;
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return OnGraphStream(__func__, modelRI, stream, &ModelRI::Unbind);
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return OnGraphStream(__func__, modelRI, stream, &ModelRI::Launch);
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->Execute(timeout));
  return ACL_SUCCESS;
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                          "aborting model instance {} is not supported by npurt: synchronize or "
                                          "abort the stream it runs on",
                                          g->id()));
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  if (g->state() == ModelRI::State::kCapturing) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_MODEL_CAPTURED,
                                            "model instance {} is being captured: end the capture first", g->id()));
  }
  g->Destroy();
  return ACL_SUCCESS;
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->ApplyUpdates());
  return ACL_SUCCESS;
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(name);
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  g->SetName(name);
  return ACL_SUCCESS;
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(name);
  if (maxLen == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "maxLen must be positive"));
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  const std::string n = g->name();
  if (n.size() + 1 > maxLen) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the name needs {} bytes, maxLen is {}",
                                            n.size() + 1, maxLen));
  }
  std::memcpy(name, n.c_str(), n.size() + 1);
  return ACL_SUCCESS;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(modelRIId);
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  *modelRIId = g->id();
  return ACL_SUCCESS;
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(func);
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->AddDestroyCallback(func, userData));
  return ACL_SUCCESS;
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(func);
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->RemoveDestroyCallback(func));
  return ACL_SUCCESS;
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  g->LogSummary();
  return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(path);
  if (flags != ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY && flags != ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags {} is invalid", flags));
  }
  NPURT_API_ASSIGN(g, npurt::api::ResolveModelRI(modelRI));
  NPURT_API_CHECK(g->WriteJson(path, flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
  return ACL_SUCCESS;
}

aclError aclrtPersistentTaskClean(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (!s->persistent()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "stream {} is not persistent", s->id()));
  }
  if (ModelRI* g = s->recording()) NPURT_API_CHECK(g->CleanStream(s));
  return ACL_SUCCESS;
}
