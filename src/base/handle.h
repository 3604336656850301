// Handles: every object that the C API hands out (context, stream, event, notify ...) is an
// intrusively ref-counted HandleObject living in one reserved address range (the HandleArena).
//
// Why an arena: the API must never dereference a pointer it did not hand out. A handle is accepted
// only if it lies inside the arena, on a slot boundary, and its slot carries the expected type tag;
// a destroyed object has its tag cleared and its slot stays mapped, so stale, foreign, zeroed or
// wrong-type handles are rejected without touching foreign memory.
//
// Lifetime: the user's handle is one reference; in-flight work retains the objects it uses, so
// destroying a stream with queued work never frees memory a worker still reads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace npurt {

// A handle's type tag: four ASCII characters, so a dump of an object's first word names its type. base
// defines only the type; each layer declares the tags of its own objects (core/handle_tags.h,
// ops/handle_tags.h, api/handle_tags.h, all in npurt::handle_tags), so base lists no upper layer's types.
enum class HandleTag : uint32_t {
  kNone = 0,
};

class HandleObject {
 public:
  explicit HandleObject(HandleTag tag) : tag_(static_cast<uint32_t>(tag)) {}
  HandleObject(const HandleObject&) = delete;
  HandleObject& operator=(const HandleObject&) = delete;

  HandleTag tag() const { return static_cast<HandleTag>(tag_.load(std::memory_order_acquire)); }
  bool alive() const { return tag_.load(std::memory_order_acquire) != 0; }

  void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; the last one destroys the object and returns its slot to the arena.
  void Release();

  // Marks the handle dead for the API (the user destroyed it); the memory lives on until the last
  // reference goes. Returns false if it was already invalidated (double destroy).
  bool Invalidate() {
    uint32_t cur = tag_.load(std::memory_order_acquire);
    return cur != 0 && tag_.compare_exchange_strong(cur, 0, std::memory_order_acq_rel);
  }

 protected:
  virtual ~HandleObject() { tag_.store(0, std::memory_order_release); }

 private:
  std::atomic<uint32_t> tag_;
  std::atomic<int32_t> refs_{1};
};

// The reserved slot range all handle objects are placed in.
class HandleArena {
 public:
  static constexpr size_t kSlotSize = 1024;

  static void* AllocateSlot();
  static void FreeSlot(void* slot);
  // True if `p` is the start of a slot inside the arena (never dereferences p).
  static bool IsSlot(const void* p);
};

// Creates a T (derived from HandleObject) in an arena slot. The returned object has one reference.
template <typename T, typename... Args>
T* NewHandle(Args&&... args) {
  static_assert(sizeof(T) <= HandleArena::kSlotSize, "handle object too large for an arena slot");
  void* slot = HandleArena::AllocateSlot();
  if (slot == nullptr) return nullptr;
  return new (slot) T(std::forward<Args>(args)...);
}

// Validates an opaque handle: returns the object if `p` is a live object with `tag`, else nullptr.
// It reads the tag of whatever the slot holds, also a destroyed object (slots stay mapped and a destroyed
// object's tag is 0): that is the point, so UBSan's check that the object is alive is off here.
template <typename T>
__attribute__((no_sanitize("vptr"))) T* LookupHandle(const void* p, HandleTag tag) {
  if (p == nullptr || !HandleArena::IsSlot(p)) return nullptr;
  auto* obj = static_cast<HandleObject*>(static_cast<T*>(const_cast<void*>(p)));
  if (obj->tag() != tag) return nullptr;
  return static_cast<T*>(obj);
}

// A retained reference (RAII).
template <typename T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T* p, bool retain = true) : p_(p) {
    if (p_ && retain) p_->Retain();
  }
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) p_->Retain();
  }
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref& operator=(Ref o) {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_) p_->Release();
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  T* release() { return std::exchange(p_, nullptr); }

 private:
  T* p_ = nullptr;
};

}  // namespace npurt
