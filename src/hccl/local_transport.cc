#include "hccl/local_transport.h"

#include <cstring>

#include <fmt/format.h>

#include "base/clock.h"
#include "hccl/reduce.h"
#include "hccl/result.h"

namespace npurt::hccl {
namespace {

// Spinning answers a peer in well under a microsecond when cores are free; past this the waiter sleeps
// (ranks outnumber the cores on small machines, and a spinning rank would keep its peers off the core).
constexpr uint64_t kSpinNs = 20'000;
// Up to this size an AllReduce is one reduction of the whole buffer per rank (two meetings), above it a
// reduce-scatter and an all-gather (three meetings, each byte reduced once).
constexpr uint64_t kWholeReduceBytes = 16u << 10;

const char* Bytes(const void* p) { return static_cast<const char*>(p); }
char* Bytes(void* p) { return static_cast<char*>(p); }

}  // namespace

LocalGroup::LocalGroup(uint32_t size) : size_(size), published_(size), passed_(size) {}

bool LocalGroup::WaitFor(auto&& ready, uint64_t deadline_ns) {
  return signal_.WaitUntil([&] { return broken() || ready(); }, deadline_ns, kSpinNs);
}

Status LocalGroup::Meet(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what) {
  passed_[rank].store(generation, std::memory_order_release);
  signal_.Notify();
  auto all_arrived = [&] {
    for (uint32_t r = 0; r < size_; ++r) {
      if (passed_[r].load(std::memory_order_acquire) < generation) return false;
    }
    return true;
  };
  // Everyone arrived: done, even if the group broke meanwhile (a later operation will see that).
  if (WaitFor(all_arrived, deadline_ns)) return all_arrived() ? Status() : BrokenStatus();
  std::string missing;
  for (uint32_t r = 0; r < size_; ++r) {
    if (passed_[r].load(std::memory_order_acquire) < generation) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", r);
  }
  Break(fmt::format("{}: rank(s) {} did not take part before the timeout (HCCL_EXEC_TIMEOUT); this communicator is "
                    "unusable now",
                    what, missing));
  return Err(HCCL_E_TIMEOUT, "{}", BrokenStatus().message());
}

void LocalGroup::Break(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!broken_.load(std::memory_order_relaxed)) broken_reason_ = reason;
    broken_.store(true, std::memory_order_release);
  }
  signal_.Notify();
}

Status LocalGroup::BrokenStatus() const {
  if (!broken()) return Status();
  std::lock_guard<std::mutex> lock(mu_);
  return Err(HCCL_E_REMOTE, "{}", broken_reason_);
}

void LocalGroup::Post(uint32_t from, uint32_t to, Message* message) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    channels_[{from, to}].push_back(message);
  }
  signal_.Notify();
}

StatusOr<LocalGroup::Message*> LocalGroup::Take(uint32_t from, uint32_t to, uint64_t deadline_ns) {
  Message* taken = nullptr;
  auto try_take = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = channels_.find({from, to});
    if (it == channels_.end() || it->second.empty()) return false;
    taken = it->second.front();
    it->second.pop_front();
    return true;
  };
  if (!WaitFor(try_take, deadline_ns)) {
    return Err(HCCL_E_TIMEOUT, "rank {} waited for a send from rank {} that did not come before the timeout "
               "(HCCL_EXEC_TIMEOUT)", to, from);
  }
  if (taken == nullptr) return BrokenStatus();
  return taken;
}

void LocalGroup::Finish(Message* message, int32_t code, std::string error) {
  if (code != 0) message->error = std::move(error);
  message->result.store(code, std::memory_order_release);
  signal_.Notify();
}

Status LocalGroup::AwaitConsumed(uint32_t from, uint32_t to, Message* message, uint64_t deadline_ns) {
  auto consumed = [&] { return message->result.load(std::memory_order_acquire) >= 0; };
  if (!WaitFor(consumed, deadline_ns)) {
    // Withdraw the message so that a late receiver cannot read a buffer the sender gave back.
    std::lock_guard<std::mutex> lock(mu_);
    auto& queue = channels_[{from, to}];
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      if (*it == message) {
        queue.erase(it);
        return Err(HCCL_E_TIMEOUT, "rank {}'s send to rank {} was not received before the timeout (HCCL_EXEC_TIMEOUT)",
                   from, to);
      }
    }
    // Taken meanwhile: the receiver is copying; it finishes promptly.
  }
  if (!consumed()) {
    signal_.WaitUntil(consumed, UINT64_MAX, kSpinNs);
  }
  const int32_t code = message->result.load(std::memory_order_acquire);
  if (code != 0) return Err(code, "{}", message->error);
  return Status();
}

