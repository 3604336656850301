// Entry points: msproftx markers and ranges, step timestamps, string ids. Each call validates its
// arguments always, and records only while ACL_PROF_MSPROFTX is collected (a no-op success otherwise, so
// instrumented programs run unchanged without a profiler).
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "api/api_common.h"
#include "api/handle_tags.h"
#include "api/prof_objects.h"
#include "base/clock.h"
#include "core/kernel/builtin_tasks.h"
#include "core/stream.h"
#include "dfx/profiler.h"

using npurt::Err;
using npurt::api::ProfStamp;
using npurt::api::ProfStepInfo;
using npurt::dfx::ProfOn;
namespace bits = npurt::dfx::prof_bits;

namespace {

constexpr uint32_t kMaxMessageLength = 128;  // CANN's msproftx message limit (bytes, without the NUL)

struct TxRange {
  std::string message;
  uint64_t start_ns;
};

// Push/pop ranges nest per thread.
thread_local std::vector<TxRange> t_range_stack;

// Start/stop ranges may end on another thread.
std::mutex g_ranges_mu;
std::map<uint32_t, TxRange> g_ranges;
uint32_t g_next_range_id = 1;

ProfStamp* ResolveStamp(void* stamp) { return npurt::LookupHandle<ProfStamp>(stamp, npurt::handle_tags::kProfStamp); }

aclError BadStamp(const char* fn, void* stamp) {
  return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live stamp (aclprofCreateStamp)", stamp));
}

int32_t StreamIdOf(aclrtStream stream, npurt::Status* status) {
  if (stream == nullptr) return -1;
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) {
    *status = s.status();
    return -1;
  }
  return s.value()->id();
}

}  // namespace

void* aclprofCreateStamp(void) {
  NPURT_HANDLE_SCOPE();
  ProfStamp* s = npurt::NewHandle<ProfStamp>();
  if (s == nullptr) {
    npurt::api::Report(__func__, Err(ACL_ERROR_BAD_ALLOC, "out of handle slots for stamps"));
    return nullptr;
  }
  return s;
}

void aclprofDestroyStamp(void* stamp) {
  NPURT_HANDLE_SCOPE();
  ProfStamp* s = ResolveStamp(stamp);
  if (s == nullptr || !s->Invalidate()) {
    (void)BadStamp(__func__, stamp);
    return;
  }
  s->Release();
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(msg);
  ProfStamp* s = ResolveStamp(stamp);
  if (s == nullptr) return BadStamp(__func__, stamp);
  if (msgLen == 0 || msgLen > kMaxMessageLength) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "msgLen {} is invalid (1..{})", msgLen,
                                            kMaxMessageLength));
  }
  s->message.assign(msg, strnlen(msg, msgLen));
  return ACL_SUCCESS;
}

aclError aclprofMark(void* stamp) {
  NPURT_HANDLE_SCOPE();
  ProfStamp* s = ResolveStamp(stamp);
  if (s == nullptr) return BadStamp(__func__, stamp);
  if (ProfOn(bits::kMsproftx)) npurt::dfx::ProfRecordMark(s->message, -1);
  return ACL_SUCCESS;
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(msg);
  if (msgLen == 0 || msgLen > kMaxMessageLength) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "msgLen {} is invalid (1..{})", msgLen,
                                            kMaxMessageLength));
  }
  npurt::Status st;
  const int32_t stream_id = StreamIdOf(stream, &st);
  NPURT_API_CHECK(st);
  if (ProfOn(bits::kMsproftx)) npurt::dfx::ProfRecordMark(std::string_view(msg, strnlen(msg, msgLen)), stream_id);
  return ACL_SUCCESS;
}

aclError aclprofPush(void* stamp) {
  NPURT_HANDLE_SCOPE();
  ProfStamp* s = ResolveStamp(stamp);
  if (s == nullptr) return BadStamp(__func__, stamp);
  t_range_stack.push_back({s->message, npurt::NowNs()});
  return ACL_SUCCESS;
}

aclError aclprofPop(void) {
  NPURT_HANDLE_SCOPE();
  if (t_range_stack.empty()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "aclprofPop without a matching aclprofPush "
                                                                      "on this thread"));
  }
  TxRange r = std::move(t_range_stack.back());
  t_range_stack.pop_back();
  if (ProfOn(bits::kMsproftx)) npurt::dfx::ProfRecordRange(r.message, r.start_ns, npurt::NowNs());
  return ACL_SUCCESS;
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attr);
  if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO || attr->message.tensorInfo == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attr has no tensor info (messageType {})",
                                            attr->messageType));
  }
  const aclprofTensorInfo* info = attr->message.tensorInfo;
  if (info->tensorNum > 0 && info->tensors == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tensorNum is {} but tensors is null",
                                            info->tensorNum));
  }
  // The range is named after the operator: aclprofStr2Id ids are the profiler's interned strings.
  std::string name = npurt::dfx::ProfStringText(info->opNameId);
  if (name.empty()) name = "op#" + std::to_string(info->opNameId);
  t_range_stack.push_back({name, npurt::NowNs()});
  return ACL_SUCCESS;
}

