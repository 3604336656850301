// OpHeader: what every rank of a collective tells the others before any payload moves, so that they all
// fail together, with one message, when their arguments disagree — instead of mixing up data, hanging, or
// (over Gloo) aborting the process when a peer sends more bytes than the receiver posted.
//
// The header is fixed-size, so exchanging it cannot itself go wrong that way. Fields that do not apply to
// an operation are zero, and the V variants' arrays travel as hashes. The messages are LocalTransport's
// (collective_steps.h Disagreement), so both transports report a disagreement alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hccl/op_args.h"

namespace npurt::hccl {

// Host byte order on the wire: the ranks of one job run on one architecture.
struct OpHeader {
  uint32_t magic;
  uint32_t kind;          // OpKind
  uint64_t index;         // the transport's count of collectives before this one (equal on every rank)
  uint64_t count;
  uint64_t recv_count;
  int32_t dtype;
  int32_t recv_dtype;
  int32_t op;
  uint32_t root;
  uint64_t counts_hash;   // the counts every rank must pass alike (AllGatherV, ReduceScatterV, AlltoAllVC)
  uint64_t displs_hash;   // and the displacements (AllGatherV, ReduceScatterV)
  uint32_t invalid;       // 1: this rank cannot run its own arguments (its own error says why)
  uint32_t reserved;
};
static_assert(sizeof(OpHeader) == 72);

// This rank's header for collective `op`. `invalid_reason` is set, and the header marked, when the
// arguments cannot be run at all: a type without a size, a reduction the type lacks, a root or array
// length out of range, sizes that overflow, a null buffer that must carry data. (The API layer refuses
// these first; this keeps a bad call from reaching the network.)
OpHeader MakeOpHeader(const OpArgs& op, uint32_t rank, uint32_t size, uint64_t index, std::string* invalid_reason);

// The first disagreement among the ranks' headers (all[r] from rank r) as the complete error message, or
// "" when they agree. Every rank reaches the same verdict from the same headers, except that a rank whose
// own arguments are invalid reports its own `invalid_reason`.
std::string FindDisagreement(const OpArgs& mine, uint32_t rank, const std::vector<OpHeader>& all,
                             const std::string& invalid_reason);

// AlltoAllV, once the headers agree: counts[r * 2 * size ..] holds rank r's send_counts then its
// recv_counts. The first pair of ranks whose sizes do not match, as the complete message, or "".
std::string FindAlltoAllVMismatch(const OpArgs& mine, uint32_t size, const std::vector<uint64_t>& counts);

}  // namespace npurt::hccl
