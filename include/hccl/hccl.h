// HCCL communication operations: collectives and point-to-point transfers between the ranks of a
// communicator. This is the header applications include; it brings in the types, the communicator
// management calls and the ACL API.
//
// Rules common to every operation here:
//  * Each call only enqueues the operation on `stream` and returns; the data moves later, in stream
//    order. Wait with aclrtSynchronizeStream or an event before touching the buffers.
//  * Counts are numbers of elements of the given HcclDataType, never bytes. The "V" variants take
//    arrays of uint64_t (passed as const void*), one entry per rank, also in elements.
//  * A count of 0 returns HCCL_SUCCESS at once, before any pointer is checked.
//  * Every rank of the communicator must issue the same operations in the same order with matching
//    arguments (count, type, reduce op, root). Buffers stay owned by the caller and must remain valid
//    until the stream has run the operation.
//  * On a communicator of one rank an operation is a local copy (nothing when the buffers coincide).
#ifndef NPURT_HCCL_HCCL_H
#define NPURT_HCCL_HCCL_H

#include <stdint.h>

#include "hccl_types.h"
#include "hccl_comm.h"
#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [hccl-collective] Collective operations ==== */

// Reduces `count` elements across all ranks with `op`; every rank receives the result. sendBuf and
// recvBuf each hold count elements and may be the same buffer (in place).
HCCL_API HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                                  HcclComm comm, aclrtStream stream);

// Copies `count` elements of buf on rank `root` into buf on every other rank.
HCCL_API HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                                  aclrtStream stream);

// Reduces rank-size blocks of recvCount elements across ranks; rank r receives reduced block r.
// sendBuf holds recvCount * rankSize elements, recvBuf recvCount.
HCCL_API HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                      HcclReduceOp op, HcclComm comm, aclrtStream stream);

// ReduceScatter with uneven blocks: block i of sendBuf has sendCounts[i] elements starting at element
// sendDispls[i]; rank r receives the reduced block r (recvCount elements, which should equal sendCounts[r]).
// sendCounts and sendDispls are uint64_t[rankSize], the same on all ranks. Only SUM, MAX and MIN;
// sendBuf and recvBuf must differ.
HCCL_API HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf,
                                       uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                       aclrtStream stream);

// Rank `root` sends block r of sendBuf (recvCount elements each, rankSize blocks) to rank r.
// sendBuf is read only on the root and may be NULL elsewhere.
HCCL_API HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                                HcclComm comm, aclrtStream stream);

// Gathers sendCount elements from every rank into recvBuf on every rank, ordered by rank:
// recvBuf holds sendCount * rankSize elements.
HCCL_API HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                                  HcclComm comm, aclrtStream stream);

// AllGather with uneven blocks: rank i's sendCount elements land at element recvDispls[i] of recvBuf,
// and recvCounts[i] must equal that sendCount. recvCounts and recvDispls are uint64_t[rankSize].
// sendBuf and recvBuf must differ.
HCCL_API HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                                   const void* recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream);

// Reduces `count` elements across all ranks with `op`; only rank `root` receives the result in
// recvBuf. In place is allowed.
HCCL_API HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                               uint32_t root, HcclComm comm, aclrtStream stream);

// Every rank sends sendCount elements to each rank (block j of sendBuf goes to rank j) and receives
// recvCount elements from each (block i of recvBuf comes from rank i). All four size arguments must
// be the same on all ranks; sendBuf and recvBuf must differ. recvBuf is written despite its const.
HCCL_API HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                                 uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream);

// AlltoAll with per-peer sizes: sendCounts[j] elements from element sdispls[j] go to rank j, and
// recvCounts[i] elements from rank i land at element rdispls[i]. All four arrays are
// uint64_t[rankSize]. sendBuf and recvBuf must differ; recvBuf is written despite its const.
HCCL_API HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                                  HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                                  const void* rdispls, HcclDataType recvType, HcclComm comm, aclrtStream stream);

// AlltoAll described by the full matrix: sendCountMatrix is uint64_t[rankSize][rankSize], entry
// [i][j] = elements rank i sends to rank j, identical on all ranks. Blocks are packed in rank order
// in both buffers. sendBuf and recvBuf must differ; recvBuf is written despite its const.
HCCL_API HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType,
                                   const void* recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream);

/* ==== [hccl-p2p] Point-to-point transfers ==== */

// Sends `count` elements to rank destRank. Unlike NCCL, the stream blocks until the matching
// HcclRecv on destRank has taken the data, so two ranks that both send first deadlock; use
// HcclBatchSendRecv or a group for exchanges.
HCCL_API HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                             aclrtStream stream);

// Receives `count` elements from rank srcRank. Sends and receives between one pair of ranks match in
// the order they were issued, and both sides must move the same number of bytes.
HCCL_API HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                             aclrtStream stream);

// Runs itemNum sends and receives as one operation; they do not wait for one another, so any
// exchange pattern is deadlock-free as long as every send has exactly one matching receive on its
// peer. At most one send and one receive per peer; a send to oneself needs a matching receive from
// oneself and is a local copy. The array is read during the call only.
HCCL_API HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_HCCL_HCCL_H
