#include "base/handle_reclaim.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "base/handle.h"

namespace npurt::reclaim {

constinit thread_local ThreadState t_state = {};
bool g_asymmetric_fence = false;

namespace {

// Drops the last reference of a retired object that no call holds (HandleObject::Release destroys it, unless
// a call took a reference meanwhile: a queued task retains what it uses).
void DropLast(HandleObject* o) {
  t_state.drop_last = true;
  o->Release();
}

// The registry of thread records and the retired list. Leaked on purpose: threads and destructors may run
// after static destruction began.
struct Domain {
  std::mutex registry_mu;  // guards registration and the records' in_use; held by a pass's decision
  std::atomic<ThreadRecord*> head{nullptr};
  uint32_t live_threads = 0;  // records in use (guarded by registry_mu)

  std::mutex retired_mu;  // guards `retired`
  // Objects held by a running call, each with the last reference its releaser handed over.
  std::vector<HandleObject*> retired;
  std::atomic<size_t> pending{0};

  std::atomic<uint64_t> unscoped_lookups{0};
  pthread_key_t exit_key;
};

bool RegisterMembarrier() {
  const long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
  return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

void OnThreadExit(void* record);

Domain& GetDomain() {
  static Domain* d = [] {
    auto* domain = new Domain();
    pthread_key_create(&domain->exit_key, &OnThreadExit);
    if constexpr (!kSequentiallyConsistent) g_asymmetric_fence = RegisterMembarrier();
    return domain;
  }();
  return *d;
}

// The reclaimer's side of the reader/reclaimer fence (handle_reclaim.h).
void ReclaimerFence() {
#if !NPURT_RECLAIM_SEQ_CST
  if (g_asymmetric_fence) {
    // Every thread of the process runs a full barrier: a reader's hazard store is visible to us, or our
    // tag clear is visible to its tag load.
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
  // Under ThreadSanitizer every access on both sides is seq_cst: no fence (TSan does not model them).
}

constexpr std::memory_order kScanOrder = kSequentiallyConsistent ? std::memory_order_seq_cst : std::memory_order_acquire;

// The hazards of every thread: the records that name each object, and whether any record protects all.
struct Hazards {
  std::vector<std::pair<const void*, ThreadRecord*>> slots;
  std::vector<ThreadRecord*> protect_all;
  bool Holds(const void* p) const {
    if (!protect_all.empty()) return true;
    for (const auto& s : slots) {
      if (s.first == p) return true;
    }
    return false;
  }
};

void Scan(Domain& d, Hazards* out) {
  out->slots.clear();
  out->protect_all.clear();
  for (ThreadRecord* r = d.head.load(std::memory_order_acquire); r != nullptr; r = r->next) {
    if (r->protect_all.load(kScanOrder) != 0) out->protect_all.push_back(r);
    for (auto& h : r->hazard) {
      const void* p = h.load(kScanOrder);
      if (p != nullptr) out->slots.emplace_back(p, r);
    }
  }
}

// Asks every thread that holds one of `kept` (or protects all) to run a pass when its call ends.
void RaiseHolders(const Hazards& hz, const std::vector<HandleObject*>& kept) {
  const auto order = kSequentiallyConsistent ? std::memory_order_seq_cst : std::memory_order_relaxed;
  for (ThreadRecord* r : hz.protect_all) r->reclaim_on_exit.store(1, order);
  for (const auto& s : hz.slots) {
    if (std::find(kept.begin(), kept.end(), s.first) != kept.end()) s.second->reclaim_on_exit.store(1, order);
  }
}

// Decides the fate of `batch` (retired objects, each with its last reference): the ones no call holds lose
// that reference, and are destroyed unless a call took a reference meanwhile; the others go (back) on the
// retired list, and their holders are asked to run a pass when their calls end.
void RunPass(Domain& d, const std::vector<HandleObject*>& batch) {
  Hazards hz;
  std::vector<HandleObject*> kept;
  std::vector<HandleObject*> to_destroy;
  {
    // Holding registry_mu: no thread registers during the decision, and one that registers later reads every
    // cleared tag (the mutex orders it after us). A thread alone in the process needs no fence at all.
    std::lock_guard<std::mutex> reg(d.registry_mu);
    const bool alone = d.live_threads == 0 || (d.live_threads == 1 && t_state.record != nullptr);
    if (!alone) ReclaimerFence();
    Scan(d, &hz);
    for (HandleObject* o : batch) {
      if (hz.Holds(o)) kept.push_back(o);
    }
    if (!kept.empty()) {
      // Ask the holders to reclaim when their calls end, then look again: a holder that left meanwhile either
      // sees the request or has its slot seen cleared (the same fence argument as for the tag).
      RaiseHolders(hz, kept);
      if (!alone) ReclaimerFence();
      Scan(d, &hz);
      kept.clear();
      for (HandleObject* o : batch) {
        if (hz.Holds(o)) kept.push_back(o);
      }
    }
    for (HandleObject* o : batch) {
      // No call holds it and no lookup can find it: its reference is dropped below, outside the locks.
      if (std::find(kept.begin(), kept.end(), o) == kept.end()) to_destroy.push_back(o);
    }
  }
  if (!kept.empty()) {
    std::lock_guard<std::mutex> lock(d.retired_mu);
    d.retired.insert(d.retired.end(), kept.begin(), kept.end());
    d.pending.store(d.retired.size(), std::memory_order_relaxed);
  }
  // Outside every lock: destructors release other objects (which retires them). If a call that held the object
  // took a reference meanwhile, the object lives on, and comes back here when that reference goes.
  for (HandleObject* o : to_destroy) DropLast(o);
}

// A pass over the retired list. Passes may run concurrently (each takes its own batch off the list).
void Pass(Domain& d) {
  std::vector<HandleObject*> batch;
  {
    std::lock_guard<std::mutex> lock(d.retired_mu);
    batch.swap(d.retired);
    d.pending.store(0, std::memory_order_relaxed);
  }
  if (!batch.empty()) RunPass(d, batch);
}

void OnThreadExit(void* arg) {
  auto* rec = static_cast<ThreadRecord*>(arg);
  Domain& d = GetDomain();
  for (auto& h : rec->hazard) h.store(nullptr, kClearOrder);
  rec->protect_all.store(0, kClearOrder);
  const bool asked = rec->reclaim_on_exit.exchange(0) != 0;
  {
    std::lock_guard<std::mutex> reg(d.registry_mu);
    rec->in_use.store(false, std::memory_order_release);
    --d.live_threads;
  }
  t_state.record = nullptr;
  t_state.used = 0;
  if (asked) Pass(d);
}

}  // namespace

ThreadRecord* RegisterThread() {
  Domain& d = GetDomain();
  ThreadRecord* rec = nullptr;
  {
    std::lock_guard<std::mutex> reg(d.registry_mu);
    for (ThreadRecord* r = d.head.load(std::memory_order_relaxed); r != nullptr; r = r->next) {
      if (!r->in_use.load(std::memory_order_relaxed)) {
        rec = r;
        break;
      }
    }
    if (rec == nullptr) {
      rec = new ThreadRecord();
      rec->next = d.head.load(std::memory_order_relaxed);
      d.head.store(rec, std::memory_order_release);
    }
    rec->in_use.store(true, std::memory_order_relaxed);
    ++d.live_threads;
  }
  t_state.record = rec;
  t_state.used = 0;
  // Unregisters at thread exit, after the thread's C++ thread_local destructors (which may still call the API).
  pthread_setspecific(d.exit_key, rec);
  return rec;
}

void ProtectSlow(const void* p) {
  ThreadState& t = t_state;
  if (t.depth == 0) {
    // Outside any entry point (an internal thread): nothing would clear the slot, and the object would stay
    // retired forever. Not protected (such a caller must hold a reference); counted for the tests.
    GetDomain().unscoped_lookups.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  ThreadRecord* rec = t.record != nullptr ? t.record : RegisterThread();
  if (t.used < kHazardSlots) {
    rec->hazard[t.used++].store(p, kPublishOrder);
  } else if (!t.protect_all) {
    t.protect_all = true;
    rec->protect_all.store(1, kPublishOrder);
  }
  ReaderFence();
}

void ExitSlow(ThreadState& t) {
  ThreadRecord* rec = t.record;
  if (t.protect_all) {
    t.protect_all = false;
    rec->protect_all.store(0, kClearOrder);
  }
  rec->reclaim_on_exit.store(0, std::memory_order_relaxed);
  Pass(GetDomain());
}

void Retire(HandleObject* object) {
  Domain& d = GetDomain();
  // New lookups fail from here on (most objects were invalidated by their destroy call already).
  object->Invalidate();
  // The common case of a destroy call: the caller itself resolved the handle, so the object is held until
  // that call returns; the call's exit runs the pass (one pass per destroy, not two).
  ThreadState& t = t_state;
  if (t.record != nullptr && t.depth > 0) {
    for (uint32_t i = 0; i < t.used; ++i) {
      if (t.record->hazard[i].load(std::memory_order_relaxed) == object) {
        {
          std::lock_guard<std::mutex> lock(d.retired_mu);
          d.retired.push_back(object);
          d.pending.store(d.retired.size(), std::memory_order_relaxed);
        }
        t.record->reclaim_on_exit.store(1, std::memory_order_relaxed);
        return;
      }
    }
  }
  // Decided now, for this object alone: as before reclamation existed, only its own destructor runs here
  // (the caller may hold locks that other objects' destructors take).
  RunPass(d, {object});
}

void ReclaimNow() { Pass(GetDomain()); }

size_t PendingForTesting() { return GetDomain().pending.load(std::memory_order_relaxed); }

uint64_t UnscopedLookupsForTesting() { return GetDomain().unscoped_lookups.load(std::memory_order_relaxed); }

}  // namespace npurt::reclaim
