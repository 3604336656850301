// The race detector's engine (core/racecheck/racecheck.h, docs/racecheck.md).
//
// The detector works on the submission-order view: a task is processed when it is submitted, in its
// stream's order, against the clocks that the program's API calls made so far. A stream whose task is
// a wait that nothing submitted so far satisfies (a notify waited for before it is recorded, a value
// wait before its write) parks, as the real stream does: its later tasks queue in the detector until
// the matching record or write is submitted, or until the host observes the stream finish (then the
// wait was satisfied by something the detector cannot see, and the host's clock stands in for it).
// So an edge always points from a processed task to a later-processed one, and checking each access
// against the accesses recorded before it finds every unordered pair.
#include "core/racecheck/racecheck.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "base/env.h"
#include "core/device.h"
#include "core/alloc/device_allocator.h"
#include "core/kernel/kernel_binary.h"
#include "core/kernel/kernel_launch.h"
#include "core/memory/mem_pinned_host.h"
#include "core/racecheck/racecheck_report.h"
#include "core/racecheck/racecheck_shadow.h"
#include "core/runtime.h"
#include "core/sanitizer_records.h"
#include "core/stream.h"
#include "dfx/sanitizer_log.h"
#include "hal/hal.h"

namespace npurt::core::racecheck {
namespace {

constexpr uint32_t kHost = 0;              // the host's clock component
constexpr size_t kFlagSnapshots = 16;      // records remembered per flag (waits target recent records)
constexpr size_t kMaxParkedTasks = 4096;   // beyond this a parked stream is released (see Drain)
constexpr size_t kMaxCallbacks = 65536;    // callbacks submitted but never run (discarded) are forgotten

struct Access {
  uintptr_t ptr = 0;
  size_t size = 0;
  bool write = false;
};

// What a wait task waits for.
struct WaitKey {
  enum class Kind : uint8_t { kNone, kFlag, kValue } kind = Kind::kNone;
  const void* object = nullptr;  // the hal::Flag, or the watched 64-bit word
  uint64_t value = 0;            // flag target / comparison operand
  uint32_t compare = 0;          // hal::ValueCompare
  bool shared = false;           // a flag other processes may raise: unmatched here, it orders nothing
};

enum class Signal : uint8_t { kNone, kFlag, kValueWrite, kValueUpdate };

// A task as the detector sees it, captured at submission.
struct PendingTask {
  ActorRef actor;
  std::vector<Access> accesses;
  VectorClock submitter;  // the clock of the submitting host thread (or callback) at submission
  WaitKey wait;
  Signal signal = Signal::kNone;
  const void* signal_object = nullptr;
  uint64_t signal_value = 0;
  uint32_t update_op = 0;              // hal::ValueUpdate
  const void* callback_key = nullptr;  // a host-function task: its host_arg
  bool host_waits = false;             // the submitting call waits for the task (pageable destination)
};

struct StreamState {
  uint32_t component = 0;
  int32_t id = -1;
  const Device* device = nullptr;
  VectorClock clock;
  std::deque<PendingTask> queue;  // not yet processed; the head is an unsatisfied wait
  bool force = false;             // the host saw the stream finish: unsatisfied waits pass
};

struct FlagSnapshot {
  uint64_t value = 0;
  VectorClock clock;
};
struct WordState {  // a word that value writes, counting notifies and value waits use
  uint64_t value = 0;
  VectorClock clock;  // of the writes that made `value`
};

struct CallbackContext {
  VectorClock clock;
  Epoch epoch;
  int32_t stream = -1;
  uint32_t task = 0;
};

struct Allocation {
  AllocationView view;
  AllocationShadow shadow;
};

struct Declared {
  std::string name;
  std::vector<Range> reads;
  std::vector<Range> writes;
};

thread_local std::unique_ptr<CallbackContext> t_callback;
thread_local std::optional<Declared> t_declared;

bool Compare(uint32_t compare, uint64_t v, uint64_t operand) {
  switch (static_cast<hal::ValueCompare>(compare)) {
    case hal::ValueCompare::kGreaterEqual: return v >= operand;
    case hal::ValueCompare::kEqual: return v == operand;
    case hal::ValueCompare::kAnd: return (v & operand) != 0;
    case hal::ValueCompare::kNor: return ~(v | operand) != 0;
    case hal::ValueCompare::kLess: return v < operand;
    case hal::ValueCompare::kGreater: return v > operand;
    case hal::ValueCompare::kAllBits: return (v & operand) == operand;
  }
  return false;
}

uint64_t Update(uint32_t op, uint64_t v, uint64_t operand) {
  switch (static_cast<hal::ValueUpdate>(op)) {
    case hal::ValueUpdate::kSet: return operand;
    case hal::ValueUpdate::kAdd: return v + operand;
    case hal::ValueUpdate::kOr: return v | operand;
    case hal::ValueUpdate::kAnd: return v & operand;
  }
  return v;
}

class Detector {
 public:
  void Reset() {
    std::lock_guard<std::mutex> lock(mu_);
    streams_.clear();
    next_component_ = 1;
    host_clock_ = VectorClock{1};
    flags_.clear();
    words_.clear();
    callbacks_.clear();
    allocations_.clear();
    seen_.clear();
    reports_.clear();
    accesses_ = 0;
  }

