// Deferred reclamation of handle objects (hazard pointers), so that an object destroyed by one thread while
// another thread is inside an API call on it stays valid until that call returns.
//
// The rule (docs/architecture.md, "Handle lifetime"): a handle that a call resolved (LookupHandle) stays a
// valid object until the call returns; calls that start after the destroy get ACL_ERROR_RT_INVALID_HANDLE.
//
// How, without a shared reference-count write on the hot path:
//  - Every API entry point opens a HandleScope (NPURT_HANDLE_SCOPE in src/api). LookupHandle publishes the
//    pointer it resolves in one of the calling thread's hazard slots before it checks the object's tag. The
//    slots are written only by their own thread (a plain store; no fence on the reader side when the kernel
//    offers membarrier(2), see below). The outermost scope clears them when the call returns.
//  - The last reference going (HandleObject::Release) retires the object instead of destroying it: its tag is
//    cleared (new lookups fail) and it joins the retired list. A reclaim pass destroys every retired object
//    that no thread's hazard slot names, and leaves the others for the thread that holds them, which runs a
//    pass itself when its outermost scope ends (the reclaimer raises that thread's reclaim_on_exit).
//  - Ordering: a reader stores its hazard, then reads the tag; a reclaimer clears the tag, then reads every
//    hazard. Either the reader sees the cleared tag or the reclaimer sees the hazard. The reader's side of that
//    fence is moved to the reclaimer with membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) (asymmetric fences, as
//    in liburcu and folly); without membarrier the reader issues a full fence, and under ThreadSanitizer both
//    sides use sequentially consistent atomics (TSan does not model fences).
//  - A call that resolves more handles than it has slots (an operator with many buffers) raises its
//    protect_all word instead: while it is up, reclaim passes destroy nothing.
//  - A call that blocks keeps only the objects it resolved: everything else is reclaimed meanwhile.
#pragma once

#include <atomic>
#include <cstdint>

namespace npurt {

class HandleObject;

namespace reclaim {

constexpr uint32_t kHazardSlots = 8;

// One per thread that ever resolved a handle; never freed (a record is reused after its thread exits).
struct alignas(64) ThreadRecord {
  std::atomic<const void*> hazard[kHazardSlots] = {};
  std::atomic<uint32_t> protect_all{0};
  // Raised by a reclaimer that kept an object because this thread holds it: the thread reclaims on exit.
  std::atomic<uint32_t> reclaim_on_exit{0};
  std::atomic<bool> in_use{false};
  ThreadRecord* next = nullptr;  // the registry's list; set before the record is published
};

// The calling thread's state: plain fields, read and written only by the thread itself.
struct ThreadState {
  ThreadRecord* record;
  uint32_t used;   // hazard slots filled by the current call
  uint32_t depth;  // nesting of HandleScopes (an entry point calling another)
  bool protect_all;
  bool drop_last;  // the next Release on this thread is a reclaim pass dropping a retired object's reference
};

// Under ThreadSanitizer, readers and reclaimers use sequentially consistent atomics and no fences.
#if defined(__SANITIZE_THREAD__)
#define NPURT_RECLAIM_SEQ_CST 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NPURT_RECLAIM_SEQ_CST 1
#endif
#endif
#ifndef NPURT_RECLAIM_SEQ_CST
#define NPURT_RECLAIM_SEQ_CST 0
#endif
inline constexpr bool kSequentiallyConsistent = NPURT_RECLAIM_SEQ_CST != 0;

// A TLS descriptor access (src/CMakeLists.txt: -mtls-dialect=gnu2), no __tls_get_addr call; not initial-exec,
// which would keep the library from being dlopen()ed. constinit: no initialisation guard on access.
extern constinit thread_local ThreadState t_state;
// True when membarrier(2) serves as the reclaimers' fence: readers then need only a compiler barrier.
extern bool g_asymmetric_fence;

// The slow paths of Protect: the thread's first lookup (registers it), a call past its slots (protect_all),
// a lookup outside any HandleScope (not protected, counted: only internal threads do that, and they hold
// references on what they use).
void ProtectSlow(const void* p);
// The outermost scope's exit when a reclaimer asked this thread to run a pass, or it raised protect_all.
void ExitSlow(ThreadState& t);

// Orders the calling thread's hazard store before its next load (the tag), or its hazard clear before its
// load of reclaim_on_exit. A compiler barrier where the reclaimers issue membarrier(2).
inline void ReaderFence() {
#if !NPURT_RECLAIM_SEQ_CST
  if (g_asymmetric_fence) [[likely]] {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
#endif
}

inline constexpr std::memory_order kPublishOrder =
    kSequentiallyConsistent ? std::memory_order_seq_cst : std::memory_order_relaxed;
inline constexpr std::memory_order kClearOrder =
    kSequentiallyConsistent ? std::memory_order_seq_cst : std::memory_order_release;

// Publishes `p` as in use by the calling thread's current call. Call before reading the object's tag.
inline void Protect(const void* p) {
  ThreadState& t = t_state;
  if (t.record == nullptr || t.used >= kHazardSlots || t.depth == 0) [[unlikely]] {
    ProtectSlow(p);
    return;
  }
  t.record->hazard[t.used++].store(p, kPublishOrder);
  ReaderFence();
}

// The outermost HandleScope ends: the call's hazards go (release: the reclaimer that sees a slot cleared
// destroys the object after everything this call did with it).
inline void ExitOutermost(ThreadState& t) {
  ThreadRecord* rec = t.record;
  for (uint32_t i = 0; i < t.used; ++i) rec->hazard[i].store(nullptr, kClearOrder);
  t.used = 0;
  ReaderFence();
  if (t.protect_all || rec->reclaim_on_exit.load(kSequentiallyConsistent ? std::memory_order_seq_cst
                                                                          : std::memory_order_relaxed)) [[unlikely]] {
    ExitSlow(t);
  }
}

// Takes the last reference of an object (HandleObject::Release): destroyed now if no call holds it, else
// when the last call holding it returns.
void Retire(HandleObject* object);
// True (once) when the calling Release is a reclaim pass dropping the last reference for real.
inline bool TakeDropLastFlag() {
  ThreadState& t = t_state;
  if (!t.drop_last) [[likely]] return false;
  t.drop_last = false;
  return true;
}
// Runs a reclaim pass now (tests; aclFinalize).
void ReclaimNow();
// Objects retired and not yet destroyed (tests).
size_t PendingForTesting();
// Lookups made outside any HandleScope (tests: every entry point opens one, so this stays 0).
uint64_t UnscopedLookupsForTesting();

}  // namespace reclaim

// Opened by every C entry point (NPURT_HANDLE_SCOPE): the handles its call resolves stay valid until it returns.
class HandleScope {
 public:
  HandleScope() { ++reclaim::t_state.depth; }
  ~HandleScope() {
    reclaim::ThreadState& t = reclaim::t_state;
    if (--t.depth == 0 && t.record != nullptr) reclaim::ExitOutermost(t);
  }
  HandleScope(const HandleScope&) = delete;
  HandleScope& operator=(const HandleScope&) = delete;
};

}  // namespace npurt
