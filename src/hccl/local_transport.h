// The transport of communicators whose ranks all live in this process (simulated devices, whose memory the
// host addresses): each rank's engine thread reads its peers' buffers directly, so a collective moves every
// byte once, with no staging and no network. The ranks share one LocalGroup; each has its LocalTransport.
//
// A collective is three steps for every rank: publish its arguments and meet the others (a barrier), do
// its share of the work reading the peers' buffers (the reduction of its own chunk, the copies into its
// own receive buffer), and meet again before it returns, so that no rank reuses its buffers while a peer
// may still read them. AllReduce adds a barrier between its reduce-scatter and all-gather halves. The
// ranks check at the first meeting that they agree on the operation; a disagreement fails every rank with
// the same message, and a rank that does not arrive before the deadline breaks the group (every later
// operation fails at once) with a message naming it.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/futex.h"
#include "base/status.h"
#include "hccl/collective_steps.h"
#include "hccl/transport.h"

namespace npurt::hccl {

class LocalGroup {
 public:
  explicit LocalGroup(uint32_t size);
  uint32_t size() const { return size_; }

  // --- Collectives.
  // Barrier number `generation` (1, 2, ... per rank; every rank passes the same sequence): returns once
  // every rank arrived at it, or fails at the deadline (breaking the group) or when the group is broken.
  Status Meet(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what);
  // Meet, each rank saying whether its part failed; `any_failed`: whether some rank's did.
  Status MeetAndTell(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what, bool failed,
                     bool* any_failed);
  // A rank's collective number `index` (0, 1, ... per rank) as the others read it: a copy the group owns,
  // one of two per rank by the parity of `index`. Collective index + 2 cannot be published before every
  // rank passed the arrival of index + 1, and so finished reading index: so a rank may return from a
  // collective before its peers are done reading it (a small AllReduce, whose input is copied here too,
  // needs no final meeting) and may even destroy its communicator.
  void Publish(uint32_t rank, uint64_t index, const OpArgs& op);
  const OpArgs& Peer(uint32_t rank, uint64_t index) const { return posted_[rank * 2 + (index & 1)].args; }
  // Whether every rank copied its input with collective `index` (a small AllReduce).
  bool InputsStaged(uint64_t index) const;

  // --- Point to point: one FIFO per (sender, receiver).
  struct Message {
    const P2pItem* item = nullptr;         // the sender's (alive until `done`)
    std::atomic<int32_t> result{-1};       // -1 until the receiver consumed it; then 0 or an HcclResult
    std::string error;                     // set before `result` when it is not 0
  };
  void Post(uint32_t from, uint32_t to, Message* message);
  // The oldest message from `from` to `to`, waiting for it until the deadline.
  StatusOr<Message*> Take(uint32_t from, uint32_t to, uint64_t deadline_ns);
  // Marks `message` consumed with `code` (wakes its sender).
  void Finish(Message* message, int32_t code, std::string error);
  // Waits until `message` was consumed; its result.
  Status AwaitConsumed(uint32_t from, uint32_t to, Message* message, uint64_t deadline_ns);

  // Breaks the group: every wait in progress and every later operation fails with `reason` (the first
  // reason wins).
  void Break(const std::string& reason);
  Status BrokenStatus() const;
  bool broken() const { return broken_.load(std::memory_order_acquire); }

 private:
  bool WaitFor(auto&& ready, uint64_t deadline_ns);

  const uint32_t size_;
  struct Posted {
    OpArgs args;
    std::vector<uint8_t> input;  // a small AllReduce's input (args.send points here)
    bool staged = false;
  };
  std::vector<Posted> posted_;  // rank * 2 + parity
  std::vector<std::atomic<uint64_t>> passed_;  // per rank: the last barrier it arrived at
  std::vector<std::atomic<uint64_t>> failed_;  // per rank: the last barrier at which it said it failed
  WaitSignal signal_;
  std::atomic<bool> broken_{false};
  mutable std::mutex mu_;
  std::string broken_reason_;
  std::map<std::pair<uint32_t, uint32_t>, std::deque<Message*>> channels_;  // guarded by mu_
};

class LocalTransport final : public Transport, private CollectiveRanks {
 public:
  LocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank);
  Status Run(const OpArgs& op, uint64_t deadline_ns) override;
  Status RunStaged(const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage) override;
  void Abort(const std::string& reason) override { group_->Break(reason); }
  const char* name() const override { return "local"; }
  const void* group_identity() const override { return group_.get(); }

 private:
  Status RunCollective(const OpArgs& op, uint64_t deadline_ns, const ChunkStage* stage = nullptr);
  Status RunPointToPoint(const OpArgs& op, uint64_t deadline_ns);
  Status Meet(uint64_t deadline_ns, const char* what);
  // CollectiveRanks (collective_steps.h).
  uint32_t group_size() const override { return group_->size(); }
  uint32_t my_rank() const override { return rank_; }
  const OpArgs& PeerArgs(uint32_t r) const override { return group_->Peer(r, collectives_); }
  bool InputsStaged() const override { return group_->InputsStaged(collectives_); }
  Status MeetAll(uint64_t deadline_ns, const char* what) override { return Meet(deadline_ns, what); }
  Status MeetAndTell(uint64_t deadline_ns, const char* what, bool failed, bool* any_failed) override {
    return group_->MeetAndTell(rank_, ++generation_, deadline_ns, what, failed, any_failed);
  }

  std::shared_ptr<LocalGroup> group_;
  const uint32_t rank_;
  uint64_t generation_ = 0;
  uint64_t collectives_ = 0;  // the number of the collective in progress (its index in Publish)
};

}  // namespace npurt::hccl