  void Submit(const Stream* stream, PendingTask task) {
    std::lock_guard<std::mutex> lock(mu_);
    task.submitter = t_callback != nullptr ? t_callback->clock : host_clock_;
    if (t_callback == nullptr) Tick(&host_clock_, kHost);  // the host's later actions are not before it
    StreamState& st = StateOf(stream);
    st.queue.push_back(std::move(task));
    if (st.queue.size() > kMaxParkedTasks) st.force = true;
    Drain(&st);
    WakeParked();
  }

  void HostAccess(const ActorRef& actor, const std::vector<Access>& accesses) {
    std::lock_guard<std::mutex> lock(mu_);
    const VectorClock& now = t_callback != nullptr ? t_callback->clock : host_clock_;
    const Epoch epoch = t_callback != nullptr ? t_callback->epoch : Epoch{kHost, At(host_clock_, kHost)};
    for (const Access& a : accesses) Check(a, now, epoch, actor);
    if (t_callback == nullptr) Tick(&host_clock_, kHost);
  }

  // The host (or the callback running on this thread) waited for everything submitted to the streams
  // that `match` selects.
  template <typename Match>
  void HostSynchronized(Match match) {
    std::lock_guard<std::mutex> lock(mu_);
    VectorClock* host = t_callback != nullptr ? &t_callback->clock : &host_clock_;
    for (auto& [id, st] : streams_) {
      if (!match(st)) continue;
      if (!st.queue.empty()) {
        st.force = true;
        Drain(&st);
      }
      Join(host, st.clock);
    }
    WakeParked();
  }

  void FlagObserved(const hal::Flag* flag, uint64_t value) {
    std::lock_guard<std::mutex> lock(mu_);
    WaitKey key;
    key.kind = WaitKey::Kind::kFlag;
    key.object = flag;
    key.value = value;
    const VectorClock* snapshot = nullptr;
    if (Resolve(key, &snapshot) && snapshot != nullptr) {
      Join(t_callback != nullptr ? &t_callback->clock : &host_clock_, *snapshot);
    }
  }

  void Free(uintptr_t base) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = allocations_.find(base);
    if (it == allocations_.end()) return;
    const uintptr_t end = base + it->second.view.size;
    allocations_.erase(it);
    for (auto w = words_.begin(); w != words_.end();) {  // value-wait words inside it
      const auto a = reinterpret_cast<uintptr_t>(w->first);
      w = a >= base && a < end ? words_.erase(w) : std::next(w);
    }
  }

  void SyncObjectDestroyed(const void* object) {
    std::lock_guard<std::mutex> lock(mu_);
    flags_.erase(object);
    words_.erase(object);
  }

  bool EnterCallback(const void* key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = callbacks_.find(key);
    if (it == callbacks_.end()) return false;  // its stream is parked here: the host's clock stands in
    t_callback = std::make_unique<CallbackContext>(std::move(it->second));
    callbacks_.erase(it);
    return true;
  }

