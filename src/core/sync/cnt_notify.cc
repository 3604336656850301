#include "core/sync/cnt_notify.h"

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/sync/event.h"
#include "core/handle_tags.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

std::atomic<uint32_t> g_next_cnt_notify_id{0};

StatusOr<hal::ValueUpdate> UpdateFor(int32_t mode) {
  switch (mode) {
    case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE: return hal::ValueUpdate::kSet;
    case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE: return hal::ValueUpdate::kAdd;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE: return hal::ValueUpdate::kOr;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE: return hal::ValueUpdate::kAnd;
    default:
      return Err(ACL_ERROR_INVALID_PARAM, "record mode {} is not an aclrtCntNotifyRecordMode (0, 1, 2, 4)", mode);
  }
}

StatusOr<hal::ValueCompare> CompareFor(int32_t mode) {
  switch (mode) {
    case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE: return hal::ValueCompare::kLess;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE: return hal::ValueCompare::kEqual;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE: return hal::ValueCompare::kGreater;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE: return hal::ValueCompare::kGreaterEqual;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE: return hal::ValueCompare::kAllBits;
    default:
      return Err(ACL_ERROR_INVALID_PARAM, "wait mode {} is not an aclrtCntNotifyWaitMode (0..4)", mode);
  }
}

}  // namespace

CntNotify::CntNotify(Device* device, uint64_t flags)
    : HandleObject(handle_tags::kCntNotify),
      device_(device),
      flags_(flags),
      id_(g_next_cnt_notify_id.fetch_add(1, std::memory_order_relaxed)) {}

StatusOr<CntNotify*> CntNotify::Create(Device* device, uint64_t flags) {
  CntNotify* n = NewHandle<CntNotify>(device, flags);
  if (n == nullptr) return Err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, "out of handle slots for counting notifies");
  return n;
}

CntNotify::~CntNotify() {
  if (racecheck::On()) [[unlikely]] racecheck::OnSyncObjectDestroyed(&counter_);
}

Status CntNotify::Record(Stream* stream, int32_t mode, uint32_t value) {
  auto update = UpdateFor(mode);
  if (!update.ok()) return update.status();
  SubmitUpdate(stream, update.value(), value);
  return Status::Ok();
}

void CntNotify::SubmitUpdate(Stream* stream, hal::ValueUpdate update, uint64_t value) {
  hal::Task t;
  t.kind = hal::TaskKind::kValueUpdate;
  t.dst = &counter_;
  t.value = value;
  t.aux = static_cast<uint32_t>(update);
  RetainForTask(t, this);
  stream->Submit(t);
}

Status CntNotify::Wait(Stream* stream, int32_t mode, uint32_t value, uint32_t timeout_ms, bool clear) {
  auto compare = CompareFor(mode);
  if (!compare.ok()) return compare.status();
  hal::Task t;
  t.kind = hal::TaskKind::kValueWait;
  t.dst = &counter_;
  t.value = value;
  t.aux = static_cast<uint32_t>(compare.value());
  t.timeout_ns = static_cast<uint64_t>(timeout_ms) * 1000000ull;
  RetainForTask(t, this);
  stream->Submit(t);
  return clear ? Reset(stream) : Status::Ok();
}

Status CntNotify::Reset(Stream* stream) {
  SubmitUpdate(stream, hal::ValueUpdate::kSet, 0);
  return Status::Ok();
}

void CntNotify::Destroy() {
  if (!Invalidate()) return;
  Release();
}

}  // namespace npurt::core
