#include "hccl/collective_steps.h"

#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "hccl/reduce.h"
#include "hccl/result.h"

namespace npurt::hccl {
namespace steps {

const char* Bytes(const void* p) { return static_cast<const char*>(p); }
char* Bytes(void* p) { return static_cast<char*>(p); }

// Rank r reduces chunk r of every rank's send buffer into chunk r of `out` (AllReduce: its own receive
// buffer; Reduce: the root's).
void StepReduceChunk(CollectiveRanks& ranks, const OpArgs& op, void* out) {
  const uint32_t rank = ranks.my_rank();
  const uint32_t n = ranks.group_size();
  const size_t es = DataTypeSize(op.dtype);
  const uint64_t lo = op.count * rank / n, hi = op.count * (rank + 1) / n;
  if (hi == lo) return;
  std::vector<const void*> in(n);
  for (uint32_t j = 0; j < n; ++j) in[j] = Bytes(ranks.PeerArgs(j).send) + lo * es;
  FindReduce(op.dtype, op.op).many(Bytes(out) + lo * es, in.data(), n, hi - lo);
}

// Then gathers the other ranks' reduced chunks.
void StepAllReduceGatherPhase(CollectiveRanks& ranks, const OpArgs& op) {
  const uint32_t rank = ranks.my_rank();
  const uint32_t n = ranks.group_size();
  const size_t es = DataTypeSize(op.dtype);
  for (uint32_t j = 1; j < n; ++j) {
    const uint32_t peer = (rank + j) % n;  // staggered: the ranks read different peers at once
    const uint64_t lo = op.count * peer / n, hi = op.count * (peer + 1) / n;
    CopyIfDistinct(Bytes(op.recv) + lo * es, Bytes(ranks.PeerArgs(peer).recv) + lo * es, (hi - lo) * es);
  }
}

// ReduceScatter(V): rank r reduces block r of every send buffer into its receive buffer.
void StepReduceScatter(CollectiveRanks& ranks, const OpArgs& op) {
  const uint32_t rank = ranks.my_rank();
  const uint32_t n = ranks.group_size();
  const size_t es = DataTypeSize(op.dtype);
  const bool v = op.kind == OpKind::kReduceScatterV;
  const uint64_t offset = v ? op.send_displs[rank] : rank * op.count;
  const uint64_t count = v ? op.send_counts[rank] : op.count;
  if (count == 0) return;
  std::vector<const void*> in(n);
  for (uint32_t j = 0; j < n; ++j) in[j] = Bytes(ranks.PeerArgs(j).send) + offset * es;
  FindReduce(op.dtype, op.op).many(op.recv, in.data(), n, count);
}

// AllGather(V) and Scatter: copies into this rank's receive buffer.
void StepGather(CollectiveRanks& ranks, const OpArgs& op) {
  const uint32_t rank = ranks.my_rank();
  const uint32_t n = ranks.group_size();
  const size_t es = DataTypeSize(op.dtype);
  if (op.kind == OpKind::kScatter) {
    CopyIfDistinct(op.recv, Bytes(ranks.PeerArgs(op.root).send) + rank * op.count * es, op.count * es);
    return;
  }
  for (uint32_t j = 0; j < n; ++j) {
    const OpArgs& peer = ranks.PeerArgs(j);
    if (op.kind == OpKind::kAllGatherV) {
      CopyIfDistinct(Bytes(op.recv) + op.recv_displs[j] * es, peer.send, op.recv_counts[j] * es);
    } else {
      CopyIfDistinct(Bytes(op.recv) + j * op.count * es, peer.send, op.count * es);
    }
  }
}

// AlltoAll(V, VC): this rank pulls its block from every rank's send buffer.
void StepAlltoAll(CollectiveRanks& ranks, const OpArgs& op) {
  const uint32_t rank = ranks.my_rank();
  const uint32_t n = ranks.group_size();
  const size_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
  uint64_t recv_offset = 0;  // VC: elements of recvType before peer j's block
  for (uint32_t j = 0; j < n; ++j) {
    const OpArgs& peer = ranks.PeerArgs(j);
    switch (op.kind) {
      case OpKind::kAlltoAll:
        CopyIfDistinct(Bytes(op.recv) + j * op.recv_count * er, Bytes(peer.send) + rank * op.count * es, op.count * es);
        break;
      case OpKind::kAlltoAllV:
        CopyIfDistinct(Bytes(op.recv) + op.recv_displs[j] * er, Bytes(peer.send) + peer.send_displs[rank] * es,
                       peer.send_counts[rank] * es);
        break;
      default: {  // kAlltoAllVC: row j of the matrix is what rank j sends, packed in rank order
        const uint64_t* row = &op.count_matrix[static_cast<size_t>(j) * n];
        uint64_t send_offset = 0;
        for (uint32_t i = 0; i < rank; ++i) send_offset += row[i];
        CopyIfDistinct(Bytes(op.recv) + recv_offset * er, Bytes(peer.send) + send_offset * es, row[rank] * es);
        recv_offset += row[rank] * es / er;
        break;
      }
    }
  }
}

// The end of a staged operation: every rank tells the others whether its stage failed before anyone
// gathers; then each gathers the others' chunks (unless `gather` is false: a Broadcast's root has them).
Status FinishStaged(CollectiveRanks& ranks, const OpArgs& op, uint64_t deadline_ns, const Status& staged, bool gather) {
  bool any_failed = false;
  if (Status s = ranks.MeetAndTell(deadline_ns, "the exchange between machines", !staged.ok(), &any_failed); !s.ok()) {
    return s;
  }
  if (!staged.ok() || any_failed) {
    (void)ranks.MeetAll(deadline_ns, "the ranks' completion");
    if (!staged.ok()) return staged;
    return Err(HCCL_E_REMOTE, "another rank of this machine failed its exchange with the other machines (its own error "
               "says why)");
  }
  if (gather) StepAllReduceGatherPhase(ranks, op);
  return ranks.MeetAll(deadline_ns, "the ranks' completion");
}

// Rank r's chunk of a staged operation.
void ChunkOf(const CollectiveRanks& ranks, const OpArgs& op, uint64_t* lo, uint64_t* hi) {
  const uint32_t n = ranks.group_size(), rank = ranks.my_rank();
  *lo = op.count * rank / n;
  *hi = op.count * (rank + 1) / n;
}

// AllReduce with a stage between its halves: reduce-scatter here, the stage on each rank's chunk, then
// all-gather.
Status StagedAllReduce(CollectiveRanks& ranks, const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage) {
  const size_t es = DataTypeSize(op.dtype);
  StepReduceChunk(ranks, op, op.recv);
  if (Status s = ranks.MeetAll(deadline_ns, "the reduce-scatter half"); !s.ok()) return s;
  uint64_t lo = 0, hi = 0;
  ChunkOf(ranks, op, &lo, &hi);
  // Also for an empty chunk: the other machines' ranks with this chunk meet it there, and find out if their
  // arguments differ.
  return FinishStaged(ranks, op, deadline_ns, stage(Bytes(op.recv) + lo * es, hi - lo), true);
}

// Broadcast in stages: on the root's machine each rank copies its chunk from the root; the stage sends each
// chunk from there to the same rank of every other machine; then every rank gathers the others' chunks.
// Nobody writes the root's buffer, so no meeting is needed before the stage.
Status StagedBroadcast(CollectiveRanks& ranks, const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage) {
  const size_t es = DataTypeSize(op.dtype);
  const uint32_t rank = ranks.my_rank();
  uint64_t lo = 0, hi = 0;
  ChunkOf(ranks, op, &lo, &hi);
  if (op.root != kNoLocalRoot && op.root != rank) {
    CopyIfDistinct(Bytes(op.recv) + lo * es, Bytes(ranks.PeerArgs(op.root).recv) + lo * es, (hi - lo) * es);
  }
  return FinishStaged(ranks, op, deadline_ns, stage(Bytes(op.recv) + lo * es, hi - lo), op.root != rank);
}

}  // namespace steps

using steps::Bytes;

Status RunCollectiveSteps(CollectiveRanks& ranks, const OpArgs& op, std::string disagreement, uint64_t deadline_ns,
                          const ChunkStage* stage) {
  const uint32_t n = ranks.group_size();
  auto Meet = [&](uint64_t deadline, const char* what) { return ranks.MeetAll(deadline, what); };
  // Agreement: every rank checks every peer against rank 0, so all reach the same verdict.
  for (uint32_t r = 1; r < n && disagreement.empty(); ++r) disagreement = Disagreement(ranks.PeerArgs(0), ranks.PeerArgs(r), r);
  if (disagreement.empty() && op.kind == OpKind::kAlltoAllV) {
    const size_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
    for (uint32_t i = 0; i < n && disagreement.empty(); ++i) {
      for (uint32_t j = 0; j < n && disagreement.empty(); ++j) {
        const uint64_t sent = ranks.PeerArgs(i).send_counts[j] * es, expected = ranks.PeerArgs(j).recv_counts[i] * er;
        if (sent != expected) {
          disagreement = fmt::format("rank {} sends {} bytes to rank {}, which expects {} bytes from it", i, sent, j, expected);
        }
      }
    }
  }
  if (disagreement.empty()) {
    switch (op.kind) {
      case OpKind::kAllReduce:
        if (stage != nullptr) return steps::StagedAllReduce(ranks, op, deadline_ns, *stage);
        if (op.count * DataTypeSize(op.dtype) <= kWholeReduceBytes) {
          // Small: each rank reduces the whole buffer into its own output. n reads of a few KiB cost less
          // than the third meeting the two halves below need.
          std::vector<const void*> in(n);
          bool in_place = false;
          for (uint32_t j = 0; j < n; ++j) {
            in[j] = ranks.PeerArgs(j).send;
            in_place = in_place || ranks.PeerArgs(j).send == ranks.PeerArgs(j).recv;
          }
          if (ranks.InputsStaged()) {
            // Every input is a copy that stays put until every rank has passed the next arrival: nobody
            // reads this rank's buffers, so it may go as soon as its result is written.
            FindReduce(op.dtype, op.op).many(op.recv, in.data(), n, op.count);
            return Status();
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
        steps::StepReduceChunk(ranks, op, op.recv);
        if (Status s = Meet(deadline_ns, "the reduce-scatter half"); !s.ok()) return s;
        steps::StepAllReduceGatherPhase(ranks, op);
        break;
      case OpKind::kBroadcast:
        if (stage != nullptr) return steps::StagedBroadcast(ranks, op, deadline_ns, *stage);
        if (ranks.my_rank() != op.root) CopyIfDistinct(op.recv, ranks.PeerArgs(op.root).recv, op.count * DataTypeSize(op.dtype));
        break;
      case OpKind::kReduce: steps::StepReduceChunk(ranks, op, ranks.PeerArgs(op.root).recv); break;
      case OpKind::kReduceScatter:
      case OpKind::kReduceScatterV: steps::StepReduceScatter(ranks, op); break;
      case OpKind::kAllGather:
      case OpKind::kAllGatherV:
      case OpKind::kScatter: steps::StepGather(ranks, op); break;
      case OpKind::kAlltoAll:
      case OpKind::kAlltoAllV:
      case OpKind::kAlltoAllVC: steps::StepAlltoAll(ranks, op); break;
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

std::string MissedMeetingReason(const char* what, const std::string& missing) {
  return fmt::format("{}: rank(s) {} did not take part before the timeout (HCCL_EXEC_TIMEOUT); this communicator is "
                     "unusable now", what, missing);
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

}  // namespace npurt::hccl
