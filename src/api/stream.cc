// Entry points: streams.
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/racecheck/racecheck.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::Stream;

namespace {

constexpr uint32_t kLowestPriority = 7;
constexpr uint32_t kKnownStreamFlags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT |
                                      ACL_STREAM_HUGE | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;

aclError CreateStream(const char* fn, aclrtStream* stream, uint32_t priority, uint32_t flags) {
  if (stream == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "stream is a null pointer"));
  if (priority > kLowestPriority) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0 (highest)..7", priority));
  }
  auto ctx = npurt::core::RequireContext();
  if (!ctx.ok()) return npurt::api::Report(fn, ctx.status());
  npurt::core::StreamOptions opts;
  opts.priority = priority;
  opts.flags = flags & kKnownStreamFlags;  // unknown bits give a normal stream, as in CANN
  auto s = Stream::Create(ctx.value(), opts);
  if (!s.ok()) return npurt::api::Report(fn, s.status());
  *stream = s.value();
  return ACL_SUCCESS;
}

// Stream configuration handles are public structs we allocate; a registry validates them.
std::mutex g_cfg_mu;
std::unordered_set<const aclrtStreamConfigHandle*>& ConfigHandles() {
  static auto* s = new std::unordered_set<const aclrtStreamConfigHandle*>();
  return *s;
}

bool IsConfigHandle(const aclrtStreamConfigHandle* h) {
  std::lock_guard<std::mutex> lock(g_cfg_mu);
  return ConfigHandles().count(h) != 0;
}

npurt::StatusOr<Stream*> ResolveUserStream(aclrtStream stream) {
  // For calls that act on a stream object, NULL still means the default stream.
  return npurt::api::ResolveStream(stream);
}

}  // namespace

aclError aclrtCreateStream(aclrtStream* stream) {
  NPURT_HANDLE_SCOPE();
  return CreateStream(__func__, stream, 0, 0);
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  return CreateStream(__func__, stream, priority, flag);
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
  NPURT_HANDLE_SCOPE();
  auto* h = new aclrtStreamConfigHandle{nullptr, 0, 0, 0};
  std::lock_guard<std::mutex> lock(g_cfg_mu);
  ConfigHandles().insert(h);
  return h;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  {
    std::lock_guard<std::mutex> lock(g_cfg_mu);
    if (ConfigHandles().erase(handle) == 0) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live stream config handle",
                                              static_cast<void*>(handle)));
    }
  }
  delete handle;
  return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr, const void* attrValue,
                                 size_t valueSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  NPURT_API_NOT_NULL(attrValue);
  if (!IsConfigHandle(handle)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live stream config handle",
                                            static_cast<void*>(handle)));
  }
  auto need = [&](size_t n) -> aclError {
    if (valueSize != n) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attribute {} takes {} bytes, valueSize is {}",
                                              npurt::RawEnum(attr), n, valueSize));
    }
    return ACL_SUCCESS;
  };
  switch (npurt::RawEnum(attr)) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
      if (aclError e = need(sizeof(void*))) return e;
      std::memcpy(&handle->workptr, attrValue, sizeof(void*));
      break;
    case ACL_RT_STREAM_WORK_SIZE:
      if (aclError e = need(sizeof(size_t))) return e;
      std::memcpy(&handle->workSize, attrValue, sizeof(size_t));
      break;
    case ACL_RT_STREAM_FLAG: {
      if (valueSize != sizeof(uint32_t) && valueSize != sizeof(size_t)) return need(sizeof(uint32_t));
      uint64_t v = 0;
      std::memcpy(&v, attrValue, valueSize);
      handle->flag = static_cast<size_t>(v);
      break;
    }
    case ACL_RT_STREAM_PRIORITY: {
      if (aclError e = need(sizeof(uint32_t))) return e;
      uint32_t p = 0;
      std::memcpy(&p, attrValue, sizeof p);
      if (p > kLowestPriority) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0..7", p));
      }
      handle->priority = p;
      break;
    }
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown stream config attribute {}",
                                              npurt::RawEnum(attr)));
  }
  return ACL_SUCCESS;
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
  NPURT_HANDLE_SCOPE();
  if (handle == nullptr) return CreateStream(__func__, stream, 0, 0);
  if (!IsConfigHandle(handle)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live stream config handle",
                                            static_cast<const void*>(handle)));
  }
  return CreateStream(__func__, stream, handle->priority, static_cast<uint32_t>(handle->flag));
}