std::string Disagreement(const OpArgs& a, const OpArgs& b, uint32_t peer) {
  auto differs = [&](const char* field, auto x, auto y) -> std::string {
    if (x == y) return "";
    return fmt::format("rank 0 has {} {}, rank {} has {}", field, x, peer, y);
  };
  if (a.kind != b.kind) return fmt::format("rank 0 issued {}, rank {} issued {}", OpName(a.kind), peer, OpName(b.kind));
  std::string d;
  auto check = [&](std::string found) {
    if (d.empty()) d = std::move(found);
  };
  const OpKind k = a.kind;
  const bool has_count = k != OpKind::kBarrier && k != OpKind::kAllGatherV && k != OpKind::kAlltoAllV &&
                         k != OpKind::kAlltoAllVC && k != OpKind::kReduceScatterV;
  if (has_count) check(differs("count", a.count, b.count));
  if (k != OpKind::kBarrier) check(differs("data type", DataTypeName(a.dtype), DataTypeName(b.dtype)));
  if (k == OpKind::kAllReduce || k == OpKind::kReduce || k == OpKind::kReduceScatter || k == OpKind::kReduceScatterV) {
    check(differs("reduce op", ReduceOpName(a.op), ReduceOpName(b.op)));
  }
  if (k == OpKind::kBroadcast || k == OpKind::kReduce || k == OpKind::kScatter) check(differs("root", a.root, b.root));
  if (k == OpKind::kAlltoAll || k == OpKind::kAlltoAllV || k == OpKind::kAlltoAllVC) {
    check(differs("receive data type", DataTypeName(a.recv_dtype), DataTypeName(b.recv_dtype)));
  }
  if (k == OpKind::kAlltoAll) check(differs("receive count", a.recv_count, b.recv_count));
  if (k == OpKind::kAllGatherV && a.recv_counts != b.recv_counts) check(fmt::format("rank 0 and rank {} pass different recvCounts", peer));
  if (k == OpKind::kAllGatherV && a.recv_displs != b.recv_displs) check(fmt::format("rank 0 and rank {} pass different recvDispls", peer));
  if (k == OpKind::kAllGatherV && peer < a.recv_counts.size() && a.recv_counts[peer] != b.count) {
    check(fmt::format("rank {} sends {} elements, but recvCounts[{}] is {}", peer, b.count, peer, a.recv_counts[peer]));
  }
  if (k == OpKind::kReduceScatterV && a.send_counts != b.send_counts) check(fmt::format("rank 0 and rank {} pass different sendCounts", peer));
  if (k == OpKind::kReduceScatterV && a.send_displs != b.send_displs) check(fmt::format("rank 0 and rank {} pass different sendDispls", peer));
  if (k == OpKind::kReduceScatterV && peer < a.send_counts.size() && a.send_counts[peer] != b.recv_count) {
    check(fmt::format("rank {} receives {} elements, but sendCounts[{}] is {}", peer, b.recv_count, peer, a.send_counts[peer]));
  }
  if (k == OpKind::kAlltoAllVC && a.count_matrix != b.count_matrix) check(fmt::format("rank 0 and rank {} pass different sendCountMatrix", peer));
  return d;
}

LocalTransport::LocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank) : group_(std::move(group)), rank_(rank) {}

Status LocalTransport::Meet(uint64_t deadline_ns, const char* what) {
  return group_->Meet(rank_, ++generation_, deadline_ns, what);
}

Status LocalTransport::Run(const OpArgs& op, uint64_t deadline_ns) {
  if (Status broken = group_->BrokenStatus(); !broken.ok()) return broken;
  if (op.kind == OpKind::kSend || op.kind == OpKind::kRecv || op.kind == OpKind::kBatchSendRecv) {
    return RunPointToPoint(op, deadline_ns);
  }
  return RunCollective(op, deadline_ns);
}

