// TDT queues (core): bounded FIFOs of message buffers identified by a process-wide id, and the routes
// that forward a source queue's buffers to destination queues (acl_tdt_queue.h).
//
// Routing runs inline, with no scheduler thread: whenever a buffer enters a queue with bound routes, or
// room appears in a destination, buffers move from source to every destination while all of them have
// room (the first destination gets the buffer, the others a reference to the same data). Binding a
// route that would close a cycle is refused, so forwarding always ends.
// Blocking: enqueue on a full queue and dequeue on an empty one wait on the queue's condition variables
// until room or data appears, the queue is destroyed, or the timeout (ms; -1 none, 0 no wait) passes.
// Thread safety: every function may be called from any thread (one registry mutex; the buffer mutex of
// core/tdt/mbuf.h is only ever taken inside it, never the other way round).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::core {

class Mbuf;

struct TdtRoute {
  uint32_t src = 0;
  uint32_t dst = 0;
  int32_t status = 0;  // ACL_TDT_QUEUE_ROUTE_UNBIND / _BIND / _BIND_ABNORMAL
};

namespace tdt_queue {

constexpr uint32_t kDefaultDepth = 8;
constexpr uint32_t kMaxDepth = 8192;
constexpr size_t kMaxQueues = 4096;
constexpr size_t kMaxNameLength = 127;

StatusOr<uint32_t> Create(const std::string& name, uint32_t depth);
// Frees the buffers still queued, unbinds the queue's routes and fails its waiters.
Status Destroy(uint32_t qid);
Status CheckExists(uint32_t qid);
// Takes the user's buffer handle on success.
Status Enqueue(uint32_t qid, Mbuf* buf, int32_t timeout_ms);
StatusOr<Mbuf*> Dequeue(uint32_t qid, int32_t timeout_ms);
// Copies the oldest buffer's data (at most capacity bytes; a larger one stays queued) and user data
// out and frees it.
Status DequeueData(uint32_t qid, void* data, size_t capacity, size_t* data_len, void* user_data,
                   size_t user_data_size, int32_t timeout_ms);

// Routes: sets each route's status; fails on the first route that cannot be (un)bound.
Status Bind(TdtRoute& route);
Status Unbind(TdtRoute& route);
// mode: an acltdtQueueRouteQueryMode.
std::vector<TdtRoute> Query(int32_t mode, uint32_t src, uint32_t dst);

}  // namespace tdt_queue
}  // namespace npurt::core
