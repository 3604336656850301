// GlooTransport: the transport of communicators whose ranks live in several processes or on several
// machines. Every rank holds a Gloo TCP context (one connection to each peer, one epoll thread per
// device), joined through the root's store (net/store_client.h) under a key prefix of its own.
//
// How each operation maps onto Gloo (Debian's libgloo 2022 snapshot):
//   AllReduce, Reduce       gloo::allreduce / gloo::reduce, with npurt's reduce kernels (reduce.h) as the
//                           reduction function: Gloo's own math has no bfloat16.
//   Broadcast, AllGather    gloo::broadcast / gloo::allgather.
//   ReduceScatter(V)        a ring over Gloo's unbound buffers (Gloo's function API has no reduce-scatter).
//   AllGatherV, Scatter,    direct sends and receives over unbound buffers: HCCL's displacements are not
//   AlltoAll(V, VC)         Gloo's packed layout.
//   Send, Recv,             unbound buffers; every send and receive of one call is posted before any is
//   BatchSendRecv           waited for, and a send to this rank itself is a copy into its receive.
//   Barrier                 the agreement exchange below (every rank hears from every other) is the barrier.
//
// Agreement: before any payload, every rank of a collective sends a fixed-size header (net/op_header.h)
// to every other, and all fail with HCCL_E_PARA and the same message when they disagree (kind, count,
// type, op, root, the V arrays, the number of collectives so far); AlltoAllV also exchanges its counts.
// A send and its receive exchange their sizes first and both fail with HCCL_E_PARA when these differ.
// So no peer ever sends more than was posted, which in Gloo is an abort on its device thread that nothing
// can catch.
//
// Failures: Gloo's exceptions become HCCL_E_TIMEOUT (ranks that did not take part before the deadline:
// named when the wait was npurt's own), HCCL_E_REMOTE (the connection to a rank closed: its process
// ended, or its transport failed or was aborted; the rank is named), HCCL_E_TCP_TRANSFER (other socket
// errors) or HCCL_E_INTERNAL. After any of them the transport is broken: its connections are closed, so
// the peers' waits on this rank end at once too, and every later Run fails at once with the first error.
// HCCL_E_PARA (disagreeing arguments) leaves it usable.
//
// Gloo raises SIGPIPE when it writes to a peer that died; Create and Run block SIGPIPE on their thread
// (and on the device thread Gloo starts) and discard one that arrives, so the process is not killed and
// its signal handlers are left alone.
//
// Thread safety: Run from one thread at a time (the rank's engine); Abort from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "hccl/transport.h"

namespace gloo {
class Context;
}  // namespace gloo

namespace npurt::hccl {

class StoreClient;

class GlooTransport final : public Transport {
 public:
  // Joins rank `rank` of `size` ranks: a TCP device on `bind_ip` (a numeric address of this machine that
  // the peers can reach; not a wildcard, since Gloo publishes the address it binds), connected to every
  // peer through `store` (borrowed for the call only) under keys starting with `prefix`. Fails with
  // HCCL_E_TIMEOUT when a peer does not join before the deadline, HCCL_E_PARA for a bad address or rank.
  // A size of 1 needs no store (it may be null) and no network.
  static StatusOr<std::unique_ptr<GlooTransport>> Create(uint32_t rank, uint32_t size, StoreClient* store,
                                                         const std::string& prefix, const std::string& bind_ip,
                                                         uint64_t deadline_ns);
  ~GlooTransport() override;

  Status Run(const OpArgs& op, uint64_t deadline_ns) override;
  // Closes the connections to every peer: a Run in progress fails promptly (and the peers' operations
  // with this rank fail with HCCL_E_REMOTE); this and every later Run fail with HCCL_E_REMOTE and `reason`.
  void Abort(const std::string& reason) override;
  const char* name() const override { return "gloo"; }

  uint32_t rank() const { return rank_; }
  uint32_t size() const { return size_; }

 private:
  GlooTransport(uint32_t rank, uint32_t size, std::shared_ptr<gloo::Context> context,
                std::vector<std::vector<std::string>> peer_addresses);
  Status RunOp(const OpArgs& op, uint64_t deadline_ns);
  // `error` naming the rank ("a peer" in GlooError's words) whose connection address Gloo's message gives.
  Status NamePeer(Status error) const;
  // Marks the transport broken with `error` (unless it already is) and returns the first error.
  Status Fail(Status error);
  Status BrokenStatus() const;

  const uint32_t rank_;
  const uint32_t size_;
  std::shared_ptr<gloo::Context> context_;  // null when size_ is 1
  // [r]: the addresses Gloo may print for rank r's end of the connection to it.
  const std::vector<std::vector<std::string>> peer_addresses_;
  uint64_t collectives_ = 0;                // collectives run so far: every rank counts the same
  std::atomic<bool> broken_{false};
  mutable std::mutex mu_;
  Status first_error_;  // guarded by mu_
};

}  // namespace npurt::hccl
