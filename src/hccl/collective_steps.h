// The steps of every collective once its ranks have published their arguments, shared by the transports
// whose ranks reach each other's buffers directly: LocalTransport (one process) and IpcTransport (processes
// of one machine, through views of each other's device memory).
//
// Every rank checks every peer's arguments against rank 0's (so all reach the same verdict), does its
// share of the work reading its peers' buffers (AllReduce: rank r reduces chunk r of every send buffer,
// then gathers the others' chunks; Broadcast, AllGather, AlltoAll: copies into its own receive buffer),
// and meets the others again before it returns, so that no rank reuses its buffers while a peer may still
// read them. AllReduce adds a meeting between its two halves (or, small and in place, before the result
// overwrites its input).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/status.h"
#include "hccl/op_args.h"

namespace npurt::hccl {

// The ranks of a collective as the steps see them.
class CollectiveRanks {
 public:
  virtual ~CollectiveRanks() = default;
  virtual uint32_t group_size() const = 0;
  virtual uint32_t my_rank() const = 0;
  // Rank r's arguments, its buffers addressable by this rank (valid from the arrival on).
  virtual const OpArgs& PeerArgs(uint32_t r) const = 0;
  // A meeting of every rank: returns once all arrived, or fails (timeout, broken group) with a message.
  virtual Status MeetAll(uint64_t deadline_ns, const char* what) = 0;
  // A meeting at which each rank also says whether its part failed; `any_failed` tells whether some did
  // (every rank learns the same).
  virtual Status MeetAndTell(uint64_t deadline_ns, const char* what, bool failed, bool* any_failed) = 0;
  // Whether every rank's input of the current collective (a small AllReduce) is a copy that outlives the
  // rank's return: then the result needs no final meeting.
  virtual bool InputsStaged() const { return false; }
};

// Up to this size an AllReduce is one reduction of the whole buffer per rank (and a transport may stage its
// input, InputsStaged); above it a reduce-scatter and an all-gather.
inline constexpr uint64_t kWholeReduceBytes = 16u << 10;

// A stage run between the two halves of a staged AllReduce or Broadcast, on this rank's chunk (`count`
// elements at `chunk`, possibly none): the allreduce (broadcast) of that chunk with the ranks of the other
// machines that hold the same chunk (hierarchical_transport.h).
using ChunkStage = std::function<Status(void* chunk, uint64_t count)>;

// A staged Broadcast's root on a machine that does not hold it: the chunks come from the stage alone.
inline constexpr uint32_t kNoLocalRoot = UINT32_MAX;

// Runs `op` after the arrival meeting. `disagreement`: a verdict the transport already reached (every rank
// the same), or "" to check the arguments here; either way the ranks meet at the end, and a disagreement
// fails every rank with HCCL_E_PARA and the message.
// With `stage` (AllReduce and Broadcast only), the operation runs in chunks, one per rank, with the stage
// between its halves: AllReduce reduce-scatters, Broadcast copies each rank's chunk from the root (op.root:
// the root's rank here, or kNoLocalRoot); after the stage every rank gathers the others' chunks. When the
// stage fails on any rank, every rank fails (the failing ones with the stage's error).
Status RunCollectiveSteps(CollectiveRanks& ranks, const OpArgs& op, std::string disagreement, uint64_t deadline_ns,
                          const ChunkStage* stage = nullptr);

// Why a group broke when `missing` (a list of ranks) did not reach the meeting `what` in time.
std::string MissedMeetingReason(const char* what, const std::string& missing);

// The first field in which rank `peer`'s collective differs from rank 0's, as a message, or "" if they
// agree (every rank computes the same verdict from the same published arguments).
std::string Disagreement(const OpArgs& mine0, const OpArgs& peer, uint32_t peer_rank);

}  // namespace npurt::hccl
