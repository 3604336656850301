#include "core/sync/ipc_event.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <utility>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/sync/notify.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

constexpr uint32_t kEventHandleMagic = 0x4e504945;  // "NPIE"
constexpr uint32_t kEventHandleVersion = 1;
constexpr const char* kNotifyKeyPrefix = "npurt-ntf-";

struct EventHandleLayout {
  uint32_t magic;
  uint32_t version;
  hal::FlagShareToken token;
};
static_assert(sizeof(EventHandleLayout) <= kIpcEventHandleBytes);

// The notify's import policy, in its shared flag's area after the record/wait counters.
struct NotifyAccess {
  std::atomic<int32_t> exporter_pid;
  std::atomic<uint32_t> pid_validation;  // 1 = only listed processes may import
  std::atomic<uint32_t> pid_count;
  std::atomic<int32_t> pids[496];
};
static_assert(SequenceSignal::kCounterBytes + sizeof(NotifyAccess) <= hal::kFlagSharedAreaBytes);
constexpr size_t kMaxNotifyPids = sizeof(NotifyAccess::pids) / sizeof(NotifyAccess::pids[0]);

NotifyAccess* AccessOf(hal::Flag* flag) {
  return reinterpret_cast<NotifyAccess*>(flag->shared_area() + SequenceSignal::kCounterBytes);
}

// Keys spell the token in hex without its trailing zero bytes (a short key fits the 65 bytes that
// programs commonly pass).
std::string TokenToKey(const hal::FlagShareToken& token) {
  size_t used = sizeof token.bytes;
  while (used > 0 && token.bytes[used - 1] == 0) --used;
  std::string key = kNotifyKeyPrefix;
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < used; ++i) {
    key += kHex[token.bytes[i] >> 4];
    key += kHex[token.bytes[i] & 15];
  }
  return key;
}

bool KeyToToken(const std::string& key, hal::FlagShareToken* token) {
  const size_t plen = std::strlen(kNotifyKeyPrefix);
  if (key.compare(0, plen, kNotifyKeyPrefix) != 0) return false;
  const size_t digits = key.size() - plen;
  if (digits == 0 || digits % 2 != 0 || digits / 2 > sizeof token->bytes) return false;
  std::memset(token->bytes, 0, sizeof token->bytes);
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < digits / 2; ++i) {
    const int hi = nibble(key[plen + 2 * i]);
    const int lo = nibble(key[plen + 2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    token->bytes[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

}  // namespace

Status IpcEventHandle(Event* event, uint8_t out[kIpcEventHandleBytes]) {
  EventHandleLayout h{kEventHandleMagic, kEventHandleVersion, {}};
  if ((event->flags() & ACL_EVENT_IPC) == 0 || !event->flag()->share_token(&h.token)) {
    return Err(ACL_ERROR_INVALID_PARAM, "event {} was not created with ACL_EVENT_IPC (aclrtCreateEventExWithFlag)",
               event->id());
  }
  std::memset(out, 0, kIpcEventHandleBytes);
  std::memcpy(out, &h, sizeof h);
  return Status::Ok();
}

StatusOr<Event*> IpcOpenEvent(Context* context, const uint8_t handle[kIpcEventHandleBytes]) {
  EventHandleLayout h;
  std::memcpy(&h, handle, sizeof h);
  if (h.magic != kEventHandleMagic || h.version != kEventHandleVersion) {
    return Err(ACL_ERROR_INVALID_PARAM, "the handle was not made by aclrtIpcGetEventHandle");
  }
  auto flag = context->device()->hal()->OpenSharedFlag(h.token);
  if (!flag.ok()) return flag.status();
  return Event::CreateWithFlag(context, ACL_EVENT_IPC, std::move(flag.value()));
}

StatusOr<std::string> NotifyExport(Notify* notify, bool pid_validation) {
  NPURT_RETURN_IF_ERROR(notify->ShareFlag());
  hal::Flag* flag = notify->shared_flag();
  hal::FlagShareToken token;
  if (flag == nullptr || !flag->share_token(&token)) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "notify {} cannot be shared", notify->id());
  }
  NotifyAccess* access = AccessOf(flag);
  access->exporter_pid.store(getpid(), std::memory_order_release);
  access->pid_validation.store(pid_validation ? 1 : 0, std::memory_order_release);
  return TokenToKey(token);
}

Status NotifyAllowPids(Notify* notify, const int32_t* pids, size_t count) {
  hal::Flag* flag = notify->shared_flag();
  if (flag == nullptr || AccessOf(flag)->exporter_pid.load(std::memory_order_acquire) != getpid()) {
    return Err(ACL_ERROR_INVALID_PARAM, "notify {} was not exported by this process (aclrtNotifyGetExportKey)",
               notify->id());
  }
  if (pids == nullptr || count == 0) return Err(ACL_ERROR_INVALID_PARAM, "the pid list is empty");
  for (size_t i = 0; i < count; ++i) {
    if (pids[i] <= 0) return Err(ACL_ERROR_INVALID_PARAM, "pid[{}] = {} is not a process id", i, pids[i]);
  }
  NotifyAccess* access = AccessOf(flag);
  // The exporter alone writes the list; an importer reads the count after the entries (release/acquire).
  uint32_t n = access->pid_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < count; ++i) {
    bool listed = false;
    for (uint32_t j = 0; j < n && !listed; ++j) listed = access->pids[j].load(std::memory_order_relaxed) == pids[i];
    if (listed) continue;
    if (n == kMaxNotifyPids) return Err(ACL_ERROR_INVALID_PARAM, "more than {} processes allowed", kMaxNotifyPids);
    access->pids[n++].store(pids[i], std::memory_order_relaxed);
    access->pid_count.store(n, std::memory_order_release);
  }
  return Status::Ok();
}

StatusOr<Notify*> NotifyImport(Device* device, const std::string& key) {
  hal::FlagShareToken token;
  if (!KeyToToken(key, &token)) {
    return Err(ACL_ERROR_INVALID_PARAM, "'{}' is not a notify key (expected {}<hex>)", key, kNotifyKeyPrefix);
  }
  auto flag = device->hal()->OpenSharedFlag(token);
  if (!flag.ok()) return flag.status();
  NotifyAccess* access = AccessOf(flag.value().get());
  const int32_t self = getpid();
  const int32_t exporter = access->exporter_pid.load(std::memory_order_acquire);
  if (access->pid_validation.load(std::memory_order_acquire) != 0 && exporter != self) {
    const uint32_t n = access->pid_count.load(std::memory_order_acquire);
    bool listed = false;
    for (uint32_t j = 0; j < n && !listed; ++j) listed = access->pids[j].load(std::memory_order_relaxed) == self;
    if (!listed) {
      return Err(ACL_ERROR_RT_NO_PERMISSION,
                 "process {} may not import notify '{}': the exporter (process {}) has not allowed it ({} process(es) "
                 "allowed; see aclrtNotifySetImportPid)", self, key, exporter, n);
    }
  }
  return Notify::CreateShared(device, std::move(flag.value()));
}

}  // namespace npurt::core
