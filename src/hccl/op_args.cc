#include "hccl/op_args.h"

#include <cstring>

namespace npurt::hccl {

void CopyIfDistinct(void* dst, const void* src, size_t bytes) {
  if (bytes != 0 && dst != src) std::memmove(dst, src, bytes);
}

const char* OpName(OpKind kind) {
  switch (kind) {
    case OpKind::kBroadcast: return "Broadcast";
    case OpKind::kAllReduce: return "AllReduce";
    case OpKind::kReduce: return "Reduce";
    case OpKind::kSend: return "Send";
    case OpKind::kRecv: return "Recv";
    case OpKind::kAllGather: return "AllGather";
    case OpKind::kReduceScatter: return "ReduceScatter";
    case OpKind::kAlltoAllV: return "AlltoAllV";
    case OpKind::kAlltoAllVC: return "AlltoAllVC";
    case OpKind::kAlltoAll: return "AlltoAll";
    case OpKind::kScatter: return "Scatter";
    case OpKind::kBatchSendRecv: return "BatchSendRecv";
    case OpKind::kAllGatherV: return "AllGatherV";
    case OpKind::kReduceScatterV: return "ReduceScatterV";
    case OpKind::kBarrier: return "Barrier";
  }
  return "Unknown";
}

namespace {
struct TypeRow {
  const char* name;
  size_t size;
};
// Indexed by HcclDataType; 13 is unused, a size of 0 marks it.
constexpr TypeRow kTypes[] = {
    {"int8", 1},   {"int16", 2},  {"int32", 4},  {"fp16", 2},   {"fp32", 4},    {"int64", 8},
    {"uint64", 8}, {"uint8", 1},  {"uint16", 2}, {"uint32", 4}, {"fp64", 8},    {"bfp16", 2},
    {"int128", 16}, {"unused", 0}, {"hif8", 1},  {"fp8e4m3", 1}, {"fp8e5m2", 1}, {"fp8e8m0", 1},
};
}  // namespace

size_t DataTypeSize(DataType dtype) {
  if (dtype < 0 || dtype >= static_cast<DataType>(sizeof(kTypes) / sizeof(kTypes[0]))) return 0;
  return kTypes[dtype].size;
}

const char* DataTypeName(DataType dtype) {
  if (DataTypeSize(dtype) == 0) return "unknown";
  return kTypes[dtype].name;
}

const char* ReduceOpName(ReduceOp op) {
  switch (op) {
    case 0: return "sum";
    case 1: return "prod";
    case 2: return "max";
    case 3: return "min";
    default: return "unknown";
  }
}

}  // namespace npurt::hccl