aclError aclprofRangePop(void) {
  NPURT_HANDLE_SCOPE();
  return aclprofPop();
}

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(rangeId);
  ProfStamp* s = ResolveStamp(stamp);
  if (s == nullptr) return BadStamp(__func__, stamp);
  std::lock_guard<std::mutex> lock(g_ranges_mu);
  const uint32_t id = g_next_range_id++;
  g_ranges[id] = {s->message, npurt::NowNs()};
  *rangeId = id;
  return ACL_SUCCESS;
}

aclError aclprofRangeStop(uint32_t rangeId) {
  NPURT_HANDLE_SCOPE();
  TxRange r;
  {
    std::lock_guard<std::mutex> lock(g_ranges_mu);
    auto it = g_ranges.find(rangeId);
    if (it == g_ranges.end()) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "range id {} is not an open range",
                                              rangeId));
    }
    r = std::move(it->second);
    g_ranges.erase(it);
  }
  if (ProfOn(bits::kMsproftx)) npurt::dfx::ProfRecordRange(r.message, r.start_ns, npurt::NowNs());
  return ACL_SUCCESS;
}

uint64_t aclprofStr2Id(const char* message) {
  NPURT_HANDLE_SCOPE();
  if (message == nullptr) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "message is a null pointer"));
    return 0;
  }
  return npurt::dfx::ProfString(message);
}

aclprofStepInfo* aclprofCreateStepInfo(void) {
  NPURT_HANDLE_SCOPE();
  ProfStepInfo* s = npurt::NewHandle<ProfStepInfo>();
  if (s == nullptr) {
    npurt::api::Report(__func__, Err(ACL_ERROR_BAD_ALLOC, "out of handle slots for step infos"));
    return nullptr;
  }
  return reinterpret_cast<aclprofStepInfo*>(s);
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) {
  NPURT_HANDLE_SCOPE();
  ProfStepInfo* s = npurt::LookupHandle<ProfStepInfo>(stepinfo, npurt::handle_tags::kProfStepInfo);
  if (s == nullptr || !s->Invalidate()) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live step info",
                                     static_cast<void*>(stepinfo)));
    return;
  }
  s->Release();
}

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  ProfStepInfo* s = npurt::LookupHandle<ProfStepInfo>(stepInfo, npurt::handle_tags::kProfStepInfo);
  if (s == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live step info",
                                            static_cast<void*>(stepInfo)));
  }
  if (tag != ACL_STEP_START && tag != ACL_STEP_END) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "step tag {} is invalid", int(tag)));
  }
  npurt::Status st;
  const int32_t stream_id = StreamIdOf(stream, &st);
  NPURT_API_CHECK(st);
  if (tag == ACL_STEP_START) {
    ++s->index;
    s->started = true;
  } else if (!s->started) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "ACL_STEP_END without ACL_STEP_START"));
  } else {
    s->started = false;
  }
  npurt::dfx::ProfRecordStep(s->index, static_cast<uint32_t>(tag), stream_id, npurt::NowNs());
  return ACL_SUCCESS;
}

namespace {

constexpr int32_t kMaxTraceBytes = 1024;

struct TraceMark {
  std::string label;
  int32_t stream_id;
};

void RecordTraceMark(void* arg) {
  const auto* m = static_cast<const TraceMark*>(arg);
  npurt::dfx::ProfRecordMark(m->label, m->stream_id);
}

}  // namespace

aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(userdata);
  if (length <= 0 || length > kMaxTraceBytes) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "length {} is invalid (1..{})", length,
                                            kMaxTraceBytes));
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  // Only while a profiler collects markers or task times (as the msproftx calls): the mark is a task of
  // the stream, so it lands in the timeline when the work queued before it has run.
  if (!ProfOn(bits::kMsproftx | bits::kAnyTaskTime)) return ACL_SUCCESS;
  auto* mark = new TraceMark{"trace ", s->id()};
  const auto* bytes = static_cast<const uint8_t*>(userdata);
  static constexpr char kHex[] = "0123456789abcdef";
  for (int32_t i = 0; i < length; ++i) {
    mark->label.push_back(kHex[bytes[i] >> 4]);
    mark->label.push_back(kHex[bytes[i] & 15]);
  }
  npurt::core::SubmitHostWork(s, &RecordTraceMark, mark);
  return ACL_SUCCESS;
}
