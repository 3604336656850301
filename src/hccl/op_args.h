// One communication operation as a rank's communication engine runs it: the arguments of an Hccl* call,
// validated and copied out of the caller's memory when the call was made (the V variants' count arrays are
// the caller's host memory, which it may reuse as soon as the call returns).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurt::hccl {

// The operations (their numbering is HcclCMDType's, which logs and profiles use).
enum class OpKind : uint32_t {
  kBroadcast = 1,
  kAllReduce = 2,
  kReduce = 3,
  kSend = 4,
  kRecv = 5,
  kAllGather = 6,
  kReduceScatter = 7,
  kAlltoAllV = 8,
  kAlltoAllVC = 9,
  kAlltoAll = 10,
  kScatter = 12,
  kBatchSendRecv = 13,
  kAllGatherV = 17,
  kReduceScatterV = 18,
  kBarrier = 103,
};
const char* OpName(OpKind kind);  // "AllReduce", ...

// HcclDataType and HcclReduceOp values (hccl/hccl_types.h).
using DataType = int32_t;
using ReduceOp = int32_t;

// One entry of HcclBatchSendRecv (or a lone HcclSend / HcclRecv).
struct P2pItem {
  bool send = true;
  void* buf = nullptr;
  uint64_t count = 0;
  DataType dtype = 0;
  uint32_t peer = 0;
};

struct OpArgs {
  OpKind kind = OpKind::kAllReduce;
  uint64_t seq = 0;             // this communicator's collective sequence number (1, 2, ...), for messages
  const void* send = nullptr;   // device memory of this rank (null where the op has none)
  void* recv = nullptr;
  // Elements, never bytes: AllReduce/Broadcast/Reduce the buffer's count; AllGather the per-rank send count;
  // ReduceScatter/Scatter the per-rank receive count; AlltoAll the per-peer send count.
  uint64_t count = 0;
  DataType dtype = 0;
  ReduceOp op = 0;
  uint32_t root = 0;
  uint64_t recv_count = 0;      // AlltoAll: the per-peer receive count; ReduceScatterV: this rank's block
  DataType recv_dtype = 0;      // AlltoAll*: the receive type
  // V variants (elements, one per rank): AllGatherV recv_*; ReduceScatterV send_*; AlltoAllV all four.
  std::vector<uint64_t> send_counts{}, send_displs{}, recv_counts{}, recv_displs{};
  // AlltoAllVC: the whole rank_size x rank_size matrix, row i = what rank i sends to each rank.
  std::vector<uint64_t> count_matrix{};
  std::vector<P2pItem> items{};   // Send, Recv, BatchSendRecv
};

// Element size of an HcclDataType (0 for a value that is none).
size_t DataTypeSize(DataType dtype);
const char* DataTypeName(DataType dtype);  // "fp32", ...
const char* ReduceOpName(ReduceOp op);     // "sum", ...

// Copies `bytes` from `src` to `dst` (the ranges may overlap) unless they are the same buffer: an
// in-place operation's own block, which the engines skip.
void CopyIfDistinct(void* dst, const void* src, size_t bytes);

}  // namespace npurt::hccl
