#include "core/tdt/tdt_queue.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "core/tdt/mbuf.h"
#include "core/tdt/tdt_wait.h"

namespace npurt::core::tdt_queue {

namespace {

struct Queue {
  uint32_t id = 0;
  std::string name;
  uint32_t depth = kDefaultDepth;
  std::deque<Mbuf*> items;  // handles taken from the user (Mbuf::TakeForQueue)
  std::condition_variable not_empty;
  std::condition_variable not_full;
  bool destroyed = false;
  bool full() const { return items.size() >= depth; }
};

struct Registry {
  std::mutex mu;
  std::map<uint32_t, std::shared_ptr<Queue>> queues;
  std::vector<TdtRoute> routes;  // bound routes
  uint32_t next_id = 0;          // ids are never reused, so a stale id is reported, not misdirected
};

Registry& Reg() {
  static Registry* registry = new Registry();  // never destroyed: waiters may outlive static destructors
  return *registry;
}

StatusOr<std::shared_ptr<Queue>> FindLocked(Registry& r, uint32_t qid) {
  auto it = r.queues.find(qid);
  if (it == r.queues.end()) return Err(ACL_ERROR_INVALID_PARAM, "queue {} does not exist", qid);
  return it->second;
}

Status DestroyedError(uint32_t qid) {
  return Err(ACL_ERROR_INVALID_PARAM, "queue {} was destroyed while waiting", qid);
}

void PushLocked(Queue& q, Mbuf* buf) {
  q.items.push_back(buf);
  q.not_empty.notify_one();
}

// Moves buffers from src along its bound routes while every destination has room; then lets the
// destinations forward in turn (routes have no cycles, so this ends).
void ForwardLocked(Registry& r, Queue& src) {
  std::vector<Queue*> dsts;
  for (const TdtRoute& route : r.routes) {
    if (route.src != src.id) continue;
    auto it = r.queues.find(route.dst);
    if (it != r.queues.end()) dsts.push_back(it->second.get());
  }
  if (dsts.empty()) return;
  bool moved = false;
  while (!src.items.empty() && std::none_of(dsts.begin(), dsts.end(), [](Queue* d) { return d->full(); })) {
    Mbuf* buf = src.items.front();
    src.items.pop_front();
    for (size_t i = 1; i < dsts.size(); ++i) {
      auto copy = buf->CopyRef();
      if (copy.ok() && copy.value()->TakeForQueue().ok()) PushLocked(*dsts[i], copy.value());
    }
    PushLocked(*dsts[0], buf);
    moved = true;
  }
  if (!moved) return;
  src.not_full.notify_all();
  for (Queue* d : dsts) ForwardLocked(r, *d);
}

// Room appeared in q: sources routed into it may forward now.
void PullLocked(Registry& r, const Queue& q) {
  std::vector<uint32_t> srcs;
  for (const TdtRoute& route : r.routes) {
    if (route.dst == q.id) srcs.push_back(route.src);
  }
  for (uint32_t s : srcs) {
    auto it = r.queues.find(s);
    if (it != r.queues.end()) ForwardLocked(r, *it->second);
  }
}

// True if dst reaches src through bound routes (binding src -> dst would close a cycle).
bool ReachesLocked(const Registry& r, uint32_t from, uint32_t to, size_t depth = 0) {
  if (from == to) return true;
  if (depth > r.routes.size()) return false;
  for (const TdtRoute& route : r.routes) {
    if (route.src == from && ReachesLocked(r, route.dst, to, depth + 1)) return true;
  }
  return false;
}

// Waits for the oldest buffer of qid; returns the queue (lock held) with at least one item.
StatusOr<std::shared_ptr<Queue>> WaitForItemLocked(std::unique_lock<std::mutex>& lock, uint32_t qid,
                                                   int32_t timeout_ms) {
  Registry& r = Reg();
  auto found = FindLocked(r, qid);
  if (!found.ok()) return found.status();
  std::shared_ptr<Queue> q = found.value();
  bool ready = WaitWithTimeout(lock, q->not_empty, timeout_ms, [&q] { return q->destroyed || !q->items.empty(); });
  if (q->destroyed) return DestroyedError(qid);
  if (!ready) return Err(ACL_ERROR_RT_QUEUE_EMPTY, "queue {} is empty after waiting {} ms", qid, timeout_ms);
  return q;
}

}  // namespace

StatusOr<uint32_t> Create(const std::string& name, uint32_t depth) {
  if (depth == 0 || depth > kMaxDepth) {
    return Err(ACL_ERROR_INVALID_PARAM, "queue depth {} is outside [1, {}]", depth, kMaxDepth);
  }
  if (name.size() > kMaxNameLength) {
    return Err(ACL_ERROR_INVALID_PARAM, "the queue name exceeds {} characters", kMaxNameLength);
  }
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.queues.size() >= kMaxQueues) return Err(ACL_ERROR_RT_OVER_LIMIT, "{} queues exist already", kMaxQueues);
  if (!name.empty()) {
    for (const auto& [id, q] : r.queues) {
      if (q->name == name) return Err(ACL_ERROR_INVALID_PARAM, "queue name '{}' is used by queue {}", name, id);
    }
  }
  auto q = std::make_shared<Queue>();
  q->id = r.next_id++;
  q->name = name;
  q->depth = depth;
  r.queues.emplace(q->id, q);
  return q->id;
}

