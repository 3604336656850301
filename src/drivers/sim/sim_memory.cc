// Virtual memory and sharing on the simulated NPU.
//
// Layout: one reservation per device, [base, base + AddressRangeSize). The first memory_bytes map the
// device's memfd linearly (the caching allocator's segments live there); the rest is the VMM window,
// PROT_NONE until core maps pages of a memfd into it with MAP_FIXED (VMM mappings, expandable segments,
// imports from other processes).
//
// Sharing: the device memory is a memfd, so another process can open it as /proc/<pid>/fd/<fd> (same
// user, the default ptrace access rules) and map any of its pages; the token carries the pid, the fd
// number and the process start time, so a recycled pid is detected instead of mapping a stranger's file.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/sim/sim_device.h"

namespace npurt::drivers::sim {
namespace {

constexpr uint64_t kGiB = 1ull << 30;
constexpr uint32_t kTokenMagic = 0x4e50534d;  // "NPSM"
constexpr uint32_t kTokenVersion = 1;

struct TokenLayout {
  uint32_t magic;
  uint32_t version;
  int32_t pid;
  int32_t fd;
  uint64_t start_time;  // clock ticks after boot (/proc/<pid>/stat field 22)
  uint64_t memory_bytes;
};
static_assert(sizeof(TokenLayout) <= sizeof(hal::MemoryShareToken));

uint64_t RoundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

int ProtFor(hal::MemoryAccess access) {
  switch (access) {
    case hal::MemoryAccess::kNone: return PROT_NONE;
    case hal::MemoryAccess::kRead: return PROT_READ;
    case hal::MemoryAccess::kReadWrite: return PROT_READ | PROT_WRITE;
  }
  return PROT_NONE;
}

}  // namespace

uint64_t AddressRangeSize(uint64_t memory_bytes) {
  // The window is 4x the memory: room for the expandable segments of the pools in use (a small pool
  // reserves half the capacity, a large one 1.5x) and for user reservations. Addresses are cheap; pages
  // are not.
  const uint64_t linear = RoundUp(memory_bytes, hal::Device::kPhysicalPage);
  return linear + 4 * linear;
}

StatusOr<void*> ReserveAddressRange(uint64_t memory_bytes) {
  const uint64_t size = AddressRangeSize(memory_bytes);
  void* p = mmap(nullptr, size + kGiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    return Err(ACL_ERROR_RT_DEV_SETUP_ERROR, "reserving {} bytes of device addresses failed: {}", size,
               std::strerror(errno));
  }
  const auto raw = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = RoundUp(raw, kGiB);
  if (aligned > raw) munmap(p, aligned - raw);
  const uintptr_t end = raw + size + kGiB;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  return reinterpret_cast<void*>(aligned);
}

Status SimDevice::MapMemory(void* addr, size_t size, int32_t source, uint64_t offset, hal::MemoryAccess access) {
  const auto a = reinterpret_cast<uintptr_t>(addr);
  const auto window = reinterpret_cast<uintptr_t>(base_) + RoundUp(memory_size(), kPhysicalPage);
  const auto end = reinterpret_cast<uintptr_t>(base_) + address_size_;
  if (a < window || size == 0 || a + size > end || a % kPhysicalPage != 0 || size % kPhysicalPage != 0 ||
      offset % kPhysicalPage != 0) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "cannot map {} bytes at {}: not a page-aligned range of the VMM window",
               size, addr);
  }
  int fd = memfd_;
  if (source != hal::kLocalMemory) {
    std::lock_guard<std::mutex> lock(import_mu_);
    auto it = imports_.find(source);
    if (it == imports_.end()) return Err(ACL_ERROR_RT_PARAM_INVALID, "imported memory {} does not exist", source);
    fd = it->second;
  } else if (offset + size > memory_size()) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "physical range [{:#x}, +{}) is outside the device's {} bytes", offset,
               size, memory_size());
  }
  // Populate unless inaccessible: pages that exist in the memfd only need page-table entries.
  const int flags = MAP_SHARED | MAP_FIXED | MAP_NORESERVE | (access != hal::MemoryAccess::kNone ? MAP_POPULATE : 0);
  void* p = mmap(addr, size, ProtFor(access), flags, fd, static_cast<off_t>(offset));
  if (p == MAP_FAILED) {
    return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "mapping {} bytes at {} failed: {}", size, addr, std::strerror(errno));
  }
  return Status::Ok();
}

Status SimDevice::UnmapMemory(void* addr, size_t size) {
  void* p = mmap(addr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    return Err(ACL_ERROR_RT_INTERNAL_ERROR, "unmapping {} bytes at {} failed: {}", size, addr, std::strerror(errno));
  }
  return Status::Ok();
}

Status SimDevice::ProtectMemory(void* addr, size_t size, hal::MemoryAccess access) {
  if (mprotect(addr, size, ProtFor(access)) != 0) {
    return Err(ACL_ERROR_RT_INTERNAL_ERROR, "changing access of {} bytes at {} failed: {}", size, addr,
               std::strerror(errno));
  }
  return Status::Ok();
}

StatusOr<hal::MemoryShareToken> SimDevice::ExportMemory() {
  TokenLayout t{kTokenMagic, kTokenVersion, getpid(), memfd_, ProcessStartTime(getpid()), memory_size()};
  hal::MemoryShareToken token{};
  std::memcpy(token.bytes, &t, sizeof t);
  return token;
}

StatusOr<int32_t> SimDevice::ImportMemory(const hal::MemoryShareToken& token) {
  TokenLayout t;
  std::memcpy(&t, token.bytes, sizeof t);
  if (t.magic != kTokenMagic || t.version != kTokenVersion) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "the shared-memory token was not made by a simulated device");
  }
  if (t.pid == getpid() && t.fd == memfd_) return hal::kLocalMemory;  // our own memory
  if (ProcessStartTime(t.pid) != t.start_time) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "the exporting process {} has exited", t.pid);
  }
  const std::string path = "/proc/" + std::to_string(t.pid) + "/fd/" + std::to_string(t.fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return Err(ACL_ERROR_RT_NO_PERMISSION, "cannot open the device memory of process {} ({}): {}", t.pid, path,
               std::strerror(errno));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < t.memory_bytes ||
      ProcessStartTime(t.pid) != t.start_time) {
    close(fd);
    return Err(ACL_ERROR_RT_PARAM_INVALID, "{} is not the device memory process {} exported", path, t.pid);
  }
  std::lock_guard<std::mutex> lock(import_mu_);
  const int32_t id = next_import_++;
  imports_.emplace(id, fd);
  return id;
}

void SimDevice::ReleaseImport(int32_t source) {
  std::lock_guard<std::mutex> lock(import_mu_);
  auto it = imports_.find(source);
  if (it == imports_.end()) return;
  close(it->second);  // existing mappings keep the pages
  imports_.erase(it);
}

}  // namespace npurt::drivers::sim
