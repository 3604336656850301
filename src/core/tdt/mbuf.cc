#include "core/tdt/mbuf.h"

#include <cstring>
#include <mutex>
#include <new>

#include "acl/acl.h"
#include "core/handle_tags.h"

namespace npurt::core {

namespace {
// One lock for every buffer: chains link buffers to each other, and a per-buffer lock would need an
// order between head and member. The critical sections copy at most kUserDataSize bytes.
std::mutex& BufMutex() {
  static std::mutex mu;
  return mu;
}

Status CheckUserRange(size_t size, size_t offset) {
  if (size > Mbuf::kUserDataSize || offset > Mbuf::kUserDataSize - size) {
    return Err(ACL_ERROR_INVALID_PARAM, "size {} + offset {} exceeds the {}-byte user-data area", size, offset,
               Mbuf::kUserDataSize);
  }
  return Status::Ok();
}
}  // namespace

Mbuf::Mbuf(std::shared_ptr<Storage> storage) : HandleObject(handle_tags::kMbuf), storage_(std::move(storage)) {}

StatusOr<Mbuf*> Mbuf::Create(size_t size) {
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "buffer size is 0");
  if (size > kMaxSize) return Err(ACL_ERROR_INVALID_PARAM, "buffer size {} exceeds the limit {}", size, kMaxSize);
  auto storage = std::make_shared<Storage>();
  storage->bytes.reset(new (std::nothrow) uint8_t[size]);
  if (storage->bytes == nullptr) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate a {}-byte buffer", size);
  storage->size = size;
  Mbuf* buf = NewHandle<Mbuf>(std::move(storage));
  if (buf == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for buffers");
  return buf;
}

StatusOr<Mbuf*> Mbuf::Resolve(const void* handle, const char* what) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  Mbuf* buf = LookupHandle<Mbuf>(handle, handle_tags::kMbuf);
  if (buf == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not a live buffer", what, handle);
  return buf;
}

size_t Mbuf::data_len() const {
  std::lock_guard<std::mutex> lock(BufMutex());
  return data_len_;
}

Status Mbuf::SetDataLen(size_t len) {
  if (len > capacity()) return Err(ACL_ERROR_INVALID_PARAM, "length {} exceeds the buffer size {}", len, capacity());
  std::lock_guard<std::mutex> lock(BufMutex());
  data_len_ = len;
  return Status::Ok();
}

Status Mbuf::GetUserData(void* dst, size_t size, size_t offset) const {
  if (Status s = CheckUserRange(size, offset); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(BufMutex());
  if (size != 0) std::memcpy(dst, user_data_ + offset, size);
  return Status::Ok();
}

Status Mbuf::SetUserData(const void* src, size_t size, size_t offset) {
  if (Status s = CheckUserRange(size, offset); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(BufMutex());
  if (size != 0) std::memcpy(user_data_ + offset, src, size);
  return Status::Ok();
}

StatusOr<Mbuf*> Mbuf::CopyRef() const {
  Mbuf* copy = NewHandle<Mbuf>(storage_);
  if (copy == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for buffers");
  std::lock_guard<std::mutex> lock(BufMutex());
  copy->data_len_ = data_len_;
  std::memcpy(copy->user_data_, user_data_, kUserDataSize);
  return copy;
}

Status Mbuf::Append(Mbuf* buf) {
  std::lock_guard<std::mutex> lock(BufMutex());
  if (buf == this) return Err(ACL_ERROR_INVALID_PARAM, "a buffer cannot be appended to its own chain");
  if (head_ != nullptr) return Err(ACL_ERROR_INVALID_PARAM, "headBuf is a member of another chain, not a head");
  if (buf->head_ != nullptr) return Err(ACL_ERROR_INVALID_PARAM, "buf already belongs to a chain");
  if (!buf->chain_.empty()) return Err(ACL_ERROR_INVALID_PARAM, "buf heads a chain of its own");
  if (queued_ || buf->queued_) return Err(ACL_ERROR_INVALID_PARAM, "a buffer held by a queue cannot be chained");
  if (chain_.size() + 1 >= UINT32_MAX) return Err(ACL_ERROR_RT_OVER_LIMIT, "the chain is full");
  buf->head_ = this;
  chain_.push_back(buf);
  return Status::Ok();
}

uint32_t Mbuf::ChainNum() const {
  std::lock_guard<std::mutex> lock(BufMutex());
  return static_cast<uint32_t>(chain_.size() + 1);
}

StatusOr<Mbuf*> Mbuf::ChainAt(uint32_t index) const {
  std::lock_guard<std::mutex> lock(BufMutex());
  if (index > chain_.size()) {
    return Err(ACL_ERROR_INVALID_PARAM, "index {} is out of the chain's {} buffers", index, chain_.size() + 1);
  }
  return index == 0 ? const_cast<Mbuf*>(this) : chain_[index - 1];
}

Status Mbuf::TakeForQueue() {
  std::lock_guard<std::mutex> lock(BufMutex());
  if (queued_) return Err(ACL_ERROR_INVALID_PARAM, "the buffer is already held by a queue");
  if (head_ != nullptr) return Err(ACL_ERROR_INVALID_PARAM, "the buffer is a chain member; enqueue its head");
  queued_ = true;
  return Status::Ok();
}

void Mbuf::ReturnFromQueue() {
  std::lock_guard<std::mutex> lock(BufMutex());
  queued_ = false;
}

Status Mbuf::Free() {
  std::lock_guard<std::mutex> lock(BufMutex());
  if (queued_) return Err(ACL_ERROR_INVALID_PARAM, "the buffer is held by a queue; dequeue it first");
  if (head_ != nullptr) return Err(ACL_ERROR_INVALID_PARAM, "the buffer belongs to a chain; free the chain's head");
  DiscardLocked();
  return Status::Ok();
}

void Mbuf::Discard() {
  std::lock_guard<std::mutex> lock(BufMutex());
  DiscardLocked();
}

void Mbuf::DiscardLocked() {
  std::vector<Mbuf*> members = std::move(chain_);
  chain_.clear();
  for (Mbuf* m : members) {
    m->head_ = nullptr;
    if (m->Invalidate()) m->Release();
  }
  if (Invalidate()) Release();
}

}  // namespace npurt::core
