#include "core/memory/mem_symbols.h"

#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

// The other side of a symbol copy must agree with `kind`: host memory for H2D / D2H, device memory for
// D2D, anything for DEFAULT.
Status CheckSide(const MemSpan& other, int32_t kind, bool to_symbol) {
  switch (kind) {
    case ACL_MEMCPY_DEFAULT: return Status::Ok();
    case ACL_MEMCPY_HOST_TO_DEVICE:
      if (to_symbol && other.device == nullptr) return Status::Ok();
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      if (!to_symbol && other.device == nullptr) return Status::Ok();
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      if (other.device != nullptr) return Status::Ok();
      break;
    default: break;
  }
  return Err(ACL_ERROR_INVALID_PARAM, "copy kind {} does not fit a copy {} a device variable {} {} memory", kind,
             to_symbol ? "into" : "out of", to_symbol ? "from" : "to", other.device != nullptr ? "device" : "host");
}

StatusOr<DeviceSymbol> Range(const void* symbol, size_t count, size_t offset) {
  auto s = SymbolRegistry::Get().Find(symbol);
  if (!s.ok()) return s;
  if (offset > s->size || count > s->size - offset) {
    return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) lies outside the device variable of {} bytes", offset, count,
               s->size);
  }
  return s;
}

Status Copy(void* dst, const void* src, size_t count, bool stage_src, bool host_dst, Stream* stream) {
  if (count == 0) return Status::Ok();
  if (stream == nullptr) {
    std::memmove(dst, src, count);
    return Status::Ok();
  }
  hal::Task t;
  t.kind = hal::TaskKind::kCopy;
  t.dst = dst;
  t.src = src;
  t.size = count;
  if (stage_src) {
    void* staging = std::malloc(count);
    if (staging == nullptr) return Err(ACL_ERROR_BAD_ALLOC, "cannot stage {} bytes", count);
    std::memcpy(staging, src, count);
    t.src = staging;
    t.cleanup = &FreeStaging;
    t.cleanup_arg = staging;
  }
  const uint64_t seq = stream->Submit(t);
  if (host_dst) stream->queue()->WaitHost(seq, UINT64_MAX);  // pageable destination: written on return
  return Status::Ok();
}

}  // namespace

SymbolRegistry& SymbolRegistry::Get() {
  static SymbolRegistry* r = new SymbolRegistry();
  return *r;
}

Status SymbolRegistry::Register(const void* owner, const void* host_symbol, void* address, size_t size) {
  if (host_symbol == nullptr || address == nullptr || size == 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "a device variable needs a symbol, an address and a size");
  }
  std::lock_guard<std::mutex> lock(mu_);
  symbols_[host_symbol] = DeviceSymbol{address, size, owner};
  return Status::Ok();
}

void SymbolRegistry::UnregisterAll(const void* owner) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = symbols_.begin(); it != symbols_.end();) {
    it = it->second.owner == owner ? symbols_.erase(it) : std::next(it);
  }
}

StatusOr<DeviceSymbol> SymbolRegistry::Find(const void* host_symbol) const {
  if (host_symbol == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "symbol is a null pointer");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = symbols_.find(host_symbol);
  if (it == symbols_.end()) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "{} is not a device variable of a loaded kernel binary (load the binary that defines it first)",
               host_symbol);
  }
  return it->second;
}

Status CopyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, int32_t kind, Stream* stream) {
  auto s = Range(symbol, count, offset);
  if (!s.ok()) return s.status();
  auto from = ResolveSpan(src, count, "src");
  if (!from.ok()) return from.status();
  NPURT_RETURN_IF_ERROR(CheckSide(from.value(), kind, true));
  const bool pageable = from->device == nullptr && !from->pinned;
  return Copy(static_cast<uint8_t*>(s->address) + offset, src, count, pageable, false, stream);
}

Status CopyFromSymbol(void* dst, size_t dst_max, const void* symbol, size_t count, size_t offset, int32_t kind,
                      Stream* stream) {
  if (count > dst_max) return Err(ACL_ERROR_INVALID_PARAM, "count {} is larger than dstMax {}", count, dst_max);
  auto s = Range(symbol, count, offset);
  if (!s.ok()) return s.status();
  auto to = ResolveSpan(dst, count, "dst");
  if (!to.ok()) return to.status();
  NPURT_RETURN_IF_ERROR(CheckSide(to.value(), kind, false));
  const bool pageable = to->device == nullptr && !to->pinned;
  return Copy(dst, static_cast<const uint8_t*>(s->address) + offset, count, false, pageable, stream);
}

}  // namespace npurt::core
