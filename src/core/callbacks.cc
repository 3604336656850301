#include "core/callbacks.h"

#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

// A callback in flight. Owned by two parties: the task (released by its cleanup, which also runs when
// the task is discarded) and, once delivered, the inbox that runs it.
struct Item {
  HostCallback fn;
  void* user_data;
  bool block;
  InboxKind kind;
  uint64_t thread_id;
  hal::Queue* queue = nullptr;  // set when the task runs
  std::atomic<int> refs{1};
};

void Unref(Item* item) {
  if (item->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete item;
}

void ReleaseItem(void* arg) { Unref(static_cast<Item*>(arg)); }

struct Inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Item*> items;
  uint32_t subscriptions = 0;
};

struct InboxRegistry {
  std::mutex mu;
  std::map<std::pair<int, uint64_t>, std::shared_ptr<Inbox>> inboxes;  // (kind, thread id)
};

InboxRegistry& Inboxes() {
  static InboxRegistry* r = new InboxRegistry();
  return *r;
}

std::atomic<uint64_t>& SubscriptionOf(InboxKind kind, Stream* s) {
  return kind == InboxKind::kReport ? s->report_thread : s->host_func_thread;
}

const char* Name(InboxKind kind) { return kind == InboxKind::kReport ? "report" : "host function"; }

std::shared_ptr<Inbox> FindInbox(InboxKind kind, uint64_t thread_id, bool create) {
  InboxRegistry& r = Inboxes();
  std::lock_guard<std::mutex> lock(r.mu);
  auto key = std::make_pair(static_cast<int>(kind), thread_id);
  auto it = r.inboxes.find(key);
  if (it != r.inboxes.end()) return it->second;
  if (!create) return nullptr;
  auto inbox = std::make_shared<Inbox>();
  r.inboxes.emplace(key, inbox);
  return inbox;
}

// Runs on the host-function engine when the callback task reaches the head of its stream.
void DeliverToInbox(void* arg, hal::Queue* queue) {
  auto* item = static_cast<Item*>(arg);
  item->queue = queue;
  std::shared_ptr<Inbox> inbox = FindInbox(item->kind, item->thread_id, false);
  if (inbox == nullptr) {
    NPURT_LOG_WARNING("RUNTIME", "{} callback dropped: thread {} unsubscribed before it ran", Name(item->kind),
                      item->thread_id);
    queue->CompleteHostTask(0);
    return;
  }
  const bool block = item->block;
  item->refs.fetch_add(1, std::memory_order_acq_rel);  // the inbox's reference
  {
    std::lock_guard<std::mutex> lock(inbox->mu);
    inbox->items.push_back(item);
  }
  inbox->cv.notify_all();
  if (!block) queue->CompleteHostTask(0);
}

struct DirectCall {
  HostCallback fn;
  void* args;
};

void RunDirect(void* arg, hal::Queue* queue) {
  auto* call = static_cast<DirectCall*>(arg);
  {
    racecheck::CallbackScope race_scope(call);  // host accesses of the body are ordered as the task is
    call->fn(call->args);
  }
  queue->CompleteHostTask(0);
}

void DeleteDirect(void* arg) { delete static_cast<DirectCall*>(arg); }

}  // namespace

Status Subscribe(InboxKind kind, uint64_t thread_id, Stream* stream) {
  uint64_t expected = 0;
  if (!SubscriptionOf(kind, stream).compare_exchange_strong(expected, thread_id)) {
    return Err(ACL_ERROR_REPEAT_SUBSCRIBE, "stream {} is already subscribed to {} thread {}", stream->id(),
               Name(kind), expected);
  }
  std::shared_ptr<Inbox> inbox = FindInbox(kind, thread_id, true);
  std::lock_guard<std::mutex> lock(inbox->mu);
  ++inbox->subscriptions;
  return Status::Ok();
}