Status LocalTransport::RunCollective(const OpArgs& op, uint64_t deadline_ns) {
  const uint32_t n = group_->size();
  group_->Publish(rank_, &op);
  if (Status s = Meet(deadline_ns, "the ranks' arrival"); !s.ok()) return s;
  // Agreement: every rank checks every peer against rank 0, so all reach the same verdict.
  std::string disagreement;
  for (uint32_t r = 1; r < n && disagreement.empty(); ++r) disagreement = Disagreement(group_->Peer(0), group_->Peer(r), r);
  if (disagreement.empty() && op.kind == OpKind::kAlltoAllV) {
    const size_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
    for (uint32_t i = 0; i < n && disagreement.empty(); ++i) {
      for (uint32_t j = 0; j < n && disagreement.empty(); ++j) {
        const uint64_t sent = group_->Peer(i).send_counts[j] * es, expected = group_->Peer(j).recv_counts[i] * er;
        if (sent != expected) {
          disagreement = fmt::format("rank {} sends {} bytes to rank {}, which expects {} bytes from it", i, sent, j, expected);
        }
      }
    }
  }
  if (disagreement.empty()) {
    switch (op.kind) {
      case OpKind::kAllReduce:
        if (op.count * DataTypeSize(op.dtype) <= kWholeReduceBytes) {
          // Small: each rank reduces the whole buffer into its own output. n reads of a few KiB cost less
          // than the third meeting the two halves below need.
          std::vector<const void*> in(n);
          bool in_place = false;
          for (uint32_t j = 0; j < n; ++j) {
            in[j] = group_->Peer(j).send;
            in_place = in_place || group_->Peer(j).send == group_->Peer(j).recv;
          }
          if (!in_place) {
            FindReduce(op.dtype, op.op).many(op.recv, in.data(), n, op.count);
            break;
          }
          // A rank's input is its output: reduce into a copy first, so that no rank overwrites an input
          // that a slower peer has yet to read.
          std::vector<uint8_t> out(op.count * DataTypeSize(op.dtype));
          FindReduce(op.dtype, op.op).many(out.data(), in.data(), n, op.count);
          if (Status s = Meet(deadline_ns, "the reduction"); !s.ok()) return s;
          std::memcpy(op.recv, out.data(), out.size());
          break;
        }
        ReduceChunk(op, op.recv);
        if (Status s = Meet(deadline_ns, "the reduce-scatter half"); !s.ok()) return s;
        AllReduceGatherPhase(op);
        break;
      case OpKind::kBroadcast:
        if (rank_ != op.root) CopyIfDistinct(op.recv, group_->Peer(op.root).recv, op.count * DataTypeSize(op.dtype));
        break;
      case OpKind::kReduce: ReduceChunk(op, group_->Peer(op.root).recv); break;
      case OpKind::kReduceScatter:
      case OpKind::kReduceScatterV: ReduceScatter(op); break;
      case OpKind::kAllGather:
      case OpKind::kAllGatherV:
      case OpKind::kScatter: Gather(op); break;
      case OpKind::kAlltoAll:
      case OpKind::kAlltoAllV:
      case OpKind::kAlltoAllVC: AlltoAll(op); break;
      default: break;  // kBarrier: the meetings are the operation
    }
  }
  // Nobody returns (and reuses its buffers or its published arguments) while a peer may still read them.
  if (Status s = Meet(deadline_ns, "the ranks' completion"); !s.ok()) return s;
  if (!disagreement.empty()) {
    return Err(HCCL_E_PARA, "the ranks' arguments are inconsistent: {}", disagreement);
  }
  return Status();
}

// Rank r reduces chunk r of every rank's send buffer into chunk r of `out` (AllReduce: its own receive
// buffer; Reduce: the root's).
void LocalTransport::ReduceChunk(const OpArgs& op, void* out) {
  const uint32_t n = group_->size();
  const size_t es = DataTypeSize(op.dtype);
  const uint64_t lo = op.count * rank_ / n, hi = op.count * (rank_ + 1) / n;
  if (hi == lo) return;
  std::vector<const void*> in(n);
  for (uint32_t j = 0; j < n; ++j) in[j] = Bytes(group_->Peer(j).send) + lo * es;
  FindReduce(op.dtype, op.op).many(Bytes(out) + lo * es, in.data(), n, hi - lo);
}

// Then gathers the other ranks' reduced chunks.
void LocalTransport::AllReduceGatherPhase(const OpArgs& op) {
  const uint32_t n = group_->size();
  const size_t es = DataTypeSize(op.dtype);
  for (uint32_t j = 1; j < n; ++j) {
    const uint32_t peer = (rank_ + j) % n;  // staggered: the ranks read different peers at once
    const uint64_t lo = op.count * peer / n, hi = op.count * (peer + 1) / n;
    CopyIfDistinct(Bytes(op.recv) + lo * es, Bytes(group_->Peer(peer).recv) + lo * es, (hi - lo) * es);
  }
}