Status Destroy(uint32_t qid) {
  Registry& r = Reg();
  std::shared_ptr<Queue> q;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto found = FindLocked(r, qid);
    if (!found.ok()) return found.status();
    q = found.value();
    r.queues.erase(qid);
    r.routes.erase(std::remove_if(r.routes.begin(), r.routes.end(),
                                  [qid](const TdtRoute& x) { return x.src == qid || x.dst == qid; }),
                   r.routes.end());
    q->destroyed = true;
    for (Mbuf* buf : q->items) buf->Discard();
    q->items.clear();
  }
  q->not_empty.notify_all();
  q->not_full.notify_all();
  return Status::Ok();
}

Status CheckExists(uint32_t qid) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mu);
  return FindLocked(r, qid).status();
}

Status Enqueue(uint32_t qid, Mbuf* buf, int32_t timeout_ms) {
  Registry& r = Reg();
  std::unique_lock<std::mutex> lock(r.mu);
  auto found = FindLocked(r, qid);
  if (!found.ok()) return found.status();
  std::shared_ptr<Queue> q = found.value();
  if (Status s = buf->TakeForQueue(); !s.ok()) return s;
  bool room = WaitWithTimeout(lock, q->not_full, timeout_ms, [&q] { return q->destroyed || !q->full(); });
  if (q->destroyed || !room) {
    buf->ReturnFromQueue();
    if (q->destroyed) return DestroyedError(qid);
    return Err(ACL_ERROR_RT_QUEUE_FULL, "queue {} is full (depth {}) after waiting {} ms", qid, q->depth, timeout_ms);
  }
  q->items.push_back(buf);
  ForwardLocked(r, *q);
  // Woken after unlocking, so the consumer does not wake only to block on the mutex (the queue stays
  // alive through q; a buffer forwarded away meanwhile makes this a harmless spurious wake-up).
  lock.unlock();
  q->not_empty.notify_one();
  return Status::Ok();
}

StatusOr<Mbuf*> Dequeue(uint32_t qid, int32_t timeout_ms) {
  std::unique_lock<std::mutex> lock(Reg().mu);
  auto found = WaitForItemLocked(lock, qid, timeout_ms);
  if (!found.ok()) return found.status();
  std::shared_ptr<Queue> q = found.value();
  Mbuf* buf = q->items.front();
  q->items.pop_front();
  buf->ReturnFromQueue();
  PullLocked(Reg(), *q);
  lock.unlock();
  q->not_full.notify_one();
  return buf;
}

Status DequeueData(uint32_t qid, void* data, size_t capacity, size_t* data_len, void* user_data,
                   size_t user_data_size, int32_t timeout_ms) {
  if (user_data_size > Mbuf::kUserDataSize) {
    return Err(ACL_ERROR_INVALID_PARAM, "userDataSize {} exceeds {}", user_data_size, Mbuf::kUserDataSize);
  }
  std::unique_lock<std::mutex> lock(Reg().mu);
  auto found = WaitForItemLocked(lock, qid, timeout_ms);
  if (!found.ok()) return found.status();
  std::shared_ptr<Queue> q = found.value();
  Mbuf* buf = q->items.front();
  size_t len = buf->data_len();
  if (len > capacity) {
    return Err(ACL_ERROR_INVALID_PARAM, "dataSize {} cannot hold the {}-byte buffer at the head of queue {}",
               capacity, len, qid);
  }
  q->items.pop_front();
  PullLocked(Reg(), *q);
  lock.unlock();
  q->not_full.notify_one();
  // The buffer left the queue: copying out and freeing it need no queue lock.
  if (len != 0) std::memcpy(data, buf->data(), len);
  if (user_data_size != 0) (void)buf->GetUserData(user_data, user_data_size, 0);
  *data_len = len;
  buf->Discard();
  return Status::Ok();
}

Status Bind(TdtRoute& route) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mu);
  route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  if (route.src == route.dst) return Err(ACL_ERROR_INVALID_PARAM, "route {} -> {} loops on one queue", route.src, route.dst);
  for (uint32_t id : {route.src, route.dst}) {
    if (Status s = FindLocked(r, id).status(); !s.ok()) return s;
  }
  for (const TdtRoute& b : r.routes) {
    if (b.src == route.src && b.dst == route.dst) {
      return Err(ACL_ERROR_INVALID_PARAM, "route {} -> {} is bound already", route.src, route.dst);
    }
  }
  if (ReachesLocked(r, route.dst, route.src)) {
    return Err(ACL_ERROR_INVALID_PARAM, "route {} -> {} would close a cycle of routes", route.src, route.dst);
  }
  route.status = ACL_TDT_QUEUE_ROUTE_BIND;
  r.routes.push_back(route);
  ForwardLocked(r, *r.queues.at(route.src));
  return Status::Ok();
}

Status Unbind(TdtRoute& route) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = std::find_if(r.routes.begin(), r.routes.end(),
                         [&route](const TdtRoute& b) { return b.src == route.src && b.dst == route.dst; });
  if (it == r.routes.end()) return Err(ACL_ERROR_INVALID_PARAM, "route {} -> {} is not bound", route.src, route.dst);
  r.routes.erase(it);
  route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  return Status::Ok();
}

std::vector<TdtRoute> Query(int32_t mode, uint32_t src, uint32_t dst) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<TdtRoute> out;
  for (const TdtRoute& b : r.routes) {
    bool match = (mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC && b.src == src) ||
                 (mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST && b.dst == dst) ||
                 (mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST && b.src == src && b.dst == dst) ||
                 (mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL && b.status == ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL);
    if (match) out.push_back(b);
  }
  return out;
}

}  // namespace npurt::core::tdt_queue
