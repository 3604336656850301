#include "core/alloc/alloc_stream_fence.h"

#include "core/device.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

// The calling thread's copy of one device's stream list. Holding references keeps every listed stream
// alive (a destroyed stream is idle, so it never yields a fence); the list is rebuilt when the device's
// stream generation moves.
struct StreamSnapshot {
  Device* device = nullptr;
  uint64_t generation = UINT64_MAX;
  std::vector<Ref<Stream>> streams;
};

constexpr int kSnapshots = 4;

struct ThreadFences {
  StreamSnapshot snapshots[kSnapshots];
  int next_victim = 0;
  std::vector<StreamFence> busy;
};

// A trivially initialised pointer (one thread-local access on the hot path, no init guard); the owner
// object, touched once per thread, deletes the state when the thread exits.
thread_local ThreadFences* t_fences = nullptr;
struct ThreadFencesOwner {
  bool armed = false;
  ~ThreadFencesOwner() {
    delete t_fences;
    t_fences = nullptr;
  }
};
thread_local ThreadFencesOwner t_fences_owner;

ThreadFences& Local() {
  ThreadFences* t = t_fences;
  if (t == nullptr) [[unlikely]] {
    t = new ThreadFences();
    t_fences = t;
    t_fences_owner.armed = true;
  }
  return *t;
}

StreamSnapshot* SnapshotFor(ThreadFences& t, Device* device) {
  const uint64_t generation = device->stream_generation();
  StreamSnapshot* snap = t.snapshots[0].device == device ? &t.snapshots[0] : nullptr;
  for (int i = 1; snap == nullptr && i < kSnapshots; ++i) {
    if (t.snapshots[i].device == device) snap = &t.snapshots[i];
  }
  if (snap == nullptr) {
    snap = &t.snapshots[t.next_victim];
    t.next_victim = (t.next_victim + 1) % kSnapshots;
    snap->device = device;
    snap->generation = UINT64_MAX;
  }
  if (snap->generation != generation) {
    snap->streams = device->Streams();
    snap->generation = generation;
  }
  return snap;
}

void AppendBusy(const StreamSnapshot& snap, std::vector<StreamFence>* out) {
  for (const Ref<Stream>& s : snap.streams) {
    hal::Queue* q = s->queue();
    const uint64_t submitted = q->submitted();
    if (q->completed() < submitted) out->push_back({s, submitted});
  }
}

}  // namespace

bool FencePassed(const StreamFence& fence) { return fence.stream->Passed(fence.seq); }

bool FencesPassed(const StreamFence* fences, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!FencePassed(fences[i])) return false;
  }
  return true;
}

void CollectBusyFences(Device* device, std::vector<StreamFence>* out) {
  AppendBusy(*SnapshotFor(Local(), device), out);
}

bool AnyStreamBusy(Device* device) {
  for (const Ref<Stream>& s : SnapshotFor(Local(), device)->streams) {
    hal::Queue* q = s->queue();
    const uint64_t submitted = q->submitted();  // first, as in AppendBusy
    if (q->completed() < submitted) return true;
  }
  return false;
}

const StreamFence* BusyFences(Device* device, size_t* count) {
  ThreadFences& t = Local();
  t.busy.clear();
  AppendBusy(*SnapshotFor(t, device), &t.busy);
  *count = t.busy.size();
  return t.busy.data();
}

}  // namespace npurt::core
