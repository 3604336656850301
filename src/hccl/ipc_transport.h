// The transport of communicators whose ranks are processes of one machine (some may share a process):
// shared device memory, as HCCL moves data between the NPUs of one server. Each rank publishes, in the
// communicator's shared control block (ipc_group.h), its arguments and the physical page runs of its
// buffers; each peer maps those runs into its own device's address window once (views cached by their
// runs, core/memory/mem_peer_view.h) and the collective runs exactly as in one process
// (collective_steps.h): every rank does its share reading its peers' buffers in place, so every byte moves
// once, with no staging, no network and no copy through the host.
//
// Point to point: a sender posts its sends (with their buffers' runs) in its slot; each receiver takes the
// sends addressed to it in order, copies from the sender's buffer, and marks them done. A dead peer, a
// timeout and a destroyed communicator break the group, and every rank's wait sees it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "core/memory/mem_peer_view.h"
#include "hccl/collective_steps.h"
#include "hccl/ipc_group.h"
#include "hccl/transport.h"

namespace npurt::core {
class Device;
}

namespace npurt::hccl {

class StoreClient;

class IpcTransport final : public Transport, private CollectiveRanks {
 public:
  // Joins the group of the job's ranks through `store` (keys under `prefix`): rank 0 creates the control
  // block and publishes where it is, the others open it; every rank then registers its process and its
  // device's memory, and they wait for each other (until `deadline_ns`).
  static StatusOr<std::unique_ptr<IpcTransport>> Create(uint32_t rank, uint32_t size, int32_t device, StoreClient* store,
                                                        const std::string& prefix, uint64_t deadline_ns);
  Status Run(const OpArgs& op, uint64_t deadline_ns) override;
  Status RunStaged(const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage) override;
  void Abort(const std::string& reason) override { group_->Break(reason); }
  const char* name() const override { return "ipc"; }

 private:
  IpcTransport(std::shared_ptr<IpcGroup> group, uint32_t rank, core::Device* device);
  Status RunCollective(const OpArgs& op, uint64_t deadline_ns, const ChunkStage* stage = nullptr);
  Status RunPointToPoint(const OpArgs& op, uint64_t deadline_ns);
  // Publishes this rank's collective: its arguments and its buffers' runs (or why they cannot be shared).
  void Publish(const OpArgs& op);
  // Rank r's published collective, its buffers reachable here; a message when it cannot be read.
  std::string Adopt(uint32_t r);
  // Describes [ptr, ptr + bytes) of this rank's device into `table` (pairs) from run `first`.
  Status Describe(const void* ptr, uint64_t bytes, uint64_t* table, uint32_t first, uint32_t capacity, IpcBuffer* out);
  // Where rank r's buffer is, for this process.
  StatusOr<uint8_t*> Reach(uint32_t r, const IpcBuffer& buffer, const uint64_t* table, uint32_t table_runs);

  // CollectiveRanks (collective_steps.h).
  uint32_t group_size() const override { return group_->size(); }
  uint32_t my_rank() const override { return rank_; }
  const OpArgs& PeerArgs(uint32_t r) const override { return r == rank_ ? *current_ : peers_[r]; }
  Status MeetAll(uint64_t deadline_ns, const char* what) override {
    return group_->Meet(rank_, ++generation_, deadline_ns, what);
  }
  Status MeetAndTell(uint64_t deadline_ns, const char* what, bool failed, bool* any_failed) override {
    return group_->MeetAndTell(rank_, ++generation_, deadline_ns, what, failed, any_failed);
  }

  std::shared_ptr<IpcGroup> group_;  // shared by the job's ranks in this process
  const uint32_t rank_;
  core::Device* const device_;
  const int32_t pid_;
  uint64_t generation_ = 0;
  uint64_t use_ = 0;  // operations run: views used by the current one are not evicted
  const OpArgs* current_ = nullptr;
  std::vector<OpArgs> peers_;
  std::vector<std::unique_ptr<core::PeerMemoryViews>> views_;  // by rank, opened at first use
};

}  // namespace npurt::hccl
