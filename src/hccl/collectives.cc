#include "hccl/collectives.h"

#include <iterator>
#include <memory>
#include <numeric>
#include <set>
#include <utility>

#include "acl/acl_base_rt.h"
#include "core/device.h"
#include "core/external_task.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"
#include "dfx/profiler.h"
#include "hccl/group.h"
#include "hccl/op_args.h"
#include "hccl/reduce.h"

namespace npurt::hccl {
namespace {

constexpr uint64_t kMaxCount = 0x7FFFFFFFFull;  // HCCL's SYS_MAX_COUNT

// An operation on its way to the stream: it holds the communicator until the stream task is freed.
struct Pending {
  Ref<Communicator> comm;
  OpArgs op;
};

void StartPending(void* arg, core::ExternalCompletion done) {
  auto* p = static_cast<Pending*>(arg);
  p->comm->engine().Submit(&p->op, done);
}

void FreePending(void* arg) {
  auto* p = static_cast<Pending*>(arg);
  p->comm->OpRetired();
  delete p;
}

// The aclDataType of an HcclDataType, for profiles (op_summary names tensors by ACL's types).
int32_t AclTypeOf(DataType t) {
  static const int32_t kTable[] = {ACL_INT8,   ACL_INT16,  ACL_INT32, ACL_FLOAT16, ACL_FLOAT,  ACL_INT64,
                                   ACL_UINT64, ACL_UINT8,  ACL_UINT16, ACL_UINT32, ACL_DOUBLE, ACL_BF16};
  return t >= 0 && t < static_cast<DataType>(std::size(kTable)) ? kTable[t] : -1;
}

// Elements this rank receives (the size the profiles report): what the operation writes into recvBuf.
uint64_t ReceivedElements(const OpArgs& op, uint32_t size) {
  auto sum = [](const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); };
  switch (op.kind) {
    case OpKind::kAllGather: return op.count * size;
    case OpKind::kAlltoAll: return op.recv_count * size;
    case OpKind::kAllGatherV: case OpKind::kAlltoAllV: return sum(op.recv_counts);
    case OpKind::kReduceScatterV: return op.recv_count;
    case OpKind::kBarrier: return 0;
    case OpKind::kSend: case OpKind::kRecv: case OpKind::kBatchSendRecv: {
      uint64_t n = 0;
      for (const P2pItem& it : op.items) n += it.count;
      return n;
    }
    default: return op.count;
  }
}

// Names the task in profiles ("HcclAllReduce") and describes it like an operator: the msprof CSVs list it
// with its data type and element count (tools/msprof's communication statistics read these).
void ProfileCollective(uint32_t task_id, const OpArgs& op, uint32_t size) {
  const std::string name = fmt::format("Hccl{}", OpName(op.kind));
  const uint64_t count = ReceivedElements(op, size);
  const int32_t dtype = AclTypeOf(op.kind == OpKind::kBatchSendRecv && !op.items.empty() ? op.items[0].dtype : op.dtype);
  const std::string detail = fmt::format("{}|0|{}:{}:{}|{}:{}:{}", name, dtype, ACL_FORMAT_ND, count, dtype, ACL_FORMAT_ND, count);
  dfx::ProfRecordOpInfo(task_id, dfx::ProfString(name), dfx::ProfString(detail));
}

// The checks every operation shares, in HCCL's order, and the submission.
class Checker {
 public:
  Checker(Communicator* comm, core::Stream* stream, OpKind kind) : comm_(comm), stream_(stream) { op_.kind = kind; }
  OpArgs& op() { return op_; }
  uint32_t size() const { return comm_->size(); }
  uint32_t rank() const { return comm_->rank(); }

