#include "hccl/net/op_header.h"

#include <fmt/format.h>

#include "hccl/collective_steps.h"
#include "hccl/reduce.h"

namespace npurt::hccl {
namespace {

constexpr uint32_t kOpHeaderMagic = 0x3148504e;  // "NPH1"
constexpr const char* kInconsistent = "the ranks' arguments are inconsistent: ";

uint64_t Hash(const std::vector<uint64_t>& v) {
  uint64_t h = 0xcbf29ce484222325ull ^ v.size();  // FNV-1a over the little-endian bytes
  for (uint64_t x : v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (x >> (8 * i)) & 0xff;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

// a * b * c bytes, or false when that overflows.
bool Product(uint64_t a, uint64_t b, uint64_t c, uint64_t* out) {
  return !__builtin_mul_overflow(a, b, out) && !__builtin_mul_overflow(*out, c, out);
}

// The end, in bytes, of the furthest block (displs[i] + counts[i]) * es; false on overflow.
bool Extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs, size_t es, uint64_t* end) {
  *end = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    uint64_t e;
    if (__builtin_add_overflow(displs[i], counts[i], &e) || __builtin_mul_overflow(e, es, &e)) return false;
    if (counts[i] != 0 && e > *end) *end = e;
  }
  return true;
}

uint64_t Sum(const std::vector<uint64_t>& v, size_t first, size_t stride, size_t n, bool* overflow) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; ++i) *overflow = *overflow || __builtin_add_overflow(s, v[first + i * stride], &s);
  return s;
}