Status Unsubscribe(InboxKind kind, uint64_t thread_id, Stream* stream) {
  uint64_t expected = thread_id;
  if (!SubscriptionOf(kind, stream).compare_exchange_strong(expected, 0)) {
    return Err(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "stream {} is not subscribed to {} thread {}", stream->id(),
               Name(kind), thread_id);
  }
  std::shared_ptr<Inbox> inbox = FindInbox(kind, thread_id, false);
  if (inbox == nullptr) return Status::Ok();
  std::lock_guard<std::mutex> lock(inbox->mu);
  if (inbox->subscriptions > 0 && --inbox->subscriptions == 0) {
    InboxRegistry& r = Inboxes();
    std::lock_guard<std::mutex> rl(r.mu);
    r.inboxes.erase(std::make_pair(static_cast<int>(kind), thread_id));
    // Callbacks still queued can no longer run: release their streams.
    for (Item* item : inbox->items) {
      NPURT_LOG_WARNING("RUNTIME", "{} callback discarded by unsubscribe of thread {}", Name(kind), thread_id);
      if (item->block) item->queue->CompleteHostTask(0);
      Unref(item);
    }
    inbox->items.clear();
  }
  return Status::Ok();
}

Status ProcessInbox(InboxKind kind, int32_t timeout_ms) {
  if (timeout_ms < -1) return Err(ACL_ERROR_INVALID_PARAM, "timeout {} ms is invalid (use -1 or >= 0)", timeout_ms);
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  std::shared_ptr<Inbox> inbox = FindInbox(kind, self, false);
  if (inbox == nullptr) {
    return Err(ACL_ERROR_THREAD_NOT_SUBSCRIBE, "the calling thread is not subscribed to any stream for {} callbacks",
               Name(kind));
  }
  std::unique_lock<std::mutex> lock(inbox->mu);
  auto has_items = [&] { return !inbox->items.empty(); };
  if (timeout_ms < 0) {
    inbox->cv.wait(lock, has_items);
  } else if (!inbox->cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), has_items)) {
    return Err(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, "no {} callback arrived within {} ms", Name(kind), timeout_ms);
  }
  while (!inbox->items.empty()) {
    Item* item = inbox->items.front();
    inbox->items.pop_front();
    lock.unlock();
    {
      racecheck::CallbackScope race_scope(item);  // host accesses of the body are ordered as the task is
      item->fn(item->user_data);
    }
    if (item->block) item->queue->CompleteHostTask(0);
    Unref(item);
    lock.lock();
  }
  return Status::Ok();
}

Status LaunchCallback(HostCallback fn, void* user_data, bool block, Stream* stream) {
  const uint64_t thread_id = stream->report_thread.load(std::memory_order_acquire);
  if (thread_id == 0) {
    return Err(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "stream {} has no report thread: call aclrtSubscribeReport first",
               stream->id());
  }
  hal::Task t;
  t.kind = hal::TaskKind::kHostFunc;
  t.host_fn = &DeliverToInbox;
  auto* item = new Item{fn, user_data, block, InboxKind::kReport, thread_id};
  t.host_arg = item;
  t.cleanup = &ReleaseItem;
  t.cleanup_arg = item;
  stream->Submit(t);
  return Status::Ok();
}

Status LaunchHostFunc(HostCallback fn, void* args, Stream* stream) {
  hal::Task t;
  t.kind = hal::TaskKind::kHostFunc;
  const uint64_t thread_id = stream->host_func_thread.load(std::memory_order_acquire);
  if (thread_id != 0) {
    auto* item = new Item{fn, args, /*block=*/true, InboxKind::kHostFunc, thread_id};
    t.host_fn = &DeliverToInbox;
    t.host_arg = item;
    t.cleanup = &ReleaseItem;
    t.cleanup_arg = item;
  } else {
    auto* call = new DirectCall{fn, args};
    t.host_fn = &RunDirect;
    t.host_arg = call;
    t.cleanup = &DeleteDirect;
    t.cleanup_arg = call;
  }
  stream->Submit(t);
  return Status::Ok();
}

}  // namespace npurt::core