  Status Stream() const {
    if (stream_->device()->id() != comm_->device()) {
      return Err(HCCL_E_PARA, "stream {} belongs to device {}, but communicator '{}' rank {} is bound to device {}",
                 stream_->id(), stream_->device()->id(), comm_->name(), comm_->rank(), comm_->device());
    }
    return Status();
  }
  static Status Count(uint64_t count, const char* what) {
    if (count > kMaxCount) return Err(HCCL_E_PARA, "{} {} is above HCCL's limit of {} elements", what, count, kMaxCount);
    return Status();
  }
  static Status Type(int32_t dtype, const char* what = "dataType") {
    if (DataTypeSize(dtype) == 0) return Err(HCCL_E_NOT_SUPPORT, "{} {} is not an HcclDataType", what, dtype);
    return Status();
  }
  static Status ReduceType(int32_t dtype, int32_t op) {
    if (Status s = Type(dtype); !s.ok()) return s;
    if (const char* why = ReduceRefusal(dtype, op)) {
      return Err(HCCL_E_NOT_SUPPORT, "reduce op {} ({}) with data type {}: {}", op, ReduceOpName(op), DataTypeName(dtype), why);
    }
    return Status();
  }
  Status Rank(uint32_t r, const char* what) const {
    if (r >= comm_->size()) return Err(HCCL_E_PARA, "{} {} is not a rank of this communicator (0..{})", what, r, comm_->size() - 1);
    return Status();
  }
  // A buffer of the communicator's device covering `bytes` (null only when `bytes` is 0 and allowed).
  Status Buffer(const void* ptr, uint64_t bytes, const char* what, bool writes) const {
    if (ptr == nullptr) return Err(HCCL_E_PTR, "{} is a null pointer", what);
    if (bytes == 0) return Status();
    auto span = core::ResolveSpanFor(ptr, bytes, what, writes);
    if (!span.ok()) return Err(HCCL_E_PARA, "{}", span.status().message());
    if (span.value().device == nullptr) {
      return Err(HCCL_E_PARA, "{} ({}) is host memory; collectives take device memory (aclrtMalloc)", what, ptr);
    }
    if (span.value().device->id() != comm_->device()) {
      return Err(HCCL_E_PARA, "{} is memory of device {}, but the communicator's rank is on device {}", what,
                 span.value().device->id(), comm_->device());
    }
    return Status();
  }
  // The host array of `size()` counts at `p` (HCCL_E_PTR when null).
  StatusOr<std::vector<uint64_t>> Counts(const uint64_t* p, const char* what, size_t n = 0) const {
    if (p == nullptr) return Err(HCCL_E_PTR, "{} is a null pointer", what);
    if (n == 0) n = comm_->size();
    std::vector<uint64_t> v(p, p + n);
    for (uint64_t c : v) {
      if (Status s = Count(c, what); !s.ok()) return s;
    }
    return v;
  }

  Status Submit() {
    op_.seq = comm_->NextSeq();
    auto* pending = new Pending{Ref<Communicator>(comm_), std::move(op_)};
    const bool profiled = dfx::ProfOn(dfx::prof_bits::kAnyTaskTime);
    const OpArgs described = profiled ? pending->op : OpArgs{};  // the stream may free pending at once
    comm_->OpIssued();
    auto submitted = core::SubmitExternalWork(stream_, &StartPending, pending, &FreePending);
    if (!submitted.ok()) return Err(HCCL_E_NOT_SUPPORT, "{}", submitted.status().message());
    if (profiled) ProfileCollective(submitted.value(), described, comm_->size());
    return Status();
  }

 private:
  Communicator* comm_;
  core::Stream* stream_;
  OpArgs op_;
};

#define HCCL_CHECK(expr)               \
  do {                                 \
    if (Status s_ = (expr); !s_.ok()) return s_; \
  } while (0)

uint64_t Extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs) {
  uint64_t end = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] != 0) end = std::max(end, displs[i] + counts[i]);
  }
  return end;
}

}  // namespace