// Why this rank cannot run `op`, or "".
std::string Invalid(const OpArgs& op, uint32_t rank, uint32_t size) {
  const OpKind k = op.kind;
  if (k == OpKind::kSend || k == OpKind::kRecv || k == OpKind::kBatchSendRecv) return "not a collective";
  if (k == OpKind::kBarrier) return "";
  const size_t es = DataTypeSize(op.dtype);
  if (es == 0) return fmt::format("data type {} has no element size", op.dtype);
  const bool alltoall = k == OpKind::kAlltoAll || k == OpKind::kAlltoAllV || k == OpKind::kAlltoAllVC;
  const size_t er = alltoall ? DataTypeSize(op.recv_dtype) : es;
  if (er == 0) return fmt::format("receive data type {} has no element size", op.recv_dtype);
  if ((k == OpKind::kAllReduce || k == OpKind::kReduce || k == OpKind::kReduceScatter ||
       k == OpKind::kReduceScatterV) && FindReduce(op.dtype, op.op).many == nullptr) {
    return fmt::format("reduce op {} cannot reduce {}", ReduceOpName(op.op), DataTypeName(op.dtype));
  }
  if ((k == OpKind::kBroadcast || k == OpKind::kReduce || k == OpKind::kScatter) && op.root >= size) {
    return fmt::format("root {} is not a rank (0..{})", op.root, size - 1);
  }
  auto length = [&](const char* name, const std::vector<uint64_t>& v, size_t n) -> std::string {
    return v.size() == n ? "" : fmt::format("{} has {} entries, not {}", name, v.size(), n);
  };
  const char* overflow = "the buffer sizes overflow 64 bits";
  uint64_t block = 0, total = 0, send_bytes = 0, recv_bytes = 0;
  switch (k) {
    case OpKind::kAllReduce:
    case OpKind::kBroadcast:
    case OpKind::kReduce:
      if (!Product(op.count, es, 1, &block)) return overflow;
      send_bytes = k == OpKind::kBroadcast ? 0 : block;
      recv_bytes = k == OpKind::kReduce && rank != op.root ? 0 : block;
      break;
    case OpKind::kAllGather:
    case OpKind::kReduceScatter:
    case OpKind::kScatter:
      if (!Product(op.count, es, 1, &block) || !Product(op.count, es, size, &total)) return overflow;
      send_bytes = k == OpKind::kAllGather ? block : (k == OpKind::kScatter && rank != op.root ? 0 : total);
      recv_bytes = k == OpKind::kAllGather ? total : block;
      break;
    case OpKind::kAllGatherV: {
      for (auto s : {length("recv_counts", op.recv_counts, size), length("recv_displs", op.recv_displs, size)}) {
        if (!s.empty()) return s;
      }
      if (op.count != op.recv_counts[rank]) {
        return fmt::format("this rank sends {} elements, but recvCounts[{}] is {}", op.count, rank,
                           op.recv_counts[rank]);
      }
      if (!Product(op.count, es, 1, &send_bytes) || !Extent(op.recv_counts, op.recv_displs, es, &recv_bytes)) {
        return overflow;
      }
      break;
    }
    case OpKind::kReduceScatterV: {
      for (auto s : {length("send_counts", op.send_counts, size), length("send_displs", op.send_displs, size)}) {
        if (!s.empty()) return s;
      }
      if (op.recv_count != op.send_counts[rank]) {
        return fmt::format("this rank receives {} elements, but sendCounts[{}] is {}", op.recv_count, rank,
                           op.send_counts[rank]);
      }
      if (!Product(op.recv_count, es, 1, &recv_bytes) || !Extent(op.send_counts, op.send_displs, es, &send_bytes)) {
        return overflow;
      }
      break;
    }
    case OpKind::kAlltoAll: {
      uint64_t out = 0, in = 0;
      if (!Product(op.count, es, size, &out) || !Product(op.recv_count, er, size, &in)) return overflow;
      if (op.count * es != op.recv_count * er) {
        return fmt::format("it sends {} x {} to each rank but receives {} x {} from each", op.count,
                           DataTypeName(op.dtype), op.recv_count, DataTypeName(op.recv_dtype));
      }
      send_bytes = out;
      recv_bytes = in;
      break;
    }
    case OpKind::kAlltoAllV: {
      for (auto s : {length("send_counts", op.send_counts, size), length("send_displs", op.send_displs, size),
                     length("recv_counts", op.recv_counts, size), length("recv_displs", op.recv_displs, size)}) {
        if (!s.empty()) return s;
      }
      if (!Extent(op.send_counts, op.send_displs, es, &send_bytes) ||
          !Extent(op.recv_counts, op.recv_displs, er, &recv_bytes)) {
        return overflow;
      }
      break;
    }
    case OpKind::kAlltoAllVC: {
      if (op.count_matrix.size() != size_t{size} * size) {
        return fmt::format("count_matrix has {} entries, not {} x {}", op.count_matrix.size(), size, size);
      }
      bool over = false;
      const uint64_t row = Sum(op.count_matrix, size_t{rank} * size, 1, size, &over);
      const uint64_t column = Sum(op.count_matrix, rank, size, size, &over);
      if (over || !Product(row, es, 1, &send_bytes) || !Product(column, es, 1, &recv_bytes)) return overflow;
      break;
    }
    default:
      return fmt::format("unknown operation {}", static_cast<uint32_t>(k));
  }
  if (send_bytes > 0 && op.send == nullptr) return "the send buffer is null";
  if (recv_bytes > 0 && op.recv == nullptr) return "the receive buffer is null";
  return "";
}

// Rank r's header read back as arguments, for Disagreement. The V arrays are this rank's: once the hashes
// agree they are everyone's.
OpArgs AsArgs(const OpHeader& h, const OpArgs& mine) {
  OpArgs a;
  a.kind = static_cast<OpKind>(h.kind);
  a.count = h.count;
  a.recv_count = h.recv_count;
  a.dtype = h.dtype;
  a.recv_dtype = h.recv_dtype;
  a.op = h.op;
  a.root = h.root;
  a.send_counts = mine.send_counts;
  a.send_displs = mine.send_displs;
  a.recv_counts = mine.recv_counts;
  a.recv_displs = mine.recv_displs;
  a.count_matrix = mine.count_matrix;
  return a;
}

}  // namespace

