// GlooOps: the operations of op_args.h for one rank over a connected Gloo context; gloo_transport.h lists
// which Gloo algorithm or message pattern each one uses. The caller (GlooTransport) has run the agreement
// exchange before a collective, so the ranks' sizes match: every receive posted here gets exactly the
// bytes its sender sends. Send and receive sizes are checked here, pairwise, before their payload.
//
// Failures come back as Status (gloo_exchange.h GlooError); after one other than HCCL_E_PARA the context's
// state is unknown and the caller closes it. Not thread-safe: one operation at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "hccl/op_args.h"

namespace gloo {
class Context;
}  // namespace gloo

namespace npurt::hccl {

class GlooOps {
 public:
  // `context` is null when `size` is 1 (no network: every operation is a local copy).
  GlooOps(std::shared_ptr<gloo::Context> context, uint32_t rank, uint32_t size)
      : context_(std::move(context)), rank_(rank), size_(size) {}

  // Gathers `bytes` from every rank r into all[r * bytes ..]: the small exchanges that check and name
  // things before the payload. Every rank must call it at the same point, with the same `bytes`.
  Status AllGatherBytes(const void* mine, void* all, size_t bytes, uint64_t deadline_ns, const std::string& what);
  // A collective whose arguments the ranks agreed on (anything but Send, Recv, BatchSendRecv).
  Status Collective(const OpArgs& op, uint64_t deadline_ns);
  // Send, Recv, BatchSendRecv: HCCL_E_PARA (on both sides) when a send and its receive differ in size.
  Status PointToPoint(const OpArgs& op, uint64_t deadline_ns);

 private:
  Status Alone(const OpArgs& op);
  Status AllReduce(const OpArgs& op, uint64_t deadline_ns);
  Status Reduce(const OpArgs& op, uint64_t deadline_ns);
  Status Broadcast(const OpArgs& op, uint64_t deadline_ns);
  Status AllGather(const OpArgs& op, uint64_t deadline_ns);
  Status AllGatherV(const OpArgs& op, uint64_t deadline_ns);
  Status ReduceScatter(const OpArgs& op, uint64_t deadline_ns);
  Status Scatter(const OpArgs& op, uint64_t deadline_ns);
  Status AlltoAll(const OpArgs& op, uint64_t deadline_ns);

  std::shared_ptr<gloo::Context> context_;
  const uint32_t rank_;
  const uint32_t size_;
};

}  // namespace npurt::hccl