Status AllReduce(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t count, int32_t dtype,
                 int32_t op) {
  Checker c(comm, stream, OpKind::kAllReduce);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(count, "count"));
  HCCL_CHECK(Checker::ReduceType(dtype, op));
  const uint64_t bytes = count * DataTypeSize(dtype);
  HCCL_CHECK(c.Buffer(send, bytes, "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, bytes, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kAllReduce, .send = send, .recv = recv, .count = count, .dtype = dtype, .op = op};
  return c.Submit();
}

Status Broadcast(Communicator* comm, core::Stream* stream, void* buf, uint64_t count, int32_t dtype, uint32_t root) {
  Checker c(comm, stream, OpKind::kBroadcast);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(count, "count"));
  HCCL_CHECK(Checker::Type(dtype));
  HCCL_CHECK(c.Rank(root, "root"));
  HCCL_CHECK(c.Buffer(buf, count * DataTypeSize(dtype), "buf", true));
  c.op() = OpArgs{.kind = OpKind::kBroadcast, .send = buf, .recv = buf, .count = count, .dtype = dtype, .root = root};
  return c.Submit();
}

Status Reduce(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t count, int32_t dtype,
              int32_t op, uint32_t root) {
  Checker c(comm, stream, OpKind::kReduce);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(count, "count"));
  HCCL_CHECK(Checker::ReduceType(dtype, op));
  HCCL_CHECK(c.Rank(root, "root"));
  const uint64_t bytes = count * DataTypeSize(dtype);
  HCCL_CHECK(c.Buffer(send, bytes, "sendBuf", false));
  if (c.rank() == root) HCCL_CHECK(c.Buffer(recv, bytes, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kReduce, .send = send, .recv = recv, .count = count, .dtype = dtype, .op = op, .root = root};
  return c.Submit();
}

