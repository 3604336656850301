// The shared control block of a communicator whose ranks are processes of one machine (IpcTransport,
// ipc_transport.h): one memfd that every rank maps, created by rank 0 and opened by the others through
// /proc/<pid>/fd (as the simulator shares device memory). It holds, per rank: the meeting it reached last,
// its process (pid and start time, so a dead or recycled peer is seen), its device memory's share token,
// the arguments of its current collective and the page runs of the buffers they name, and the sends it
// has posted. The data never goes through it: the ranks read each other's device buffers through views
// (core/memory/mem_peer_view.h).
//
// Waiting is a spin, then a process-shared futex on one epoch word that every change bumps, re-checking
// the peers' liveness every few tens of milliseconds; every wait has a deadline. Breaking the group (a
// timeout, a dead peer, a destroyed communicator) is seen by every rank's next or current wait.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"

namespace npurt::hccl {

// Capacities, fixed so that every rank computes the same layout.
inline constexpr uint32_t kIpcMaxRuns = 8192;     // page runs of one collective buffer (16 GiB in 2 MiB pages)
inline constexpr uint32_t kIpcMaxSends = 1024;    // sends of one HcclBatchSendRecv
inline constexpr uint32_t kIpcSendRuns = 16384;   // page runs of all of them
inline constexpr uint32_t kIpcReasonBytes = 1024;

// How a peer reaches one buffer of a rank.
struct IpcBuffer {
  uint64_t address;    // in the owner's process (a peer in the same process uses it as it is)
  uint64_t bytes;      // 0: no buffer
  uint64_t inner;      // its offset in the first page
  uint32_t first_run;  // into the owner's run table
  uint32_t run_count;
};

// One posted send. `state` goes posted -> taken (by the receiver) -> done, mismatched or unreachable; or
// posted -> withdrawn (the sender timed out first).
struct IpcSend {
  // kUnreachable: the receiver could not read the send buffer; kInvalid (set by the sender instead of
  // kPosted): the sender could not describe it.
  enum State : uint32_t { kFree, kPosted, kTaken, kDone, kMismatched, kUnreachable, kWithdrawn, kInvalid };
  std::atomic<uint32_t> state;
  std::atomic<uint32_t> to;
  int32_t dtype;
  int32_t recv_dtype;   // set by a receiver that found the sizes different, for the sender's message
  uint64_t count;
  uint64_t recv_count;
  IpcBuffer buf;
};

struct alignas(64) IpcRankSlot {
  std::atomic<uint64_t> arrived;  // the last meeting it reached
  std::atomic<uint64_t> failed_at;  // the last meeting at which it said its part failed
  int32_t pid;
  uint64_t start_time;
  uint64_t memory_bytes;          // its device memory
  uint8_t token[64];              // its device memory's share token (core::PeerToken)
  // The current collective: its arguments (args_bytes of the args area), and its buffers.
  uint32_t args_bytes;
  uint32_t invalid;               // 1: its buffers cannot be shared; `reason` says why
  IpcBuffer send, recv;
  char reason[512];
  // Point to point: the sends of its current batch.
  std::atomic<uint32_t> send_count;
};

class IpcGroup {
 public:
  // Rank 0 creates the block for `size` ranks; returns it and what the others pass to Open.
  static StatusOr<std::unique_ptr<IpcGroup>> Create(uint32_t size, std::string* locator);
  static StatusOr<std::unique_ptr<IpcGroup>> Open(uint32_t size, const std::string& locator);
  ~IpcGroup();
  IpcGroup(const IpcGroup&) = delete;
  IpcGroup& operator=(const IpcGroup&) = delete;

  uint32_t size() const { return size_; }
  IpcRankSlot& slot(uint32_t rank) const { return *slots_[rank]; }
  // The rank's areas: its collective arguments, its collective buffers' runs (2 x kIpcMaxRuns), its sends
  // and their runs.
  uint8_t* args(uint32_t rank) const;
  size_t args_capacity() const { return args_capacity_; }
  uint64_t* runs(uint32_t rank) const;       // (offset, bytes) pairs
  IpcSend* sends(uint32_t rank) const;
  uint64_t* send_runs(uint32_t rank) const;  // (offset, bytes) pairs

  // Registers this process as `rank`'s (liveness is checked against it).
  void Claim(uint32_t rank);
  // Rank 0, once every rank opened the block: closes the descriptor the others opened it through.
  void ForgetLocator();

  // Meeting number `generation` (1, 2, ... per rank): returns once every rank reached it, or fails at the
  // deadline (breaking the group, naming the missing ranks) or when the group broke.
  Status Meet(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what);
  // Meet, each rank saying whether its part failed; `any_failed`: whether some rank's did.
  Status MeetAndTell(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what, bool failed,
                     bool* any_failed);
  // Waits until `ready()` (true), the deadline (false), or a break (false; BrokenStatus says why). A peer
  // that `waits_on(rank)` says the wait needs and whose process is gone breaks the group (a peer that
  // finished its part and exited is no fault). `ready` is not called again once it returned true.
  template <typename Ready, typename WaitsOn>
  bool WaitFor(Ready&& ready, uint64_t deadline_ns, WaitsOn&& waits_on);
  // Something in the block changed: wakes the waiters of every process.
  void Notify();

  void Break(const std::string& reason);
  bool broken() const;
  Status BrokenStatus() const;

 private:
  IpcGroup(uint32_t size, uint8_t* base, size_t bytes);
  static size_t Layout(uint32_t size, size_t* args_capacity, size_t* rank_stride);
  uint32_t Epoch() const;
  // Sleeps while the epoch is `seen`, until a change, the deadline, or the next liveness check.
  void SleepOnce(uint32_t seen, uint64_t deadline_ns);
  // Breaks the group if the process of a peer that `waits_on` names is gone; true if it did.
  bool CheckPeers(const std::function<bool(uint32_t)>& waits_on);

  struct Header;
  const uint32_t size_;
  uint8_t* const base_;
  const size_t bytes_;
  Header* header_;
  std::unique_ptr<IpcRankSlot*[]> slots_;
  size_t args_capacity_ = 0;
  size_t rank_stride_ = 0;
  std::atomic<uint64_t> next_liveness_check_ns_{0};  // the ranks of this process share the object
  int fd_ = -1;  // rank 0's, until ForgetLocator
};

}  // namespace npurt::hccl

// ---- The wait, a template (its condition is the caller's).
#include "base/clock.h"
#include "base/futex.h"

namespace npurt::hccl {

// Spinning answers a peer whose engine is running within microseconds; past this the waiter sleeps.
inline constexpr uint64_t kIpcSpinNs = 20'000;

template <typename Ready, typename WaitsOn>
bool IpcGroup::WaitFor(Ready&& ready, uint64_t deadline_ns, WaitsOn&& waits_on) {
  // `ready` may act when it succeeds (take a posted send): call it until it does, never again after.
  if (ready()) return true;
  bool got = false;
  const uint64_t spin_end = NowNs() + kIpcSpinNs;
  SpinUntil([&] { return (got = ready()) || broken(); }, [&](uint64_t now) { return now < spin_end && now < deadline_ns; });
  if (got) return true;
  for (;;) {
    const uint32_t seen = Epoch();
    if (ready()) return true;
    if (broken() || CheckPeers(waits_on)) return false;
    if (NowNs() >= deadline_ns) return false;
    SleepOnce(seen, deadline_ns);
  }
}

}  // namespace npurt::hccl