aclError aclrtDestroyStream(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(stream);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (s->is_default()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the default stream cannot be destroyed"));
  }
  s->Destroy(/*force=*/false);
  return ACL_SUCCESS;
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(stream);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  if (s->is_default()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the default stream cannot be destroyed"));
  }
  s->Destroy(/*force=*/true);
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  NPURT_API_CHECK(s->Synchronize(-1));
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  NPURT_API_CHECK(s->Synchronize(timeout));
  return ACL_SUCCESS;
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(status);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  *status = s->Idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  if (*status == ACL_STREAM_STATUS_COMPLETE && npurt::core::racecheck::On()) [[unlikely]] {
    npurt::core::racecheck::OnStreamSynchronized(s);  // the host saw the stream finish
  }
  return ACL_SUCCESS;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(streamId);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  *streamId = s->id();
  return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(priority);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  *priority = s->priority();
  return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(flags);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  *flags = s->flags();
  return ACL_SUCCESS;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  NPURT_HANDLE_SCOPE();
  if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "failure mode {} is not ACL_CONTINUE_ON_FAILURE "
                                            "or ACL_STOP_ON_FAILURE", mode));
  }
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  if (s->is_default() && stream == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the failure mode of the default stream cannot "
                                            "be changed"));
  }
  s->set_failure_mode(mode);
  return ACL_SUCCESS;
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      return aclrtSetStreamFailureMode(stream, value->failureMode);
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      s->overflow_switch.store(value->overflowSwitch);
      return ACL_SUCCESS;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      s->user_custom_tag.store(value->userCustomTag);
      return ACL_SUCCESS;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      s->cache_op_info.store(value->cacheOpInfoSwitch);
      return ACL_SUCCESS;
    case ACL_STREAM_ATTR_PRIORITY:
      if (value->streamPriority > kLowestPriority) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0..7",
                                                value->streamPriority));
      }
      s->set_priority(value->streamPriority);
      return ACL_SUCCESS;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown stream attribute {}", int(stmAttrType)));
  }
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(value);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  std::memset(value, 0, sizeof(*value));
  switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE: value->failureMode = s->failure_mode(); break;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: value->overflowSwitch = s->overflow_switch.load(); break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG: value->userCustomTag = s->user_custom_tag.load(); break;
    case ACL_STREAM_ATTR_CACHE_OP_INFO: value->cacheOpInfoSwitch = s->cache_op_info.load(); break;
    case ACL_STREAM_ATTR_PRIORITY: value->streamPriority = s->priority(); break;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown stream attribute {}", int(stmAttrType)));
  }
  return ACL_SUCCESS;
}

// Discards the stream's queued tasks and interrupts its running kernel, which fails as an AI core
// (vector core) exception: the next aclrtSynchronizeStream reports it, as on an NPU (the official sample
// 1_basic_features/stream/1_stream_with_failure_mode shows 507035).
aclError aclrtStreamAbort(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  s->queue()->Abort(ACL_ERROR_RT_AICORE_EXCEPTION, "its stream was aborted (aclrtStreamAbort)");
  return ACL_SUCCESS;
}

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(streamCount);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  npurt::core::Device* dev = ctx->device();
  *streamCount = dev->limits().streams - dev->stream_count();
  return ACL_SUCCESS;
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  s->overflow_switch.store(flag);
  return ACL_SUCCESS;
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(flag);
  NPURT_API_ASSIGN(s, ResolveUserStream(stream));
  *flag = s->overflow_switch.load();
  return ACL_SUCCESS;
}
