// Transport: how the ranks of one communicator move and reduce data. The communication engine of a rank
// (comm_engine.h) calls Run once per operation, in the order the program issued them on that
// communicator; every rank of the communicator issues the same collectives in the same order (HCCL's rule).
//
// Implementations:
//   - LocalTransport (local_transport.h): every rank lives in this process (simulated devices, whose memory
//     is host-addressable): ranks read each other's buffers directly.
//   - IpcTransport (ipc_transport.h): ranks in processes of one machine, through views of each other's device
//     memory.
//   - GlooTransport (gloo_transport.h): ranks on other machines, through Gloo over TCP.
//   - HierarchicalTransport (hierarchical_transport.h): several machines with several ranks each.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "hccl/collective_steps.h"
#include "hccl/op_args.h"

namespace npurt::hccl {

class Transport {
 public:
  virtual ~Transport() = default;

  // Runs `op` for this rank. Returns once this rank's part is complete: its receive buffers hold the
  // result and no peer will read its send buffers again for this op. Fails (never hangs) when a peer does
  // not take part before `deadline_ns` (wall clock, base/clock.h; UINT64_MAX = no limit), when the ranks'
  // arguments disagree (count, type, op, root, kind), or when the transport broke; the message names the
  // ranks. Status codes are HcclResult values (HCCL_E_TIMEOUT, HCCL_E_PARA, HCCL_E_REMOTE, ...).
  // Called from one thread at a time (the rank's engine).
  virtual Status Run(const OpArgs& op, uint64_t deadline_ns) = 0;

  // Makes a Run in progress (and every later one) fail promptly with `reason` (communicator destroyed or
  // a fatal error seen elsewhere). Any thread; idempotent.
  virtual void Abort(const std::string& reason) = 0;

  // An AllReduce or Broadcast in chunks with `stage` run between its halves on each rank's chunk
  // (collective_steps.h, hierarchical_transport.h): transports whose ranks reach each other's buffers (local,
  // ipc) have it; the others answer HCCL_E_NOT_SUPPORT.
  virtual Status RunStaged(const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage);

  // "local", "ipc", "gloo" or "hierarchical", for logs and the docs' tables.
  virtual const char* name() const = 0;

  // What identifies this rank's group among the groups of this process, for splitting sub-communicators
  // off it without a new rendezvous (HcclCreateSubCommConfig); null where that is not supported.
  virtual const void* group_identity() const { return nullptr; }
};

}  // namespace npurt::hccl
