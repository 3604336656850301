// Mbuf (core): a message buffer (aclrtMbuf / acltdtBuf). It has a data area shared by reference
// (aclrtCopyBufRef makes a second buffer over the same bytes), a valid-data length, a fixed 96-byte
// user-data area of its own, and may head a chain of other buffers.
//
// Ownership: the user holds one handle per buffer. Appending a buffer to a chain hands its handle to
// the chain's head (freeing the head frees the chain); enqueueing hands it to the queue until a dequeue
// hands it back. The data bytes live until the last buffer sharing them is gone.
// Thread safety: every method may be called from any thread (one process-wide mutex guards the mutable
// fields; buffers are small control blocks and these calls are short).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/handle.h"
#include "base/status.h"

namespace npurt::core {

class Mbuf final : public HandleObject {
 public:
  // Bytes of the user-data area (the size CANN's driver reserves for a buffer's private information).
  static constexpr size_t kUserDataSize = 96;
  // Largest data area one buffer may have (a guard against sizes that are negative numbers cast).
  static constexpr size_t kMaxSize = size_t{1} << 40;

  static StatusOr<Mbuf*> Create(size_t size);
  // Validates an opaque handle; `what` names it in the error message.
  static StatusOr<Mbuf*> Resolve(const void* handle, const char* what);

  void* data() const { return storage_->bytes.get(); }
  size_t capacity() const { return storage_->size; }
  size_t data_len() const;
  Status SetDataLen(size_t len);
  Status GetUserData(void* dst, size_t size, size_t offset) const;
  Status SetUserData(const void* src, size_t size, size_t offset);

  // A new buffer over the same data, with a copy of this one's length and user data.
  StatusOr<Mbuf*> CopyRef() const;

  // Chains: index 0 is the head itself.
  Status Append(Mbuf* buf);
  uint32_t ChainNum() const;
  StatusOr<Mbuf*> ChainAt(uint32_t index) const;

  // Queues take and return the user's handle: a buffer held by a queue can neither be freed nor be
  // enqueued again.
  Status TakeForQueue();
  void ReturnFromQueue();

  // aclrtFreeBuf: ends the handle of this buffer and of every buffer chained to it.
  Status Free();
  // Frees a buffer the runtime itself holds (a queue being destroyed): no ownership checks.
  void Discard();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  struct Storage {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size = 0;
  };
  explicit Mbuf(std::shared_ptr<Storage> storage);
  ~Mbuf() override = default;
  void DiscardLocked();

  std::shared_ptr<Storage> storage_;
  size_t data_len_ = 0;
  uint8_t user_data_[kUserDataSize] = {};
  std::vector<Mbuf*> chain_;  // members after the head; the head owns their handles
  Mbuf* head_ = nullptr;      // set while this buffer is a member of another's chain
  bool queued_ = false;
};

}  // namespace npurt::core
