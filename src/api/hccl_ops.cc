// HCCL's communication operations (hccl/hccl.h): thin entry points over src/hccl/collectives.h. Each does
// HCCL's first checks in HCCL's order (a count of 0 succeeds at once; then the stream, the communicator),
// resolves the handles and hands over to the collective layer, which checks the rest and queues the
// operation on the stream.
#include "api/api_common.h"
#include "api/hccl_report.h"
#include "core/stream.h"
#include "hccl/collectives.h"
#include "hccl/communicator.h"
#include "hccl/hccl.h"

namespace {

namespace hc = npurt::hccl;

// The stream and communicator of an operation, checked as HCCL checks them: null stream, then null comm
// (HCCL_E_PTR), then foreign or destroyed handles.
npurt::Status Resolve(aclrtStream stream, HcclComm comm, npurt::core::Stream** s, hc::Communicator** c) {
  if (stream == nullptr) return npurt::Err(HCCL_E_PTR, "stream is a null pointer (collectives need an explicit stream)");
  if (comm == nullptr) return npurt::Err(HCCL_E_PTR, "comm is a null pointer");
  auto resolved = npurt::api::ResolveStream(stream);
  if (!resolved.ok()) return npurt::Err(HCCL_E_PARA, "{}", resolved.status().message());
  auto found = hc::LookupComm(comm);
  if (!found.ok()) return found.status();
  *s = resolved.value();
  *c = found.value();
  return npurt::Status();
}

HcclResult Done(const char* function, const npurt::Status& status) {
  return static_cast<HcclResult>(npurt::api::ReportHccl(function, status));
}

}  // namespace

extern "C" {

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (count == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::AllReduce(c, s, sendBuf, recvBuf, count, dataType, op));
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (count == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::Broadcast(c, s, buf, count, dataType, root));
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (recvCount == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::ReduceScatter(c, s, sendBuf, recvBuf, recvCount, dataType, op));
}

HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf, uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::ReduceScatterV(c, s, sendBuf, static_cast<const uint64_t*>(sendCounts), static_cast<const uint64_t*>(sendDispls), recvBuf, recvCount, dataType, op));
}

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (recvCount == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::Scatter(c, s, sendBuf, recvBuf, recvCount, dataType, root));
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (sendCount == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::AllGather(c, s, sendBuf, recvBuf, sendCount, dataType));
}

HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts, const void* recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::AllGatherV(c, s, sendBuf, sendCount, recvBuf, static_cast<const uint64_t*>(recvCounts), static_cast<const uint64_t*>(recvDispls), dataType));
}

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (count == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::Reduce(c, s, sendBuf, recvBuf, count, dataType, op, root));
}

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf, uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::AlltoAll(c, s, sendBuf, sendCount, sendType, const_cast<void*>(recvBuf), recvCount, recvType));
}

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls, HcclDataType sendType, const void* recvBuf, const void* recvCounts, const void* rdispls, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::AlltoAllV(c, s, sendBuf, static_cast<const uint64_t*>(sendCounts), static_cast<const uint64_t*>(sdispls), sendType, const_cast<void*>(recvBuf), static_cast<const uint64_t*>(recvCounts), static_cast<const uint64_t*>(rdispls), recvType));
}

HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType, const void* recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::AlltoAllVC(c, s, sendBuf, static_cast<const uint64_t*>(sendCountMatrix), sendType, const_cast<void*>(recvBuf), recvType));
}

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (count == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::Send(c, s, sendBuf, count, dataType, destRank));
}

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (count == 0) return HCCL_SUCCESS;  // HCCL: nothing to do, before any other check
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::Recv(c, s, recvBuf, count, dataType, srcRank));
}

HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::BatchSendRecv(c, s, sendRecvInfo, itemNum));
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  npurt::core::Stream* s = nullptr;
  hc::Communicator* c = nullptr;
  if (npurt::Status r = Resolve(stream, comm, &s, &c); !r.ok()) return Done(__func__, r);
  return Done(__func__, hc::Barrier(c, s));
}

}  // extern "C"