  std::vector<std::string> Reports() {
    std::lock_guard<std::mutex> lock(mu_);
    return reports_;
  }
  uint64_t Accesses() {
    std::lock_guard<std::mutex> lock(mu_);
    return accesses_;
  }
  void ClearReports() {
    std::lock_guard<std::mutex> lock(mu_);
    reports_.clear();
    seen_.clear();
  }

 private:
  StreamState& StateOf(const Stream* stream) {
    auto [it, inserted] = streams_.try_emplace(stream->id());
    if (inserted) {
      it->second.component = next_component_++;
      it->second.id = stream->id();
      it->second.device = stream->device();
    }
    return it->second;
  }

  // Processes the stream's queued tasks in order, up to a wait that nothing satisfies yet.
  void Drain(StreamState* st) {
    while (!st->queue.empty()) {
      if (!Run(st, &st->queue.front())) return;
      st->queue.pop_front();
    }
    st->force = false;
  }

  // Streams parked on a wait that a signal processed since may satisfy.
  void WakeParked() {
    while (wake_) {
      wake_ = false;
      for (auto& [id, st] : streams_) {
        if (!st.queue.empty()) Drain(&st);
      }
    }
  }

  // True when something processed satisfies the wait; `snapshot` receives the clock of what did (null
  // when it is outside the detector's view: a flag of another process).
  bool Resolve(const WaitKey& key, const VectorClock** snapshot) {
    *snapshot = nullptr;
    if (key.kind == WaitKey::Kind::kFlag) {
      auto it = flags_.find(key.object);
      if (it != flags_.end()) {
        for (const FlagSnapshot& s : it->second) {  // ascending values: the first record that reaches it
          if (s.value >= key.value) {
            *snapshot = &s.clock;
            return true;
          }
        }
      }
      return key.shared;
    }
    auto it = words_.find(key.object);
    if (it == words_.end() || !Compare(key.compare, it->second.value, key.value)) return false;
    *snapshot = &it->second.clock;
    return true;
  }

  // Processes one task; false (and nothing done) when it is a wait that cannot pass yet.
  bool Run(StreamState* st, PendingTask* t) {
    if (t->wait.kind != WaitKey::Kind::kNone) {
      const VectorClock* snapshot = nullptr;
      if (Resolve(t->wait, &snapshot)) {
        if (snapshot != nullptr) Join(&st->clock, *snapshot);
      } else if (st->force) {
        Join(&st->clock, host_clock_);  // satisfied by something the host saw happen
      } else {
        return false;
      }
    }
    Join(&st->clock, t->submitter);
    Tick(&st->clock, st->component);
    const Epoch epoch{st->component, st->clock[st->component]};
    for (const Access& a : t->accesses) Check(a, st->clock, epoch, t->actor);
    switch (t->signal) {
      case Signal::kNone: break;
      case Signal::kFlag: {
        auto& ring = flags_[t->signal_object];
        if (!ring.empty() && t->signal_value <= ring.back().value) ring.clear();  // a new flag at that address
        ring.push_back(FlagSnapshot{t->signal_value, st->clock});
        if (ring.size() > kFlagSnapshots) ring.pop_front();
        wake_ = true;
        break;
      }
      case Signal::kValueWrite: {
        WordState& w = words_[t->signal_object];
        w.value = t->signal_value;
        w.clock = st->clock;
        wake_ = true;
        break;
      }
      case Signal::kValueUpdate: {
        WordState& w = words_[t->signal_object];  // a counting notify's counter starts at 0
        w.value = Update(t->update_op, w.value, t->signal_value);
        if (static_cast<hal::ValueUpdate>(t->update_op) == hal::ValueUpdate::kSet) {
          w.clock = st->clock;
        } else {
          Join(&w.clock, st->clock);  // the count is every update's doing
        }
        wake_ = true;
        break;
      }
    }
    if (t->callback_key != nullptr) {
      if (callbacks_.size() >= kMaxCallbacks) callbacks_.clear();
      callbacks_[t->callback_key] = CallbackContext{st->clock, epoch, st->id, t->actor->task};
    }
    if (t->host_waits) Join(&host_clock_, st->clock);
    return true;
  }

