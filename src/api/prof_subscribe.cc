// Entry points: operator subscription (aclprofModelSubscribe) and the readers of its records
// (aclprofGetOp*). A subscriber passes the write end of a pipe; operator timing records (ProfOpRecord,
// fixed size) are written there by the model layer when it runs a subscribed model, and the
// subscriber parses what it reads with aclprofGetOp*. npurt has no model executor yet: subscriptions
// are accepted and validated, no records are produced until models run (docs/profiling.md).
#include <cstring>
#include <map>
#include <mutex>

#include <unistd.h>

#include "acl/acl_prof.h"
#include "api/handle_tags.h"
#include "base/clock.h"
#include "core/runtime.h"
#include "profiling/aprof_pub.h"
#include "api/api_common.h"
#include "api/prof_objects.h"
#include "core/thread_state.h"
#include "dfx/profiler.h"

using npurt::Err;
using npurt::api::kProfOpMagic;
using npurt::api::ProfOpRecord;
using npurt::api::ProfSubscribeConfig;

namespace {

std::mutex g_subs_mu;
std::map<uint32_t, int> g_subscriptions;  // model id -> fd
std::map<uint32_t, uint32_t> g_model_devices;  // model id -> device (MsprofSetDeviceIdByGeModelIdx)

// Validates an opInfo buffer and copies record `index` into `*out` (false and a reported error otherwise).
// The buffer comes from the user: it may be unaligned, and its strings need not be terminated, so the
// record is copied and its strings are cut at their fields' ends.
bool RecordAt(const char* fn, const void* opInfo, size_t opInfoLen, uint32_t index, ProfOpRecord* out) {
  if (opInfo == nullptr) {
    npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "opInfo is a null pointer"));
    return false;
  }
  if (opInfoLen == 0 || opInfoLen % sizeof(ProfOpRecord) != 0) {
    npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "opInfoLen {} is not a multiple of the record size {}",
                               opInfoLen, sizeof(ProfOpRecord)));
    return false;
  }
  const size_t count = opInfoLen / sizeof(ProfOpRecord);
  if (index >= count) {
    npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "index {} is out of range ({} records)", index, count));
    return false;
  }
  std::memcpy(out, static_cast<const char*>(opInfo) + size_t{index} * sizeof(ProfOpRecord), sizeof *out);
  if (out->magic != kProfOpMagic) {
    npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "record {} is not an operator record", index));
    return false;
  }
  out->op_type[sizeof out->op_type - 1] = '\0';
  out->op_name[sizeof out->op_name - 1] = '\0';
  out->thread_text[sizeof out->thread_text - 1] = '\0';
  return true;
}

aclError CopyText(const char* fn, const char* text, char* out, size_t out_len) {
  const size_t n = std::strlen(text);
  if (out == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "output buffer is a null pointer"));
  if (out_len < n + 1) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "buffer of {} bytes is too small ({} needed)",
                                      out_len, n + 1));
  }
  std::memcpy(out, text, n + 1);
  return ACL_SUCCESS;
}

}  // namespace

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics,
                                                     void* fd) {
  NPURT_HANDLE_SCOPE();
  auto fail = [](const npurt::Status& st) -> aclprofSubscribeConfig* {
    npurt::api::Report("aclprofCreateSubscribeConfig", st);
    return nullptr;
  };
  if (fd == nullptr) return fail(Err(ACL_ERROR_INVALID_PARAM, "fd is a null pointer"));
  if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
    return fail(Err(ACL_ERROR_INVALID_PARAM, "timeInfoSwitch {} is invalid (0 or 1)", int(timeInfoSwitch)));
  }
  if (!((aicoreMetrics >= ACL_AICORE_ARITHMETIC_UTILIZATION && aicoreMetrics <= ACL_AICORE_MEMORY_ACCESS) ||
        aicoreMetrics == ACL_AICORE_NONE)) {
    return fail(Err(ACL_ERROR_INVALID_PARAM, "aicoreMetrics {} is invalid", int(aicoreMetrics)));
  }
  ProfSubscribeConfig* c = npurt::NewHandle<ProfSubscribeConfig>();
  if (c == nullptr) return fail(Err(ACL_ERROR_BAD_ALLOC, "out of handle slots"));
  c->time_info = timeInfoSwitch;
  c->metrics = aicoreMetrics;
  c->fd = *static_cast<int*>(fd);
  return reinterpret_cast<aclprofSubscribeConfig*>(c);
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(profSubscribeConfig);
  auto* c = npurt::LookupHandle<ProfSubscribeConfig>(profSubscribeConfig, npurt::handle_tags::kProfSubscribeConfig);
  if (c == nullptr || !c->Invalidate()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "not a live subscribe config"));
  }
  c->Release();
  return ACL_SUCCESS;
}

aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(profSubscribeConfig);
  auto* c = npurt::LookupHandle<ProfSubscribeConfig>(profSubscribeConfig, npurt::handle_tags::kProfSubscribeConfig);
  if (c == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "not a live subscribe config"));
  const auto mode = npurt::dfx::Profiler::Get().mode();
  if (mode == npurt::dfx::ProfMode::kCommand) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_PROF_ALREADY_RUN, "profiling runs under msprof or the "
                                                                        "aclInit config"));
  }
  if (mode == npurt::dfx::ProfMode::kApi) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_PROF_API_CONFLICT, "subscription conflicts with the "
                                                                         "aclprofInit session"));
  }
  std::lock_guard<std::mutex> lock(g_subs_mu);
  if (g_subscriptions.count(modelId) != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "model {} is already subscribed",
                                            modelId));
  }
  g_subscriptions[modelId] = c->fd;
  return ACL_SUCCESS;
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  NPURT_HANDLE_SCOPE();
  std::lock_guard<std::mutex> lock(g_subs_mu);
  auto it = g_subscriptions.find(modelId);
  if (it == g_subscriptions.end()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_MODEL_ID, "model {} is not subscribed", modelId));
  }
  const int fd = it->second;
  g_subscriptions.erase(it);
  // As CANN's profiler does: the subscriber's pipe is closed once no subscription writes to it any more,
  // so that its reader sees the end of the data (read() returns 0) instead of blocking forever.
  bool shared = false;
  for (const auto& [model, other_fd] : g_subscriptions) shared = shared || other_fd == fd;
  if (!shared && fd >= 0) close(fd);
  return ACL_SUCCESS;
}

int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  auto count = npurt::core::Runtime::Get().DeviceCount();
  if (!count.ok()) return npurt::api::Report(__func__, count.status());
  if (deviceId >= count.value()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_INVALID_DEVICEID, "device id {} is out of range ({} devices)",
                                            deviceId, count.value()));
  }
  std::lock_guard<std::mutex> lock(g_subs_mu);
  g_model_devices[geModelIdx] = deviceId;
  return ACL_SUCCESS;
}

int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  std::lock_guard<std::mutex> lock(g_subs_mu);
  auto it = g_model_devices.find(geModelIdx);
  if (it == g_model_devices.end() || it->second != deviceId) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "model {} is not recorded on device {}",
                                            geModelIdx, deviceId));
  }
  g_model_devices.erase(it);
  return ACL_SUCCESS;
}

uint64_t MsprofSysCycleTime(void) {
  NPURT_HANDLE_SCOPE();
  return npurt::NowNs();
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(opDescSize);
  *opDescSize = sizeof(ProfOpRecord);
  return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(opNumber);
  ProfOpRecord r;
  if (!RecordAt(__func__, opInfo, opInfoLen, 0, &r)) return npurt::core::Tls().last_error;
  *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(ProfOpRecord));
  return ACL_SUCCESS;
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opTypeLen) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(opTypeLen);
  ProfOpRecord r;
  if (!RecordAt(__func__, opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
  *opTypeLen = strnlen(r.op_type, sizeof r.op_type - 1) + 1;
  return ACL_SUCCESS;
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType, size_t opTypeLen) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  if (!RecordAt(__func__, opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
  return CopyText(__func__, r.op_type, opType, opTypeLen);
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opNameLen) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(opNameLen);
  ProfOpRecord r;
  if (!RecordAt(__func__, opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
  *opNameLen = strnlen(r.op_name, sizeof r.op_name - 1) + 1;
  return ACL_SUCCESS;
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName, size_t opNameLen) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  if (!RecordAt(__func__, opInfo, opInfoLen, index, &r)) return ACL_ERROR_INVALID_PARAM;
  return CopyText(__func__, r.op_name, opName, opNameLen);
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  return RecordAt(__func__, opInfo, opInfoLen, index, &r) ? r.start_ns : 0;
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  return RecordAt(__func__, opInfo, opInfoLen, index, &r) ? r.end_ns : 0;
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  return RecordAt(__func__, opInfo, opInfoLen, index, &r) ? r.end_ns - r.start_ns : 0;
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  return RecordAt(__func__, opInfo, opInfoLen, index, &r) ? r.model_id : 0;
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
  NPURT_HANDLE_SCOPE();
  ProfOpRecord r;
  return RecordAt(__func__, opInfo, opInfoLen, index, &r) ? static_cast<aclprofSubscribeOpFlag>(r.flag) : ACL_SUBSCRIBE_NONE;
}

const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
  NPURT_HANDLE_SCOPE();
  // The text is returned from a per-thread copy (valid until this thread's next call): the record in the
  // user's buffer need not hold a terminated string.
  thread_local ProfOpRecord r;
  if (!RecordAt(__func__, opInfo, opInfoLen, index, &r)) return nullptr;
  if (attri != ACL_SUBSCRIBE_ATTRI_THREADID) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attribute {} is invalid", int(attri)));
    return nullptr;
  }
  return r.thread_text;
}
