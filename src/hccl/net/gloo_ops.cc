#include "hccl/net/gloo_ops.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/broadcast.h>
#include <gloo/reduce.h>

#include "hccl/hccl_types.h"
#include "hccl/net/gloo_exchange.h"
#include "hccl/reduce.h"

namespace npurt::hccl {
namespace {

constexpr uint32_t kPayloadTag = 0;  // of Gloo's collectives (npurt's own messages have slots of their own)

// Gloo sizes its algorithms' segments in elements of the type it is given, so a reduction never sees a
// split element: a stand-in type of the right size, for types Gloo has no name for (fp16, bf16, int128).
template <size_t N>
struct Element {
  unsigned char bytes[N];
};

// Calls fn(Element<es>*) with `p` (inside GlooGuard: the throw becomes HCCL_E_INTERNAL).
template <typename Fn>
void WithElement(size_t es, void* p, Fn&& fn) {
  switch (es) {
    case 1: return fn(static_cast<Element<1>*>(p));
    case 2: return fn(static_cast<Element<2>*>(p));
    case 4: return fn(static_cast<Element<4>*>(p));
    case 8: return fn(static_cast<Element<8>*>(p));
    case 16: return fn(static_cast<Element<16>*>(p));
    default: throw std::invalid_argument(fmt::format("no element type of {} bytes", es));
  }
}

char* At(void* p, uint64_t offset) { return static_cast<char*>(p) + offset; }
const char* At(const void* p, uint64_t offset) { return static_cast<const char*>(p) + offset; }

// Gloo's reduction signature over npurt's kernels. Gloo calls it with out == a (accumulating into its
// output) or with three distinct buffers.
std::function<void(void*, const void*, const void*, size_t)> ReduceFunction(ReduceKernels k) {
  return [k](void* out, const void* a, const void* b, size_t n) {
    if (out == a) {
      k.in_place(out, b, n);
      return;
    }
    const void* in[2] = {a, b};
    k.many(out, in, 2, n);
  };
}

struct P2pHeader {
  uint32_t magic;
  uint32_t send;  // 1 from a send, 0 from a receive
  uint64_t count;
  int32_t dtype;
  uint32_t reserved;
};
constexpr uint32_t kP2pMagic = 0x3150504e;  // "NPP1"

// The same text on both sides of a mismatched pair (and LocalTransport's).
std::string SizeMismatch(uint32_t sender, const P2pHeader& s, uint32_t receiver, const P2pHeader& r) {
  return fmt::format("rank {} sends {} {} ({} bytes) to rank {}, which receives {} {} ({} bytes)", sender, s.count,
                     DataTypeName(s.dtype), s.count * DataTypeSize(s.dtype), receiver, r.count, DataTypeName(r.dtype),
                     r.count * DataTypeSize(r.dtype));
}

}  // namespace

Status GlooOps::AllGatherBytes(const void* mine, void* all, size_t bytes, uint64_t deadline_ns,
                               const std::string& what) {
  CopyIfDistinct(At(all, rank_ * bytes), mine, bytes);
  if (size_ == 1) return Status();
  // Direct messages rather than Gloo's ring all-gather: a rank that does not come is then named (the
  // receive from it is the one that times out), and the deadline bounds the whole exchange, not each step.
  GlooExchange ex(*context_);
  for (uint32_t j = 0; j < size_; ++j) {
    if (j == rank_) continue;
    ex.Send(GlooSlot::kAgreement, j, mine, bytes);
    ex.Recv(GlooSlot::kAgreement, j, At(all, j * bytes), bytes);
  }
  return ex.Wait(deadline_ns, what);
}

Status GlooOps::Collective(const OpArgs& op, uint64_t deadline_ns) {
  if (size_ == 1) return Alone(op);
  switch (op.kind) {
    case OpKind::kAllReduce: return AllReduce(op, deadline_ns);
    case OpKind::kReduce: return Reduce(op, deadline_ns);
    case OpKind::kBroadcast: return Broadcast(op, deadline_ns);
    case OpKind::kAllGather: return AllGather(op, deadline_ns);
    case OpKind::kAllGatherV: return AllGatherV(op, deadline_ns);
    case OpKind::kReduceScatter:
    case OpKind::kReduceScatterV: return ReduceScatter(op, deadline_ns);
    case OpKind::kScatter: return Scatter(op, deadline_ns);
    case OpKind::kAlltoAll:
    case OpKind::kAlltoAllV:
    case OpKind::kAlltoAllVC: return AlltoAll(op, deadline_ns);
    case OpKind::kBarrier: return Status();  // the agreement exchange was the barrier
    default: return Err(HCCL_E_INTERNAL, "{} is not a collective", OpName(op.kind));
  }
}

// One rank: every collective copies this rank's block of the send buffer to its place in the receive buffer.
Status GlooOps::Alone(const OpArgs& op) {
  const size_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
  switch (op.kind) {
    case OpKind::kAllGatherV:
      CopyIfDistinct(At(op.recv, op.recv_displs[0] * es), op.send, op.count * es);
      break;
    case OpKind::kReduceScatterV:
      CopyIfDistinct(op.recv, At(op.send, op.send_displs[0] * es), op.send_counts[0] * es);
      break;
    case OpKind::kAlltoAllV:
      CopyIfDistinct(At(op.recv, op.recv_displs[0] * er), At(op.send, op.send_displs[0] * es), op.send_counts[0] * es);
      break;
    case OpKind::kAlltoAllVC:
      CopyIfDistinct(op.recv, op.send, op.count_matrix[0] * es);
      break;
    case OpKind::kBarrier:
      break;
    default:  // AllReduce, Reduce, Broadcast, AllGather, ReduceScatter, Scatter, AlltoAll: one block of count
      CopyIfDistinct(op.recv, op.send, op.count * es);
      break;
  }
  return Status();
}

Status GlooOps::AllReduce(const OpArgs& op, uint64_t deadline_ns) {
  const size_t es = DataTypeSize(op.dtype);
  if (op.count == 0) return Status();
  // Gloo reduces into its output in place (its input, when given, is copied there first).
  CopyIfDistinct(op.recv, op.send, op.count * es);
  const ReduceKernels kernels = FindReduce(op.dtype, op.op);
  return GlooGuard("AllReduce", -1, [&] {
    gloo::AllreduceOptions o(context_);
    WithElement(es, op.recv, [&](auto* p) { o.setOutput(p, op.count); });
    o.setReduceFunction(ReduceFunction(kernels));
    o.setTag(kPayloadTag);
    o.setTimeout(GlooTimeout(deadline_ns));
    gloo::allreduce(o);
  });
}

Status GlooOps::Reduce(const OpArgs& op, uint64_t deadline_ns) {
  const size_t es = DataTypeSize(op.dtype);
  if (op.count == 0) return Status();
  // Gloo's reduce uses every rank's output as the workspace of its ring; only the root's is the result.
  std::vector<char> workspace;
  void* out = op.recv;
  if (rank_ != op.root) {
    workspace.resize(op.count * es);
    out = workspace.data();
  }
  const ReduceKernels kernels = FindReduce(op.dtype, op.op);
  return GlooGuard("Reduce", -1, [&] {
    gloo::ReduceOptions o(context_);
    if (op.send != out) WithElement(es, const_cast<void*>(op.send), [&](auto* p) { o.setInput(p, op.count); });
    WithElement(es, out, [&](auto* p) { o.setOutput(p, op.count); });
    o.setRoot(static_cast<int>(op.root));
    o.setReduceFunction(ReduceFunction(kernels));
    o.setTag(kPayloadTag);
    o.setTimeout(GlooTimeout(deadline_ns));
    gloo::reduce(o);
  });
}

Status GlooOps::Broadcast(const OpArgs& op, uint64_t deadline_ns) {
  const uint64_t bytes = op.count * DataTypeSize(op.dtype);
  if (bytes == 0) return Status();
  return GlooGuard("Broadcast", -1, [&] {
    gloo::BroadcastOptions o(context_);
    if (rank_ == op.root) {
      const void* src = op.send != nullptr ? op.send : op.recv;
      void* dst = op.recv != nullptr ? op.recv : const_cast<void*>(op.send);
      if (src != dst) o.setInput(static_cast<uint8_t*>(const_cast<void*>(src)), bytes);
      o.setOutput(static_cast<uint8_t*>(dst), bytes);
    } else {
      o.setOutput(static_cast<uint8_t*>(op.recv), bytes);
    }
    o.setRoot(static_cast<int>(op.root));
    o.setTag(kPayloadTag);
    o.setTimeout(GlooTimeout(deadline_ns));
    gloo::broadcast(o);
  });
}

Status GlooOps::AllGather(const OpArgs& op, uint64_t deadline_ns) {
  const uint64_t block = op.count * DataTypeSize(op.dtype);
  if (block == 0) return Status();
  return GlooGuard("AllGather", -1, [&] {
    gloo::AllgatherOptions o(context_);
    // In place (the send buffer is this rank's block of the receive buffer): no input, or Gloo would
    // memcpy the block onto itself.
    if (op.send != At(op.recv, rank_ * block)) o.setInput(static_cast<uint8_t*>(const_cast<void*>(op.send)), block);
    o.setOutput(static_cast<uint8_t*>(op.recv), block * size_);
    o.setTag(kPayloadTag);
    o.setTimeout(GlooTimeout(deadline_ns));
    gloo::allgather(o);
  });
}

// Direct: every rank sends its block to every other (Gloo's allgatherv packs the blocks in rank order,
// HCCL places them at recvDispls).
Status GlooOps::AllGatherV(const OpArgs& op, uint64_t deadline_ns) {
  const size_t es = DataTypeSize(op.dtype);
  GlooExchange ex(*context_);
  for (uint32_t j = 0; j < size_; ++j) {
    if (j == rank_) continue;
    ex.Send(GlooSlot::kCollective, j, op.send, op.count * es);
    ex.Recv(GlooSlot::kCollective, j, At(op.recv, op.recv_displs[j] * es), op.recv_counts[j] * es);
  }
  NPURT_RETURN_IF_ERROR(ex.Wait(deadline_ns, "AllGatherV"));
  CopyIfDistinct(At(op.recv, op.recv_displs[rank_] * es), op.send, op.count * es);
  return Status();
}

// A ring (Gloo's function API has none): at step s every rank sends the partial sum of block
// rank - s - 1 to the next rank and folds its own part of block rank - s - 2 into what the previous rank
// sent; after size - 1 steps block `rank` holds every rank's part. The V form uses sendCounts/sendDispls.
Status GlooOps::ReduceScatter(const OpArgs& op, uint64_t deadline_ns) {
  const size_t es = DataTypeSize(op.dtype);
  const bool v = op.kind == OpKind::kReduceScatterV;
  auto count = [&](uint32_t j) { return v ? op.send_counts[j] : op.count; };
  auto offset = [&](uint32_t j) { return (v ? op.send_displs[j] : j * op.count) * es; };
  uint64_t largest = 0;
  for (uint32_t j = 0; j < size_; ++j) largest = std::max(largest, count(j));
  if (largest == 0) return Status();
  const ReduceKernels kernels = FindReduce(op.dtype, op.op);
  std::vector<char> partial(largest * es), incoming(largest * es);
  const uint32_t next = (rank_ + 1) % size_, prev = (rank_ + size_ - 1) % size_;
  for (uint32_t s = 0; s + 1 < size_; ++s) {
    const uint32_t out_block = (rank_ + 2 * size_ - s - 1) % size_;
    const uint32_t in_block = (rank_ + 2 * size_ - s - 2) % size_;
    GlooExchange ex(*context_);
    ex.Send(GlooSlot::kRing, next, s == 0 ? At(op.send, offset(out_block)) : partial.data(), count(out_block) * es);
    ex.Recv(GlooSlot::kRing, prev, incoming.data(), count(in_block) * es);
    NPURT_RETURN_IF_ERROR(ex.Wait(deadline_ns, OpName(op.kind)));
    // The last step's block is this rank's: it goes to the receive buffer (which may be that very block
    // of the send buffer, in place; the kernels allow out == in[0]).
    const void* in[2] = {At(op.send, offset(in_block)), incoming.data()};
    kernels.many(s + 2 == size_ ? op.recv : partial.data(), in, 2, count(in_block));
  }
  return Status();
}

Status GlooOps::Scatter(const OpArgs& op, uint64_t deadline_ns) {
  const uint64_t bytes = op.count * DataTypeSize(op.dtype);
  if (bytes == 0) return Status();
  GlooExchange ex(*context_);
  if (rank_ == op.root) {
    for (uint32_t j = 0; j < size_; ++j) {
      if (j != rank_) ex.Send(GlooSlot::kCollective, j, At(op.send, j * bytes), bytes);
    }
  } else {
    ex.Recv(GlooSlot::kCollective, op.root, op.recv, bytes);
  }
  NPURT_RETURN_IF_ERROR(ex.Wait(deadline_ns, "Scatter"));
  if (rank_ == op.root) CopyIfDistinct(op.recv, At(op.send, rank_ * bytes), bytes);
  return Status();
}

// Direct exchanges between every pair; the three forms differ only in where each block lies.
Status GlooOps::AlltoAll(const OpArgs& op, uint64_t deadline_ns) {
  const size_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
  std::vector<uint64_t> send_at(size_), send_bytes(size_), recv_at(size_), recv_bytes(size_);
  uint64_t send_run = 0, recv_run = 0;  // AlltoAllVC: blocks packed in rank order
  for (uint32_t j = 0; j < size_; ++j) {
    switch (op.kind) {
      case OpKind::kAlltoAll:
        send_at[j] = j * op.count * es;
        send_bytes[j] = op.count * es;
        recv_at[j] = j * op.recv_count * er;
        recv_bytes[j] = op.recv_count * er;
        break;
      case OpKind::kAlltoAllV:
        send_at[j] = op.send_displs[j] * es;
        send_bytes[j] = op.send_counts[j] * es;
        recv_at[j] = op.recv_displs[j] * er;
        recv_bytes[j] = op.recv_counts[j] * er;
        break;
      default:  // kAlltoAllVC: row i of the matrix is what rank i sends, counted in the send type
        send_at[j] = send_run;
        send_bytes[j] = op.count_matrix[size_t{rank_} * size_ + j] * es;
        send_run += send_bytes[j];
        recv_at[j] = recv_run;
        recv_bytes[j] = op.count_matrix[size_t{j} * size_ + rank_] * es;
        recv_run += recv_bytes[j];
        break;
    }
  }
  GlooExchange ex(*context_);
  for (uint32_t j = 0; j < size_; ++j) {
    if (j == rank_) continue;
    ex.Send(GlooSlot::kCollective, j, At(op.send, send_at[j]), send_bytes[j]);
    ex.Recv(GlooSlot::kCollective, j, At(op.recv, recv_at[j]), recv_bytes[j]);
  }
  NPURT_RETURN_IF_ERROR(ex.Wait(deadline_ns, OpName(op.kind)));
  CopyIfDistinct(At(op.recv, recv_at[rank_]), At(op.send, send_at[rank_]), send_bytes[rank_]);
  return Status();
}

// Every item's size goes to its peer first (sends on one slot, receives on another, so that two ranks
// sending to each other in one call do not take each other's sizes for receives); then only the pairs
// whose sizes match move their payload, and both ends of a mismatched pair fail alike.
Status GlooOps::PointToPoint(const OpArgs& op, uint64_t deadline_ns) {
  const std::vector<P2pItem>& items = op.items;
  for (size_t i = 0; i < items.size(); ++i) {
    const P2pItem& it = items[i];
    const size_t es = DataTypeSize(it.dtype);
    uint64_t bytes = 0;
    const char* why = it.peer >= size_ ? "its peer is not a rank"
                      : es == 0 ? "its data type has no element size"
                      : __builtin_mul_overflow(it.count, es, &bytes) ? "its size overflows 64 bits"
                      : bytes > 0 && it.buf == nullptr ? "its buffer is null"
                                                        : nullptr;
    if (why != nullptr) {
      return Err(HCCL_E_PARA, "{} item {} ({} rank {}): {}", OpName(op.kind), i, it.send ? "send to" : "receive from",
                 it.peer, why);
    }
  }
  // HCCL: Send and Recv on a communicator of one rank complete without doing anything.
  if (size_ == 1 && op.kind != OpKind::kBatchSendRecv) return Status();

  std::string mismatch;
  auto note = [&](std::string m) {
    if (mismatch.empty()) mismatch = std::move(m);
  };
  const bool remote = std::any_of(items.begin(), items.end(), [&](const P2pItem& it) { return it.peer != rank_; });
  if (remote) {
    std::vector<P2pHeader> mine(items.size()), theirs(items.size());
    GlooExchange sizes(*context_);
    for (size_t i = 0; i < items.size(); ++i) {
      const P2pItem& it = items[i];
      if (it.peer == rank_) continue;
      mine[i] = P2pHeader{kP2pMagic, it.send ? 1u : 0u, it.count, it.dtype, 0};
      const GlooSlot out = it.send ? GlooSlot::kP2pSendHeader : GlooSlot::kP2pRecvHeader;
      const GlooSlot in = it.send ? GlooSlot::kP2pRecvHeader : GlooSlot::kP2pSendHeader;
      sizes.Send(out, it.peer, &mine[i], sizeof(P2pHeader));
      sizes.Recv(in, it.peer, &theirs[i], sizeof(P2pHeader));
    }
    NPURT_RETURN_IF_ERROR(sizes.Wait(deadline_ns, fmt::format("{} (exchanging sizes)", OpName(op.kind))));
    GlooExchange payload(*context_);
    for (size_t i = 0; i < items.size(); ++i) {
      const P2pItem& it = items[i];
      if (it.peer == rank_) continue;
      const P2pHeader& t = theirs[i];
      uint64_t their_bytes = 0;
      if (t.magic != kP2pMagic || t.send == mine[i].send || DataTypeSize(t.dtype) == 0 ||
          __builtin_mul_overflow(t.count, DataTypeSize(t.dtype), &their_bytes)) {
        note(fmt::format("rank {} answered a {} with a malformed size header", it.peer, it.send ? "send" : "receive"));
        continue;
      }
      const uint64_t bytes = it.count * DataTypeSize(it.dtype);
      if (bytes != their_bytes) {
        note(it.send ? SizeMismatch(rank_, mine[i], it.peer, t) : SizeMismatch(it.peer, t, rank_, mine[i]));
        continue;
      }
      if (it.send) {
        payload.Send(GlooSlot::kP2pData, it.peer, it.buf, bytes);
      } else {
        payload.Recv(GlooSlot::kP2pData, it.peer, it.buf, bytes);
      }
    }
    NPURT_RETURN_IF_ERROR(payload.Wait(deadline_ns, OpName(op.kind)));
  }
  // A send to this rank itself pairs with its receive from itself, in order: a copy.
  std::vector<const P2pItem*> self_sends, self_recvs;
  for (const P2pItem& it : items) {
    if (it.peer == rank_) (it.send ? self_sends : self_recvs).push_back(&it);
  }
  for (size_t k = 0; k < std::max(self_sends.size(), self_recvs.size()); ++k) {
    if (k >= self_sends.size() || k >= self_recvs.size()) {
      const bool send = k < self_sends.size();
      note(fmt::format("a {} rank {} itself needs a matching {} in the same call", send ? "send to" : "receive from",
                       rank_, send ? "receive from itself" : "send to itself"));
      break;
    }
    const P2pItem& s = *self_sends[k];
    const P2pItem& r = *self_recvs[k];
    const uint64_t bytes = s.count * DataTypeSize(s.dtype);
    if (bytes != r.count * DataTypeSize(r.dtype)) {
      note(SizeMismatch(rank_, P2pHeader{kP2pMagic, 1, s.count, s.dtype, 0}, rank_,
                        P2pHeader{kP2pMagic, 0, r.count, r.dtype, 0}));
      continue;
    }
    CopyIfDistinct(r.buf, s.buf, bytes);
  }
  if (!mismatch.empty()) return Err(HCCL_E_PARA, "{}", mismatch);
  return Status();
}

}  // namespace npurt::hccl
