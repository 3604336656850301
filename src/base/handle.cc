#include "base/handle.h"

#include "base/handle_reclaim.h"

#include <sys/mman.h>

#include <cstdint>
#include <deque>
#include <mutex>

// GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer) (the fuzz preset builds with clang).
#if defined(__SANITIZE_ADDRESS__)
#define NPURT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPURT_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(NPURT_ADDRESS_SANITIZER)
#include <sanitizer/lsan_interface.h>
#endif

namespace npurt {
namespace {

// 256 Ki slots of 1 KiB: 256 MiB of address space, committed page by page as slots are used.
constexpr size_t kSlotCount = 256 * 1024;

struct Arena {
  std::mutex mu;
  uint8_t* base = nullptr;
  size_t next_unused = 0;
  // FIFO reuse keeps a freed slot out of circulation as long as possible, so a stale handle is
  // very unlikely to alias a new object of the same type.
  std::deque<void*> free_slots;
};

Arena& GetArena() {
  static Arena* arena = [] {
    auto* a = new Arena();
    void* p = mmap(nullptr, kSlotCount * HandleArena::kSlotSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    a->base = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
#if defined(NPURT_ADDRESS_SANITIZER)
    // Live handle objects hold heap memory: LeakSanitizer must scan their slots (it does not scan mmap()ed
    // memory by itself), or everything a handle alive at exit owns is reported as leaked.
    if (a->base != nullptr) __lsan_register_root_region(a->base, kSlotCount * HandleArena::kSlotSize);
#endif
    return a;
  }();
  return *arena;
}

// Read without the lock by IsSlot(); set once.
std::atomic<uint8_t*> g_arena_base{nullptr};

}  // namespace

void* HandleArena::AllocateSlot() {
  Arena& a = GetArena();
  if (a.base == nullptr) return nullptr;
  g_arena_base.store(a.base, std::memory_order_release);
  std::lock_guard<std::mutex> lock(a.mu);
  if (a.free_slots.size() > 1024 || (a.next_unused == kSlotCount && !a.free_slots.empty())) {
    void* s = a.free_slots.front();
    a.free_slots.pop_front();
    return s;
  }
  if (a.next_unused == kSlotCount) return nullptr;
  return a.base + (a.next_unused++) * kSlotSize;
}

void HandleArena::FreeSlot(void* slot) {
  Arena& a = GetArena();
  std::lock_guard<std::mutex> lock(a.mu);
  a.free_slots.push_back(slot);
}

bool HandleArena::IsSlot(const void* p) {
  uint8_t* base = g_arena_base.load(std::memory_order_acquire);
  if (base == nullptr) return false;
  auto addr = reinterpret_cast<uintptr_t>(p);
  auto lo = reinterpret_cast<uintptr_t>(base);
  if (addr < lo || addr >= lo + kSlotCount * kSlotSize) return false;
  if ((addr - lo) % kSlotSize != 0) return false;
  // LookupHandle reads the slot's tag next: the slot is published as held by the calling thread's API call
  // first, so an object found alive stays valid until that call returns (base/handle_reclaim.h).
  reclaim::Protect(p);
  return true;
}

// Drops one reference. The last one is handed to the reclaimer (base/handle_reclaim.h), which drops it -
// destroying the object and returning its slot to the arena - once no API call holds the object. So the
// count never reaches 0 while a call that may still take a reference (Retain) holds the object.
void HandleObject::Release() {
  if (reclaim::TakeDropLastFlag()) [[unlikely]] {
    // The reclaimer dropping the reference it held (RunPass), the object no longer held by any call.
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      this->~HandleObject();
      HandleArena::FreeSlot(this);
    }
    return;
  }
  int32_t r = refs_.load(std::memory_order_relaxed);
  while (r > 1) {
    if (refs_.compare_exchange_weak(r, r - 1, std::memory_order_acq_rel, std::memory_order_relaxed)) return;
  }
  reclaim::Retire(this);
}

}  // namespace npurt
