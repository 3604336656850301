#include "core/memory/mem_peer_view.h"

#include <algorithm>
#include <cstring>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/memory/mem_vmm.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

// Views cached per peer at most; each costs a few mappings, and a training step shares a handful of
// buffers.
constexpr size_t kMaxCachedViews = 256;

}  // namespace

StatusOr<PeerToken> PeerShareToken(Device* device) {
  auto token = device->hal()->ExportMemory();
  if (!token.ok()) return token.status();
  static_assert(sizeof(PeerToken::bytes) == sizeof(hal::MemoryShareToken::bytes));
  PeerToken out;
  std::memcpy(out.bytes, token.value().bytes, sizeof(out.bytes));
  return out;
}

uint64_t PeerMemoryBytes(Device* device) { return device->hal()->memory_size(); }

Status DescribeForPeers(Device* device, const void* ptr, size_t size, PeerExtents* out) {
  return device->allocator().PhysicalExtents(ptr, size, &out->runs, &out->inner);
}

StatusOr<std::unique_ptr<PeerMemoryViews>> PeerMemoryViews::Open(Device* local, const PeerToken& token,
                                                                  uint64_t peer_bytes, uint64_t cache_bytes) {
  if (peer_bytes == 0 || peer_bytes % kPhysicalPage != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "a peer's device memory of {} bytes is not a whole number of pages", peer_bytes);
  }
  hal::MemoryShareToken shared{};
  std::memcpy(shared.bytes, token.bytes, sizeof(shared.bytes));
  auto source = local->hal()->ImportMemory(shared);
  if (!source.ok()) return source.status();
  PhysicalProps props;
  props.location_id = static_cast<uint32_t>(local->id());
  auto memory = PhysicalMemory::Import(&local->allocator().memory(), local->id(), source.value(), 0, peer_bytes, props);
  if (!memory.ok()) return memory.status();
  return std::unique_ptr<PeerMemoryViews>(
      new PeerMemoryViews(local, memory.value(), peer_bytes, std::max<uint64_t>(cache_bytes, kPhysicalPage)));
}

PeerMemoryViews::PeerMemoryViews(Device* local, PhysicalMemory* memory, uint64_t peer_bytes, uint64_t limit_bytes)
    : local_(local), memory_(memory), peer_bytes_(peer_bytes), limit_bytes_(limit_bytes) {}

PeerMemoryViews::~PeerMemoryViews() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [runs, view] : views_) Drop(view);
  views_.clear();
  memory_->ReleaseApi();  // the last reference once no mapping holds one
}

void PeerMemoryViews::Drop(CachedView& view) {
  VmmSpace& vmm = local_->allocator().vmm();
  for (uintptr_t m : view.mappings) {
    if (Status s = vmm.Unmap(m); !s.ok()) NPURT_LOG_WARNING("RUNTIME", "unmapping a peer view: {}", s.message());
  }
  if (Status s = vmm.Release(view.va); !s.ok()) NPURT_LOG_WARNING("RUNTIME", "releasing a peer view: {}", s.message());
  cached_bytes_ -= view.span;
}

void PeerMemoryViews::EvictFor(uint64_t span, uint64_t use) {
  while (!views_.empty() && (views_.size() >= kMaxCachedViews || cached_bytes_ + span > limit_bytes_)) {
    auto oldest = views_.end();
    for (auto it = views_.begin(); it != views_.end(); ++it) {
      if (it->second.last_use < use && (oldest == views_.end() || it->second.last_use < oldest->second.last_use)) {
        oldest = it;
      }
    }
    if (oldest == views_.end()) return;  // every view serves the current operation
    Drop(oldest->second);
    views_.erase(oldest);
  }
}

StatusOr<uint8_t*> PeerMemoryViews::View(const std::vector<PageRun>& runs, uint64_t inner, uint64_t use) {
  const size_t count = runs.size();
  if (count == 0) return Err(ACL_ERROR_INVALID_PARAM, "a peer's buffer has no pages");
  uint64_t span = 0;
  for (size_t i = 0; i < count; ++i) {
    const auto [offset, bytes] = runs[i];
    if (bytes == 0 || offset % kPhysicalPage != 0 || bytes % kPhysicalPage != 0 || offset > peer_bytes_ ||
        bytes > peer_bytes_ - offset) {
      return Err(ACL_ERROR_INVALID_PARAM, "page run [{:#x}, +{}) is not whole pages of the peer's {} bytes", offset,
                 bytes, peer_bytes_);
    }
    span += bytes;
  }
  if (inner >= runs[0].second) {
    return Err(ACL_ERROR_INVALID_PARAM, "offset {} lies past the peer buffer's first run of {} bytes", inner,
               runs[0].second);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = views_.find(runs); it != views_.end()) {
    it->second.last_use = use;
    return reinterpret_cast<uint8_t*>(it->second.va + inner);
  }
  EvictFor(span, use);
  VmmSpace& vmm = local_->allocator().vmm();
  auto va = vmm.Reserve(span, kPhysicalPage, 0);
  if (!va.ok()) {
    return Err(va.status().code(), "no device addresses left for a {}-byte view of a peer's buffer: {}", span,
               va.status().message());
  }
  CachedView view{va.value(), span, {}, use};
  cached_bytes_ += span;
  uintptr_t at = va.value();
  for (size_t i = 0; i < count; ++i) {
    Status st = vmm.Map(at, runs[i].second, runs[i].first, memory_, hal::MemoryAccess::kReadWrite);
    if (!st.ok()) {
      Drop(view);
      return st;
    }
    view.mappings.push_back(at);
    at += runs[i].second;
  }
  ++made_;
  auto it = views_.emplace(runs, std::move(view)).first;
  return reinterpret_cast<uint8_t*>(it->second.va + inner);
}

}  // namespace npurt::core
