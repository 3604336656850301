// The communication operations: each checks its arguments as HCCL does (HcclResult codes; see
// docs/hccl.md), copies what it needs out of the caller's host memory (count arrays, send/recv items), and
// queues the operation on the caller's stream (core/external_task.h); the rank's communication engine runs
// it when the stream gets there. Counts are elements, never bytes. The caller (src/api) resolved the
// communicator and the stream and handled a count of 0.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "hccl/communicator.h"
#include "hccl/hccl_types.h"

namespace npurt::core {
class Stream;
}

namespace npurt::hccl {

Status AllReduce(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t count, int32_t dtype,
                 int32_t op);
Status Broadcast(Communicator* comm, core::Stream* stream, void* buf, uint64_t count, int32_t dtype, uint32_t root);
Status Reduce(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t count, int32_t dtype,
              int32_t op, uint32_t root);
Status ReduceScatter(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t recv_count,
                     int32_t dtype, int32_t op);
Status ReduceScatterV(Communicator* comm, core::Stream* stream, const void* send, const uint64_t* send_counts,
                      const uint64_t* send_displs, void* recv, uint64_t recv_count, int32_t dtype, int32_t op);
Status AllGather(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t send_count, int32_t dtype);
Status AllGatherV(Communicator* comm, core::Stream* stream, const void* send, uint64_t send_count, void* recv,
                  const uint64_t* recv_counts, const uint64_t* recv_displs, int32_t dtype);
Status Scatter(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t recv_count, int32_t dtype,
               uint32_t root);
Status AlltoAll(Communicator* comm, core::Stream* stream, const void* send, uint64_t send_count, int32_t send_type,
                void* recv, uint64_t recv_count, int32_t recv_type);
Status AlltoAllV(Communicator* comm, core::Stream* stream, const void* send, const uint64_t* send_counts,
                 const uint64_t* send_displs, int32_t send_type, void* recv, const uint64_t* recv_counts,
                 const uint64_t* recv_displs, int32_t recv_type);
Status AlltoAllVC(Communicator* comm, core::Stream* stream, const void* send, const uint64_t* count_matrix,
                  int32_t send_type, void* recv, int32_t recv_type);
Status Barrier(Communicator* comm, core::Stream* stream);
Status Send(Communicator* comm, core::Stream* stream, void* buf, uint64_t count, int32_t dtype, uint32_t peer);
Status Recv(Communicator* comm, core::Stream* stream, void* buf, uint64_t count, int32_t dtype, uint32_t peer);
Status BatchSendRecv(Communicator* comm, core::Stream* stream, const HcclSendRecvItem* items, uint32_t item_count);

}  // namespace npurt::hccl