  Allocation* AllocationAt(uintptr_t ptr, uintptr_t* end) {
    Device* dev = Runtime::Get().DeviceOwning(reinterpret_cast<const void*>(ptr));
    if (dev == nullptr) return nullptr;  // host memory: not tracked
    AllocationInfo info;
    if (!dev->allocator().Lookup(reinterpret_cast<const void*>(ptr), &info)) return nullptr;
    *end = std::min<uintptr_t>(*end, info.base + info.size);
    Allocation& al = allocations_[info.base];
    if (al.view.size != info.size || al.view.device != dev->id()) {
      // First access, or the base now belongs to an allocation the detector was not told about.
      al = Allocation{};
      al.view.base = info.base;
      al.view.size = info.size;
      al.view.device = dev->id();
      LiveAllocation live;
      if (dev->allocator().LookupBlock(reinterpret_cast<const void*>(info.base), &live)) al.view.site = live.site;
    }
    return &al;
  }

  void Check(const Access& a, const VectorClock& now, const Epoch& epoch, const ActorRef& actor) {
    if (a.size == 0 || a.ptr == 0) return;
    uintptr_t end = a.ptr + a.size;
    Allocation* al = AllocationAt(a.ptr, &end);
    if (al == nullptr) return;
    ++accesses_;
    for (const AccessRecord* r : al->shadow.Conflicts(a.ptr, end, a.write, now)) {
      if (!seen_.insert(RaceKey(al->view.base, *r->actor, *actor)).second) continue;
      std::string text = FormatRace(reports_.size() + 1, al->view, *r, a.ptr, end, a.write, *actor);
      // Under mssanitizer the tool prints the reports, after the program's own output.
      if (dfx::SanitizerLogOn()) {
        RecordRace(text);
      } else {
        std::fprintf(stderr, "%s\n", text.c_str());
        std::fflush(stderr);
      }
      reports_.push_back(std::move(text));
    }
    al->shadow.Add(AccessRecord{a.ptr, end, a.write, epoch, actor}, now);
  }