OpHeader MakeOpHeader(const OpArgs& op, uint32_t rank, uint32_t size, uint64_t index, std::string* invalid_reason) {
  OpHeader h{};
  h.magic = kOpHeaderMagic;
  h.kind = static_cast<uint32_t>(op.kind);
  h.index = index;
  h.count = op.count;
  h.recv_count = op.recv_count;
  h.dtype = op.dtype;
  h.recv_dtype = op.recv_dtype;
  h.op = op.op;
  h.root = op.root;
  switch (op.kind) {
    case OpKind::kAllGatherV:
      h.counts_hash = Hash(op.recv_counts);
      h.displs_hash = Hash(op.recv_displs);
      break;
    case OpKind::kReduceScatterV:
      h.counts_hash = Hash(op.send_counts);
      h.displs_hash = Hash(op.send_displs);
      break;
    case OpKind::kAlltoAllVC:
      h.counts_hash = Hash(op.count_matrix);
      break;
    default:
      break;
  }
  *invalid_reason = Invalid(op, rank, size);
  h.invalid = invalid_reason->empty() ? 0 : 1;
  return h;
}

std::string FindDisagreement(const OpArgs& mine, uint32_t rank, const std::vector<OpHeader>& all,
                             const std::string& invalid_reason) {
  const size_t n = all.size();
  // Which operation: nothing else compares until the ranks are at the same one.
  for (size_t r = 0; r < n; ++r) {
    if (all[r].magic != kOpHeaderMagic) return fmt::format("rank {} sent a malformed agreement header", r);
  }
  for (size_t r = 1; r < n; ++r) {
    if (all[r].kind != all[0].kind) {
      return kInconsistent + Disagreement(AsArgs(all[0], mine), AsArgs(all[r], mine), static_cast<uint32_t>(r));
    }
    if (all[r].index != all[0].index) {
      return fmt::format("the ranks are out of step: this is collective #{} of rank 0 but #{} of rank {} (every rank "
                         "must issue the same collectives in the same order)", all[0].index + 1, all[r].index + 1, r);
    }
  }
  for (size_t r = 0; r < n; ++r) {
    if (all[r].invalid == 0) continue;
    if (r == rank) return invalid_reason;
    return fmt::format("rank {} passed arguments it cannot run (its own error says why)", r);
  }
  const OpKind k = mine.kind;
  const char* counts = k == OpKind::kAllGatherV       ? "recvCounts"
                       : k == OpKind::kReduceScatterV ? "sendCounts"
                                                      : "sendCountMatrix";
  const char* displs = k == OpKind::kAllGatherV ? "recvDispls" : "sendDispls";
  for (size_t r = 1; r < n; ++r) {
    const char* differs = all[r].counts_hash != all[0].counts_hash   ? counts
                          : all[r].displs_hash != all[0].displs_hash ? displs
                                                                     : nullptr;
    if (differs != nullptr) return fmt::format("{}rank 0 and rank {} pass different {}", kInconsistent, r, differs);
  }
  for (size_t r = 1; r < n; ++r) {
    std::string d = Disagreement(AsArgs(all[0], mine), AsArgs(all[r], mine), static_cast<uint32_t>(r));
    if (!d.empty()) return kInconsistent + d;
  }
  return "";
}

std::string FindAlltoAllVMismatch(const OpArgs& mine, uint32_t size, const std::vector<uint64_t>& counts) {
  const size_t es = DataTypeSize(mine.dtype), er = DataTypeSize(mine.recv_dtype);
  const size_t row = 2 * size_t{size};
  for (size_t i = 0; i < size; ++i) {
    for (size_t j = 0; j < size; ++j) {
      const uint64_t sent = counts[i * row + j] * es, expected = counts[j * row + size + i] * er;
      if (sent != expected) {
        return fmt::format("{}rank {} sends {} bytes to rank {}, which expects {} bytes from it", kInconsistent, i,
                           sent, j, expected);
      }
    }
  }
  return "";
}

}  // namespace npurt::hccl
