#include "core/memory/mem_pool.h"

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/handle_tags.h"
#include "core/stream.h"

namespace npurt::core {

StatusOr<MemPool*> MemPool::Create(Device* device, uint64_t max_size) {
  const uint64_t cap = device->allocator().memory().capacity();
  if (max_size > cap) {
    return Err(ACL_ERROR_INVALID_PARAM, "maxSize {} is larger than device {}'s memory ({} bytes)", max_size,
               device->id(), cap);
  }
  MemPool* pool = NewHandle<MemPool>(device, max_size == 0 ? cap : max_size);
  if (pool == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for memory pools");
  device->allocator().RegisterPool(pool->allocator_.get());
  return pool;
}

MemPool::MemPool(Device* device, uint64_t max_size) : HandleObject(handle_tags::kMemPool), device_(device), max_size_(max_size) {
  CachingAllocator::Options o;
  o.config = AllocatorConfigFromEnvironment();
  o.config.expandable_segments = o.config.expandable_segments_set && o.config.expandable_segments;
  o.limit = max_size;
  o.thread_cache = false;  // stream-ordered: every block carries its stream
  o.name = fmt::format("memory pool {} of device {}", static_cast<void*>(this), device->id());
  o.on_free = &MemPool::OnFree;
  o.on_free_ctx = this;
  o.keepalive = this;
  allocator_ = std::make_unique<CachingAllocator>(&device->allocator().memory(), &device->allocator().index(), o);
  // CUDA's default release threshold is 0: under pressure an idle pool gives everything back.
  allocator_->pressure_keep.store(0, std::memory_order_relaxed);
}

MemPool::~MemPool() = default;

MemPool* MemPool::FromAllocator(const CachingAllocator* allocator) {
  if (allocator == nullptr || allocator->options().on_free != &MemPool::OnFree) return nullptr;
  return static_cast<MemPool*>(allocator->options().on_free_ctx);
}

StatusOr<void*> MemPool::Allocate(size_t size, Stream* stream) {
  if (stream->device() != device_) {
    return Err(ACL_ERROR_INVALID_PARAM, "the pool belongs to device {}, the stream to device {}", device_->id(),
               stream->device()->id());
  }
  AllocRequest r;
  r.size = size;
  r.pad = false;
  r.stream = reinterpret_cast<uintptr_t>(stream);
  return device_->allocator().AllocateFrom(allocator_.get(), r);
}

Status MemPool::FreeAsync(void* ptr, Stream* stream) {
  if (stream->device() != device_) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} belongs to a pool of device {}, the stream to device {}", ptr,
               device_->id(), stream->device()->id());
  }
  // Work queued on the stream so far may still use the block; later work on it may reuse it at once.
  StreamFence fence{Ref<Stream>(stream), stream->queue()->submitted()};
  return device_->allocator().Free(ptr, &fence, 1, reinterpret_cast<uintptr_t>(stream));
}

void MemPool::Destroy() {
  if (!Invalidate()) return;
  destroyed_.store(true, std::memory_order_release);
  ReleaseIfDone();
}

void MemPool::OnFree(void* self) { static_cast<MemPool*>(self)->ReleaseIfDone(); }

void MemPool::ReleaseIfDone() {
  if (!destroyed_.load(std::memory_order_acquire) || allocator_->live_blocks() != 0) return;
  if (released_.exchange(true, std::memory_order_acq_rel)) return;
  device_->allocator().UnregisterPool(allocator_.get());
  // The pool's memory goes back with the object: first every stream that may still use a freed block
  // must have passed its free (a host wait, only when a destroyed pool's last block is freed).
  allocator_->WaitForPendingFrees();
  Release();  // the handle's reference: the object (and its segments) go when in-flight frees let go
}

}  // namespace npurt::core