// ReduceScatter(V): rank r reduces block r of every send buffer into its receive buffer.
void LocalTransport::ReduceScatter(const OpArgs& op) {
  const uint32_t n = group_->size();
  const size_t es = DataTypeSize(op.dtype);
  const bool v = op.kind == OpKind::kReduceScatterV;
  const uint64_t offset = v ? op.send_displs[rank_] : rank_ * op.count;
  const uint64_t count = v ? op.send_counts[rank_] : op.count;
  if (count == 0) return;
  std::vector<const void*> in(n);
  for (uint32_t j = 0; j < n; ++j) in[j] = Bytes(group_->Peer(j).send) + offset * es;
  FindReduce(op.dtype, op.op).many(op.recv, in.data(), n, count);
}

// AllGather(V) and Scatter: copies into this rank's receive buffer.
void LocalTransport::Gather(const OpArgs& op) {
  const uint32_t n = group_->size();
  const size_t es = DataTypeSize(op.dtype);
  if (op.kind == OpKind::kScatter) {
    CopyIfDistinct(op.recv, Bytes(group_->Peer(op.root).send) + rank_ * op.count * es, op.count * es);
    return;
  }
  for (uint32_t j = 0; j < n; ++j) {
    const OpArgs& peer = group_->Peer(j);
    if (op.kind == OpKind::kAllGatherV) {
      CopyIfDistinct(Bytes(op.recv) + op.recv_displs[j] * es, peer.send, op.recv_counts[j] * es);
    } else {
      CopyIfDistinct(Bytes(op.recv) + j * op.count * es, peer.send, op.count * es);
    }
  }
}

// AlltoAll(V, VC): this rank pulls its block from every rank's send buffer.
void LocalTransport::AlltoAll(const OpArgs& op) {
  const uint32_t n = group_->size();
  const size_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
  uint64_t recv_offset = 0;  // VC: elements of recvType before peer j's block
  for (uint32_t j = 0; j < n; ++j) {
    const OpArgs& peer = group_->Peer(j);
    switch (op.kind) {
      case OpKind::kAlltoAll:
        CopyIfDistinct(Bytes(op.recv) + j * op.recv_count * er, Bytes(peer.send) + rank_ * op.count * es, op.count * es);
        break;
      case OpKind::kAlltoAllV:
        CopyIfDistinct(Bytes(op.recv) + op.recv_displs[j] * er, Bytes(peer.send) + peer.send_displs[rank_] * es,
                       peer.send_counts[rank_] * es);
        break;
      default: {  // kAlltoAllVC: row j of the matrix is what rank j sends, packed in rank order
        const uint64_t* row = &op.count_matrix[static_cast<size_t>(j) * n];
        uint64_t send_offset = 0;
        for (uint32_t i = 0; i < rank_; ++i) send_offset += row[i];
        CopyIfDistinct(Bytes(op.recv) + recv_offset * er, Bytes(peer.send) + send_offset * es, row[rank_] * es);
        recv_offset += row[rank_] * es / er;
        break;
      }
    }
  }
}

Status LocalTransport::RunPointToPoint(const OpArgs& op, uint64_t deadline_ns) {
  // Every send is posted first, so that the receives of the same call (a ring's) cannot wait for it.
  std::vector<std::unique_ptr<LocalGroup::Message>> sends;
  for (const P2pItem& item : op.items) {
    if (!item.send) continue;
    sends.push_back(std::make_unique<LocalGroup::Message>());
    sends.back()->item = &item;
    group_->Post(rank_, item.peer, sends.back().get());
  }
  Status first;
  for (const P2pItem& item : op.items) {
    if (item.send) continue;
    auto taken = group_->Take(item.peer, rank_, deadline_ns);
    if (!taken.ok()) {
      if (first.ok()) first = taken.status();
      continue;
    }
    LocalGroup::Message* m = taken.value();
    const size_t bytes = item.count * DataTypeSize(item.dtype);
    const size_t sent = m->item->count * DataTypeSize(m->item->dtype);
    if (sent != bytes) {
      std::string why = fmt::format("rank {} sends {} {} ({} bytes) to rank {}, which receives {} {} ({} bytes)", item.peer,
                                    m->item->count, DataTypeName(m->item->dtype), sent, rank_, item.count,
                                    DataTypeName(item.dtype), bytes);
      group_->Finish(m, HCCL_E_PARA, why);
      if (first.ok()) first = Err(HCCL_E_PARA, "{}", why);
      continue;
    }
    CopyIfDistinct(item.buf, m->item->buf, bytes);
    group_->Finish(m, 0, "");
  }
  for (size_t i = 0; i < sends.size(); ++i) {
    const P2pItem& item = *sends[i]->item;
    Status s = group_->AwaitConsumed(rank_, item.peer, sends[i].get(), deadline_ns);
    if (!s.ok() && first.ok()) first = s;
  }
  return first;
}

}  // namespace npurt::hccl