  std::mutex mu_;
  std::map<int32_t, StreamState> streams_;  // by stream id (never reused)
  uint32_t next_component_ = 1;
  VectorClock host_clock_{1};
  bool wake_ = false;
  std::unordered_map<const void*, std::deque<FlagSnapshot>> flags_;
  std::unordered_map<const void*, WordState> words_;
  std::unordered_map<const void*, CallbackContext> callbacks_;
  std::map<uintptr_t, Allocation> allocations_;  // by base
  std::unordered_set<std::string> seen_;
  std::vector<std::string> reports_;
  uint64_t accesses_ = 0;
};

Detector& D() {
  static Detector* d = new Detector();  // never destroyed: hooks may run during exit
  return *d;
}

void PrintSummary() {
  const size_t races = D().Reports().size();
  if (dfx::SanitizerLogOn()) {
    RecordRaceSummary(races, D().Accesses());
    return;
  }
  std::fprintf(stderr, "npurt racecheck: %zu race%s reported (%llu device-memory accesses checked)\n", races,
               races == 1 ? "" : "s", static_cast<unsigned long long>(D().Accesses()));
}

// NPURT_RACECHECK=1 turns the detector on as the library loads, and prints a summary at exit.
const bool g_from_environment = [] {
  const char* v = npurt::env::Raw(npurt::env::Var::kRacecheck);
  if (v == nullptr || std::strcmp(v, "1") != 0) return false;
  g_enabled.store(true, std::memory_order_relaxed);
  std::atexit(&PrintSummary);
  return true;
}();

// Parameters declared `const T*` (any const before the last '*') are only read.
bool ReadOnlyPointee(const char* type) {
  if (type == nullptr) return false;
  const char* star = std::strrchr(type, '*');
  if (star == nullptr) return false;  // GM_ADDR and other typedefs: conservatively written
  const std::string head(type, star);
  return head.find("const") != std::string::npos;
}

// A kernel touches the whole allocation each pointer argument points into (it may index anywhere in
// it); written unless the parameter's type says the data is const.
void KernelAccesses(const hal::KernelLaunch& k, std::vector<Access>* out) {
  if (k.args == nullptr || k.args_size < sizeof(void*)) return;
  const auto* args = static_cast<const uint8_t*>(k.args);
  const auto add = [&](uintptr_t p, bool write) {
    Device* dev = Runtime::Get().DeviceOwning(reinterpret_cast<const void*>(p));
    AllocationInfo info;
    if (dev == nullptr || !dev->allocator().Lookup(reinterpret_cast<const void*>(p), &info)) return;
    for (Access& a : *out) {
      if (a.ptr == info.base) {
        a.write = a.write || write;
        return;
      }
    }
    out->push_back(Access{info.base, info.size, write});
  };
  const KernelFunction* f = k.owner != nullptr ? LaunchFunction(&k) : nullptr;
  if (f != nullptr && f->param_count() > 0) {
    for (uint32_t i = 0; i < f->param_count(); ++i) {
      const npurt_kernel_param& p = f->param(i);
      if (p.kind != NPURT_KERNEL_PARAM_POINTER || p.size != sizeof(void*) || p.offset + sizeof(void*) > k.args_size) {
        continue;
      }
      uintptr_t v = 0;
      std::memcpy(&v, args + p.offset, sizeof v);
      add(v, !ReadOnlyPointee(p.type));
    }
    return;
  }
  // No parameter list: every aligned word that points into an allocation is taken for a pointer.
  for (size_t off = 0; off + sizeof(void*) <= k.args_size; off += sizeof(void*)) {
    uintptr_t v = 0;
    std::memcpy(&v, args + off, sizeof v);
    add(v, true);
  }
}

bool PageableHost(const void* p, size_t size) {
  return Runtime::Get().DeviceOwning(p) == nullptr && !PinnedHost::Get().IsPinned(p, size);
}

size_t Extent2d(const hal::Task& t, size_t pitch) { return t.height == 0 ? 0 : pitch * (t.height - 1) + t.size; }

// Fills `p` from the task: its accesses, what it waits for or signals, its API name.
void Describe(const hal::Task& task, std::optional<Declared>& declared, PendingTask* p, Actor* actor) {
  const auto ptr = [](const void* v) { return reinterpret_cast<uintptr_t>(v); };
  switch (task.kind) {
    case hal::TaskKind::kCopy:
      actor->api = "aclrtMemcpyAsync";
      p->accesses = {{ptr(task.src), task.size, false}, {ptr(task.dst), task.size, true}};
      p->host_waits = PageableHost(task.dst, task.size);
      break;
    case hal::TaskKind::kCopy2d:
      actor->api = "aclrtMemcpy2dAsync";
      p->accesses = {{ptr(task.src), Extent2d(task, task.spitch), false},
                     {ptr(task.dst), Extent2d(task, task.dpitch), true}};
      p->host_waits = PageableHost(task.dst, Extent2d(task, task.dpitch));
      break;
    case hal::TaskKind::kFill8:
      actor->api = "aclrtMemsetAsync";
      p->accesses = {{ptr(task.dst), task.size, true}};
      break;
    case hal::TaskKind::kFill32:
      actor->api = "aclrtMemsetD32Async";
      p->accesses = {{ptr(task.dst), task.size * 4, true}};
      break;
    case hal::TaskKind::kKernel:
      actor->api = "aclrtLaunchKernel";
      if (task.kernel != nullptr) {
        actor->name = task.kernel->name != nullptr ? task.kernel->name : "";
        KernelAccesses(*task.kernel, &p->accesses);
      }
      break;
    case hal::TaskKind::kDispatch:
      actor->api = "operator";
      if (declared) {
        actor->name = std::move(declared->name);
        for (const Range& r : declared->reads) p->accesses.push_back({ptr(r.ptr), r.size, false});
        for (const Range& r : declared->writes) p->accesses.push_back({ptr(r.ptr), r.size, true});
      }
      break;
    case hal::TaskKind::kFlagSignal:
      actor->api = "record";
      if (task.aux == 0 && task.flag != nullptr) {  // graph replay's relative values are not tracked
        p->signal = Signal::kFlag;
        p->signal_object = task.flag;
        p->signal_value = task.value;
      }
      break;
    case hal::TaskKind::kFlagWait:
      actor->api = "wait";
      if (task.aux == 0 && task.src == nullptr && task.flag != nullptr) {
        p->wait.kind = WaitKey::Kind::kFlag;
        p->wait.object = task.flag;
        p->wait.value = task.value;
        p->wait.shared = task.flag->shared_area() != nullptr;
      }
      break;
    case hal::TaskKind::kValueWrite:
      actor->api = "aclrtValueWrite";
      p->signal = Signal::kValueWrite;
      p->signal_object = task.dst;
      p->signal_value = task.value;
      break;
    case hal::TaskKind::kValueUpdate:
      actor->api = "aclrtCntNotifyRecord";
      p->signal = Signal::kValueUpdate;
      p->signal_object = task.dst;
      p->signal_value = task.value;
      p->update_op = task.aux;
      break;
    case hal::TaskKind::kValueWait:
      actor->api = "aclrtValueWait";
      p->wait.kind = WaitKey::Kind::kValue;
      p->wait.object = task.dst;
      p->wait.value = task.value;
      p->wait.compare = task.aux;
      break;
    case hal::TaskKind::kHostFunc:
      actor->api = "callback";
      p->callback_key = task.host_arg;
      break;
    default:
      actor->api = "task";  // no-ops, labels, failures, graph replays: no tracked access
      break;
  }
}

}  // namespace