Status ReduceScatter(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t recv_count,
                     int32_t dtype, int32_t op) {
  Checker c(comm, stream, OpKind::kReduceScatter);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(recv_count, "recvCount"));
  HCCL_CHECK(Checker::ReduceType(dtype, op));
  const uint64_t bytes = recv_count * DataTypeSize(dtype);
  HCCL_CHECK(c.Buffer(send, bytes * c.size(), "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, bytes, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kReduceScatter, .send = send, .recv = recv, .count = recv_count, .dtype = dtype, .op = op};
  return c.Submit();
}

Status ReduceScatterV(Communicator* comm, core::Stream* stream, const void* send, const uint64_t* send_counts,
                      const uint64_t* send_displs, void* recv, uint64_t recv_count, int32_t dtype, int32_t op) {
  Checker c(comm, stream, OpKind::kReduceScatterV);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(recv_count, "recvCount"));
  HCCL_CHECK(Checker::ReduceType(dtype, op));
  if (op == HCCL_REDUCE_PROD) return Err(HCCL_E_NOT_SUPPORT, "HcclReduceScatterV takes sum, max and min, not prod");
  auto counts = c.Counts(send_counts, "sendCounts");
  if (!counts.ok()) return counts.status();
  auto displs = c.Counts(send_displs, "sendDispls");
  if (!displs.ok()) return displs.status();
  if (counts.value()[c.rank()] != recv_count) {
    return Err(HCCL_E_PARA, "recvCount is {}, but sendCounts[{}] (this rank's block) is {}", recv_count, c.rank(),
               counts.value()[c.rank()]);
  }
  if (send == recv) return Err(HCCL_E_PARA, "HcclReduceScatterV needs sendBuf != recvBuf");
  const size_t es = DataTypeSize(dtype);
  HCCL_CHECK(c.Buffer(send, Extent(counts.value(), displs.value()) * es, "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, recv_count * es, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kReduceScatterV, .send = send, .recv = recv, .dtype = dtype, .op = op,
                  .recv_count = recv_count, .send_counts = counts.value(), .send_displs = displs.value()};
  return c.Submit();
}

Status AllGather(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t send_count, int32_t dtype) {
  Checker c(comm, stream, OpKind::kAllGather);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(send_count, "sendCount"));
  HCCL_CHECK(Checker::Type(dtype));
  const uint64_t bytes = send_count * DataTypeSize(dtype);
  HCCL_CHECK(c.Buffer(send, bytes, "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, bytes * c.size(), "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kAllGather, .send = send, .recv = recv, .count = send_count, .dtype = dtype};
  return c.Submit();
}

Status AllGatherV(Communicator* comm, core::Stream* stream, const void* send, uint64_t send_count, void* recv,
                  const uint64_t* recv_counts, const uint64_t* recv_displs, int32_t dtype) {
  Checker c(comm, stream, OpKind::kAllGatherV);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(send_count, "sendCount"));
  HCCL_CHECK(Checker::Type(dtype));
  auto counts = c.Counts(recv_counts, "recvCounts");
  if (!counts.ok()) return counts.status();
  auto displs = c.Counts(recv_displs, "recvDispls");
  if (!displs.ok()) return displs.status();
  if (counts.value()[c.rank()] != send_count) {
    return Err(HCCL_E_PARA, "sendCount is {}, but recvCounts[{}] (this rank's block) is {}", send_count, c.rank(),
               counts.value()[c.rank()]);
  }
  if (send == recv) return Err(HCCL_E_PARA, "HcclAllGatherV needs sendBuf != recvBuf");
  const size_t es = DataTypeSize(dtype);
  HCCL_CHECK(c.Buffer(send, send_count * es, "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, Extent(counts.value(), displs.value()) * es, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kAllGatherV, .send = send, .recv = recv, .count = send_count, .dtype = dtype,
                  .recv_counts = counts.value(), .recv_displs = displs.value()};
  return c.Submit();
}

Status Scatter(Communicator* comm, core::Stream* stream, const void* send, void* recv, uint64_t recv_count, int32_t dtype,
               uint32_t root) {
  Checker c(comm, stream, OpKind::kScatter);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(recv_count, "recvCount"));
  HCCL_CHECK(Checker::Type(dtype));
  HCCL_CHECK(c.Rank(root, "root"));
  const uint64_t bytes = recv_count * DataTypeSize(dtype);
  if (c.rank() == root) HCCL_CHECK(c.Buffer(send, bytes * c.size(), "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, bytes, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kScatter, .send = send, .recv = recv, .count = recv_count, .dtype = dtype, .root = root};
  return c.Submit();
}

Status AlltoAll(Communicator* comm, core::Stream* stream, const void* send, uint64_t send_count, int32_t send_type,
                void* recv, uint64_t recv_count, int32_t recv_type) {
  Checker c(comm, stream, OpKind::kAlltoAll);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(send_count, "sendCount"));
  HCCL_CHECK(Checker::Count(recv_count, "recvCount"));
  HCCL_CHECK(Checker::Type(send_type, "sendType"));
  HCCL_CHECK(Checker::Type(recv_type, "recvType"));
  const uint64_t sbytes = send_count * DataTypeSize(send_type), rbytes = recv_count * DataTypeSize(recv_type);
  if (sbytes != rbytes) {
    return Err(HCCL_E_PARA, "each rank sends {} bytes to every peer but receives {} bytes from each (sendCount {} {}, "
               "recvCount {} {})", sbytes, rbytes, send_count, DataTypeName(send_type), recv_count, DataTypeName(recv_type));
  }
  if (send == recv && sbytes != 0) return Err(HCCL_E_PARA, "HcclAlltoAll needs sendBuf != recvBuf");
  HCCL_CHECK(c.Buffer(send, sbytes * c.size(), "sendBuf", false));
  HCCL_CHECK(c.Buffer(recv, rbytes * c.size(), "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kAlltoAll, .send = send, .recv = recv, .count = send_count, .dtype = send_type,
                  .recv_count = recv_count, .recv_dtype = recv_type};
  return c.Submit();
}

Status AlltoAllV(Communicator* comm, core::Stream* stream, const void* send, const uint64_t* send_counts,
                 const uint64_t* send_displs, int32_t send_type, void* recv, const uint64_t* recv_counts,
                 const uint64_t* recv_displs, int32_t recv_type) {
  Checker c(comm, stream, OpKind::kAlltoAllV);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Type(send_type, "sendType"));
  HCCL_CHECK(Checker::Type(recv_type, "recvType"));
  auto sc = c.Counts(send_counts, "sendCounts");
  if (!sc.ok()) return sc.status();
  auto sd = c.Counts(send_displs, "sdispls");
  if (!sd.ok()) return sd.status();
  auto rc = c.Counts(recv_counts, "recvCounts");
  if (!rc.ok()) return rc.status();
  auto rd = c.Counts(recv_displs, "rdispls");
  if (!rd.ok()) return rd.status();
  const uint64_t sext = Extent(sc.value(), sd.value()), rext = Extent(rc.value(), rd.value());
  if (send == recv && (sext | rext) != 0) return Err(HCCL_E_PARA, "HcclAlltoAllV needs sendBuf != recvBuf");
  if (sext != 0) HCCL_CHECK(c.Buffer(send, sext * DataTypeSize(send_type), "sendBuf", false));
  if (rext != 0) HCCL_CHECK(c.Buffer(recv, rext * DataTypeSize(recv_type), "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kAlltoAllV, .send = send, .recv = recv, .dtype = send_type, .recv_dtype = recv_type,
                  .send_counts = sc.value(), .send_displs = sd.value(), .recv_counts = rc.value(), .recv_displs = rd.value()};
  return c.Submit();
}

Status AlltoAllVC(Communicator* comm, core::Stream* stream, const void* send, const uint64_t* count_matrix,
                  int32_t send_type, void* recv, int32_t recv_type) {
  Checker c(comm, stream, OpKind::kAlltoAllVC);
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Type(send_type, "sendType"));
  HCCL_CHECK(Checker::Type(recv_type, "recvType"));
  if (DataTypeSize(send_type) != DataTypeSize(recv_type)) {
    return Err(HCCL_E_PARA, "HcclAlltoAllVC counts both sides in sendType elements: sendType {} and recvType {} must have "
               "the same size", DataTypeName(send_type), DataTypeName(recv_type));
  }
  const uint32_t n = c.size();
  auto matrix = c.Counts(count_matrix, "sendCountMatrix", static_cast<size_t>(n) * n);
  if (!matrix.ok()) return matrix.status();
  uint64_t sent = 0, received = 0;
  for (uint32_t j = 0; j < n; ++j) {
    sent += matrix.value()[static_cast<size_t>(c.rank()) * n + j];
    received += matrix.value()[static_cast<size_t>(j) * n + c.rank()];
  }
  if (send == recv && (sent | received) != 0) return Err(HCCL_E_PARA, "HcclAlltoAllVC needs sendBuf != recvBuf");
  const size_t es = DataTypeSize(send_type);
  if (sent != 0) HCCL_CHECK(c.Buffer(send, sent * es, "sendBuf", false));
  if (received != 0) HCCL_CHECK(c.Buffer(recv, received * es, "recvBuf", true));
  c.op() = OpArgs{.kind = OpKind::kAlltoAllVC, .send = send, .recv = recv, .dtype = send_type, .recv_dtype = recv_type,
                  .count_matrix = matrix.value()};
  return c.Submit();
}

Status Barrier(Communicator* comm, core::Stream* stream) {
  Checker c(comm, stream, OpKind::kBarrier);
  HCCL_CHECK(c.Stream());
  c.op() = OpArgs{.kind = OpKind::kBarrier};
  return c.Submit();
}

namespace {
Status PointToPoint(Communicator* comm, core::Stream* stream, OpKind kind, void* buf, uint64_t count, int32_t dtype,
                    uint32_t peer) {
  Checker c(comm, stream, kind);
  const bool send = kind == OpKind::kSend;
  HCCL_CHECK(c.Stream());
  HCCL_CHECK(Checker::Count(count, "count"));
  HCCL_CHECK(Checker::Type(dtype));
  HCCL_CHECK(c.Rank(peer, send ? "destRank" : "srcRank"));
  HCCL_CHECK(c.Buffer(buf, count * DataTypeSize(dtype), send ? "sendBuf" : "recvBuf", !send));
  if (comm->size() == 1) return Status();  // HCCL: a one-rank communicator's send or receive does nothing
  if (peer == c.rank()) {
    return Err(HCCL_E_PARA, "Hccl{} to itself (rank {}) would wait forever; use HcclBatchSendRecv with a matching pair",
               send ? "Send" : "Recv", peer);
  }
  if (InGroup()) {
    GroupAdd(comm, stream, send, buf, count, dtype, peer);
    return Status();
  }
  c.op() = OpArgs{.kind = kind, .items = {P2pItem{send, buf, count, dtype, peer}}};
  return c.Submit();
}
}  // namespace

Status Send(Communicator* comm, core::Stream* stream, void* buf, uint64_t count, int32_t dtype, uint32_t peer) {
  return PointToPoint(comm, stream, OpKind::kSend, buf, count, dtype, peer);
}

Status Recv(Communicator* comm, core::Stream* stream, void* buf, uint64_t count, int32_t dtype, uint32_t peer) {
  return PointToPoint(comm, stream, OpKind::kRecv, buf, count, dtype, peer);
}

Status BatchSendRecv(Communicator* comm, core::Stream* stream, const HcclSendRecvItem* items, uint32_t item_count) {
  Checker c(comm, stream, OpKind::kBatchSendRecv);
  HCCL_CHECK(c.Stream());
  if (items == nullptr) return Err(HCCL_E_PTR, "sendRecvInfo is a null pointer");
  if (item_count == 0 || item_count > 2 * c.size()) {
    return Err(HCCL_E_PARA, "itemNum is {}; it must be 1..{} (two per rank)", item_count, 2 * c.size());
  }
  std::vector<P2pItem> list;
  std::set<std::pair<bool, uint32_t>> seen;
  int64_t self_send = -1, self_recv = -1;
  for (uint32_t i = 0; i < item_count; ++i) {
    const HcclSendRecvItem& it = items[i];
    const bool send = it.sendRecvType == HCCL_SEND;
    if (!send && it.sendRecvType != HCCL_RECV) return Err(HCCL_E_PARA, "item {} has sendRecvType {}, neither HCCL_SEND nor HCCL_RECV", i, static_cast<int>(it.sendRecvType));
    HCCL_CHECK(Checker::Count(it.count, "count"));
    HCCL_CHECK(Checker::Type(it.dataType));
    HCCL_CHECK(c.Rank(it.remoteRank, "remoteRank"));
    if (!seen.insert({send, it.remoteRank}).second) {
      return Err(HCCL_E_PARA, "item {} is a second {} rank {} in one call", i, send ? "send to" : "receive from", it.remoteRank);
    }
    const uint64_t bytes = it.count * DataTypeSize(it.dataType);
    HCCL_CHECK(c.Buffer(it.buf, bytes, send ? "a send item's buf" : "a receive item's buf", !send));
    if (it.remoteRank == c.rank()) (send ? self_send : self_recv) = static_cast<int64_t>(bytes);
    list.push_back(P2pItem{send, it.buf, it.count, it.dataType, it.remoteRank});
  }
  if (self_send != self_recv) {
    return Err(HCCL_E_PARA, "a send to this rank itself needs a receive from itself of the same size in the same call "
               "(send {} bytes, receive {} bytes; -1 = none)", self_send, self_recv);
  }
  c.op() = OpArgs{.kind = OpKind::kBatchSendRecv, .items = std::move(list)};
  return c.Submit();
}

}  // namespace npurt::hccl
