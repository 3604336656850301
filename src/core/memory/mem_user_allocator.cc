#include "core/memory/mem_user_allocator.h"

#include <map>
#include <mutex>
#include <string>

#include "acl/acl_base_rt.h"
#include "core/handle_tags.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

struct Registration {
  Ref<Stream> stream;           // keeps the address from being reused by a new stream while registered
  AllocatorDesc* desc;          // the description it came from (may be destroyed since)
  UserAllocator value;
};

struct AllocatorRegistry {
  std::mutex mu;
  std::map<Stream*, Registration> by_stream;
  // Registrations of destroyed streams go: the stream object itself is released with them.
  void Prune() {
    for (auto it = by_stream.begin(); it != by_stream.end();) {
      it = it->first->alive() ? std::next(it) : by_stream.erase(it);
    }
  }
};

AllocatorRegistry& Allocators() {
  static AllocatorRegistry* r = new AllocatorRegistry();
  return *r;
}

}  // namespace

AllocatorDesc* AllocatorDesc::Create() { return NewHandle<AllocatorDesc>(); }

AllocatorDesc* LookupAllocatorDesc(const void* handle) {
  return LookupHandle<AllocatorDesc>(handle, handle_tags::kAllocatorDesc);
}

Status RegisterUserAllocator(Stream* stream, const AllocatorDesc& desc) {
  const UserAllocator& v = desc.value;
  std::string missing;
  if (v.object == nullptr) missing += " allocator object (aclrtAllocatorSetObjToDesc)";
  if (v.alloc == nullptr) missing += " alloc function (aclrtAllocatorSetAllocFuncToDesc)";
  if (v.free == nullptr) missing += " free function (aclrtAllocatorSetFreeFuncToDesc)";
  if (v.get_addr == nullptr) missing += " block-address function (aclrtAllocatorSetGetAddrFromBlockFuncToDesc)";
  if (!missing.empty()) return Err(ACL_ERROR_INVALID_PARAM, "the allocator description lacks:{}", missing);
  AllocatorRegistry& r = Allocators();
  std::lock_guard<std::mutex> lock(r.mu);
  r.Prune();
  r.by_stream[stream] = Registration{Ref<Stream>(stream), const_cast<AllocatorDesc*>(&desc), v};
  return Status::Ok();
}

void UnregisterUserAllocator(Stream* stream) {
  AllocatorRegistry& r = Allocators();
  std::lock_guard<std::mutex> lock(r.mu);
  r.by_stream.erase(stream);
  r.Prune();
}

std::optional<UserAllocator> UserAllocatorFor(Stream* stream, AllocatorDesc** desc) {
  AllocatorRegistry& r = Allocators();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.by_stream.find(stream);
  if (it == r.by_stream.end() || !stream->alive()) return std::nullopt;
  if (desc != nullptr) *desc = it->second.desc;
  return it->second.value;
}

}  // namespace npurt::core