void SetEnabled(bool on) {
  D().Reset();
  g_enabled.store(on, std::memory_order_relaxed);
}

std::vector<std::string> Reports() { return D().Reports(); }
uint64_t AccessesChecked() { return D().Accesses(); }
void ClearReports() { D().ClearReports(); }

void OnSubmit(Stream* stream, const hal::Task& task) {
  // A declaration is for the next dispatch (an operator's dump tasks may come before it).
  std::optional<Declared> declared;
  if (task.kind == hal::TaskKind::kDispatch) {
    declared = std::move(t_declared);
    t_declared.reset();
  }
  if (stream->recording() != nullptr) return;  // recorded into a graph: it runs at replay
  PendingTask p;
  auto actor = std::make_shared<Actor>();
  actor->stream = stream->id();
  actor->device = stream->device()->id();
  actor->task = task.id;
  Describe(task, declared, &p, actor.get());
  p.actor = std::move(actor);
  D().Submit(stream, std::move(p));
}

void DeclareDispatch(const char* name, std::vector<Range> reads, std::vector<Range> writes) {
  t_declared = Declared{name != nullptr ? name : "", std::move(reads), std::move(writes)};
}

void OnHostAccess(const char* api, const void* dst, size_t dst_size, const void* src, size_t src_size) {
  auto actor = std::make_shared<Actor>();
  actor->api = api;
  if (t_callback != nullptr) {
    actor->callback_stream = t_callback->stream;
    actor->callback_task = t_callback->task;
  }
  std::vector<Access> accesses;
  if (src != nullptr) accesses.push_back({reinterpret_cast<uintptr_t>(src), src_size, false});
  if (dst != nullptr) accesses.push_back({reinterpret_cast<uintptr_t>(dst), dst_size, true});
  D().HostAccess(actor, accesses);
}

void OnStreamSynchronized(const Stream* stream) {
  const int32_t id = stream->id();
  D().HostSynchronized([id](const StreamState& st) { return st.id == id; });
}

void OnDeviceSynchronized(const Device* device) {
  D().HostSynchronized([device](const StreamState& st) { return st.device == device; });
}

void OnFlagObserved(const hal::Flag* flag, uint64_t value) {
  if (value != 0) D().FlagObserved(flag, value);
}

void OnFree(const void* base) { D().Free(reinterpret_cast<uintptr_t>(base)); }

void OnSyncObjectDestroyed(const void* flag_or_word) { D().SyncObjectDestroyed(flag_or_word); }

bool CallbackScope::Enter(const void* key) { return D().EnterCallback(key); }
void CallbackScope::Leave() { t_callback.reset(); }

}  // namespace npurt::core::racecheck
