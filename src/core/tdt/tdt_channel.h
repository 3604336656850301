// TDT channels (core): acltdtChannelHandle. A channel is a FIFO of dataset copies named by (device,
// name); every handle created with the same device and name is one end of the same FIFO, so the
// threads of one process can send on one handle and receive on another. The FIFO goes when its last
// handle is destroyed.
//
// Blocking: a send to a full channel and a receive from an empty one wait on a condition variable until
// there is room or data, the channel is stopped, or the timeout (ms; -1 none, 0 no wait) passes.
// Thread safety: every method may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"
#include "core/tdt/tdt_dataset.h"

namespace npurt::core {

class TdtChannel final : public HandleObject {
 public:
  // The capacity of a channel created without one: no limit but memory.
  static constexpr size_t kUnlimited = SIZE_MAX;
  static constexpr size_t kMaxNameLength = 127;

  static StatusOr<TdtChannel*> Create(uint32_t device, const char* name, size_t capacity);
  static TdtChannel* Lookup(const void* handle) { return LookupHandle<TdtChannel>(handle, handle_tags::kTdtChannel); }

  Status Send(TdtMessage&& message, int32_t timeout_ms) const;
  StatusOr<TdtMessage> Receive(int32_t timeout_ms) const;
  size_t Size() const;
  void Clean() const;
  void Stop() const;
  void Destroy();

  // The shared FIFO (defined in tdt_channel.cc).
  struct Fifo;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  explicit TdtChannel(std::shared_ptr<Fifo> fifo);
  ~TdtChannel() override;

  std::shared_ptr<Fifo> fifo_;
};

}  // namespace npurt::core
