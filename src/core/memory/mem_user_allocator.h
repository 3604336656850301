// User allocators (acl_rt_allocator.h): a program describes its own allocator (an object and callbacks)
// and registers it for a stream; components needing workspace for work on that stream (operators, model
// execution) ask UserAllocatorFor(stream) and allocate through it instead of the runtime's allocator.
//
// A description is a handle; registration copies it, so destroying a description later does not affect
// streams it was registered for. Registrations of destroyed streams are dropped. Thread-safe.
#pragma once

#include <optional>

#include "acl/acl_rt_allocator.h"
#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"

namespace npurt::core {

class Stream;

struct UserAllocator {
  aclrtAllocator object = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc alloc_advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc get_addr = nullptr;
};

class AllocatorDesc final : public HandleObject {
 public:
  static AllocatorDesc* Create();
  UserAllocator value;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  AllocatorDesc() : HandleObject(handle_tags::kAllocatorDesc) {}
  ~AllocatorDesc() override = default;
};

AllocatorDesc* LookupAllocatorDesc(const void* handle);

// Registers (replacing any earlier registration) / removes the allocator of `stream`.
Status RegisterUserAllocator(Stream* stream, const AllocatorDesc& desc);
void UnregisterUserAllocator(Stream* stream);
// The allocator registered for `stream` and the description it was registered from.
std::optional<UserAllocator> UserAllocatorFor(Stream* stream, AllocatorDesc** desc = nullptr);

}  // namespace npurt::core
