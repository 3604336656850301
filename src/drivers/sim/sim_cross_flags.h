// CrossFlags: CrossCoreSetFlag / CrossCoreWaitFlag between the participants of a co-operative launch
// (npurt_kernel_services.cross_set / cross_wait).
//
// A mixed kernel's block has `aiv` vector participants (sub-blocks) and, with a cube part, one cube
// participant; every participant of the launch runs at once (AiCorePool::StartCooperative). Each
// participant has one counter per flag (0..15). A set is counted for its setter; once every setter of the
// mode's scope has an unmatched set of the flag, one set of each is matched and the counters of the
// scope's receivers go up by one:
//   mode 0: setters and receivers are all vector participants of the launch;
//   mode 1: the vector participants of the block;
//   mode 2: from the vector side, setters are the block's vector participants and the receiver its cube
//           participant; from the cube side the block's vector participants receive at once.
// A wait takes one from the waiter's counter, sleeping (on an epoch word) until it is non-zero; it gives
// up when the launch failed. The sets are counted under a lock, with the timeout signal blocked so that an
// interrupted block never leaves it held.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace npurt::drivers::sim {

class CrossFlags {
 public:
  static constexpr uint32_t kFlags = 16;
  static constexpr uint32_t kModes = 3;

  // Before the launch's participants start: `blocks` blocks of `aiv` vector participants and, with `aic`, a
  // cube participant (the last lane of each block); 0 and false: a plain kernel (one vector participant).
  void Reset(uint32_t blocks, uint32_t aiv, bool aic, const std::atomic<int32_t>* failed);
  // Participant `unit` (block * lanes + lane) sets / waits for `flag`. Misuse (a mode the participant
  // cannot use, a flag out of range) fails the block through FailRunningBlock.
  void Set(uint32_t unit, uint32_t mode, uint32_t flag);
  void Wait(uint32_t unit, uint32_t flag);

 private:
  bool IsCube(uint32_t unit) const { return aic_ && unit % lanes_ == aiv_; }
  // The setters and the receivers of a set by `unit` in `mode` (an empty setter list: deliver at once).
  void Scope(uint32_t unit, uint32_t mode, std::vector<uint32_t>* setters, std::vector<uint32_t>* receivers) const;

  uint32_t blocks_ = 0, aiv_ = 1, lanes_ = 1;
  bool aic_ = false;
  const std::atomic<int32_t>* failed_ = nullptr;
  std::unique_ptr<std::atomic<uint32_t>[]> counters_;  // participant * kFlags + flag
  std::vector<uint16_t> pending_;                      // (participant * kModes + mode) * kFlags + flag (mu_)
  std::mutex mu_;
  std::atomic<uint32_t> epoch_{0};
};

// The kernel services (kernel_abi.h).
void ServiceCrossSet(uint32_t mode, uint32_t flag);
void ServiceCrossWait(uint32_t mode, uint32_t flag);

}  // namespace npurt::drivers::sim
