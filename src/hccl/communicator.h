// Communicator: one rank's membership of a group of ranks (HcclComm). It knows its rank, the group's size,
// the device it is bound to (the calling thread's device when it was created) and its name, and owns the
// rank's communication engine. Handles are validated (base/handle.h): a destroyed, foreign or null
// HcclComm is refused, never dereferenced.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "base/handle.h"
#include "base/status.h"
#include "hccl/comm_engine.h"
#include "hccl/comm_options.h"

namespace npurt::hccl {

class Communicator final : public HandleObject {
 public:
  // Creates the communicator and registers its name (HCCL_E_PARA if another live communicator of this
  // process has it). Ownership of `transport` passes to the communicator's engine.
  static StatusOr<Communicator*> Create(uint32_t rank, uint32_t size, int32_t device, const CommOptions& options,
                                       std::unique_ptr<Transport> transport, const std::string& name);

  uint32_t rank() const { return rank_; }
  uint32_t size() const { return size_; }
  int32_t device() const { return device_; }
  const std::string& name() const { return name_; }
  const CommOptions& options() const { return options_; }
  CommEngine& engine() { return *engine_; }

  // The next operation's sequence number (1, 2, ...), for messages.
  uint64_t NextSeq() { return ++seq_; }
  // Operations issued and not yet finished on their streams (queued or running).
  void OpIssued() { in_flight_.fetch_add(1, std::memory_order_acq_rel); }
  void OpRetired() { in_flight_.fetch_sub(1, std::memory_order_acq_rel); }
  uint64_t in_flight() const { return in_flight_.load(std::memory_order_acquire); }

  // HcclCommDestroy: HCCL_E_AGAIN while operations are in flight (synchronize their streams first);
  // otherwise unregisters the name, invalidates the handle and drops the user's reference (the engine stops
  // with the last one).
  Status Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  Communicator(uint32_t rank, uint32_t size, int32_t device, const CommOptions& options, std::string name);
  ~Communicator() override;

  const uint32_t rank_;
  const uint32_t size_;
  const int32_t device_;
  const CommOptions options_;
  const std::string name_;
  std::unique_ptr<CommEngine> engine_;
  std::atomic<uint64_t> seq_{0};
  std::atomic<uint64_t> in_flight_{0};
};

// The live communicator behind `handle`, or HCCL_E_PTR (null) / HCCL_E_PARA (not a live communicator).
StatusOr<Communicator*> LookupComm(const void* handle);
// HcclCommGetHandleWithName.
StatusOr<Communicator*> FindCommByName(const std::string& name);

}  // namespace npurt::hccl
