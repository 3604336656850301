#include "core/prof_tasks.h"

#include <algorithm>
#include <atomic>

#include "base/clock.h"
#include "dfx/prof_record.h"

namespace npurt::core {
namespace {

// The kind names and engines that tools/msprof shows (written to info.<pid>.json, so the tool never
// hard-codes the driver's enum).
dfx::TaskKindInfo DescribeKind(uint8_t kind) {
  switch (static_cast<hal::TaskKind>(kind)) {
    case hal::TaskKind::kNop: return {"NOP", "SCHEDULER"};
    case hal::TaskKind::kCopy: return {"MEMCPY", "DMA"};
    case hal::TaskKind::kCopy2d: return {"MEMCPY2D", "DMA"};
    case hal::TaskKind::kFill8: return {"MEMSET", "DMA"};
    case hal::TaskKind::kFill32: return {"MEMSET32", "DMA"};
    case hal::TaskKind::kHostFunc: return {"HOST_FUNC", "HOST_CPU"};
    case hal::TaskKind::kFlagSignal: return {"EVENT_RECORD", "SCHEDULER"};
    case hal::TaskKind::kFlagWait: return {"EVENT_WAIT", "SCHEDULER"};
    case hal::TaskKind::kValueWrite: return {"VALUE_WRITE", "SCHEDULER"};
    case hal::TaskKind::kValueWait: return {"VALUE_WAIT", "SCHEDULER"};
    case hal::TaskKind::kFail: return {"FAIL", "SCHEDULER"};
    case hal::TaskKind::kBatch: return {"MODEL_EXECUTE", "SCHEDULER"};
    case hal::TaskKind::kValueUpdate: return {"NOTIFY_RECORD", "SCHEDULER"};
    case hal::TaskKind::kLabelSet: return {"LABEL_SET", "SCHEDULER"};
    case hal::TaskKind::kLabelSwitch: return {"LABEL_SWITCH", "SCHEDULER"};
    case hal::TaskKind::kFlagRead: return {"EVENT_RESET", "SCHEDULER"};
    // Operators (named by their kOpInfo record) and the device's built-ins.
    case hal::TaskKind::kDispatch: return {"COMPUTE", "AI_CORE"};
    case hal::TaskKind::kKernel: return {"KERNEL", "AI_CORE"};
    default: break;
  }
  // Compute work (kernels, operators) and kinds added after this table: the AI-core engine.
  return {nullptr, "AI_CORE"};
}

bool IsFlagKind(hal::TaskKind k) { return k == hal::TaskKind::kFlagSignal || k == hal::TaskKind::kFlagWait; }

// The driver's completion hook: one kTask record per task that ran.
class TaskTimeObserver final : public hal::TaskObserver {
 public:
  void OnTaskDone(const hal::QueueOptions& queue, const hal::Task& task, uint64_t start_ns, uint64_t end_ns,
                  int32_t code) override {
    if (!dfx::ProfOn(dfx::prof_bits::kAnyTaskTime)) return;
    dfx::Record r{};
    r.type = dfx::RecordType::kTask;
    r.kind = static_cast<uint8_t>(task.kind);
    r.device = static_cast<uint16_t>(queue.trace_device);
    r.stream = queue.trace_stream;
    r.task_id = task.id;
    r.tid = dfx::CurrentTid();
    r.t0 = start_ns;
    r.t1 = end_ns;
    if (IsFlagKind(task.kind)) {
      r.a = reinterpret_cast<uintptr_t>(task.flag);
      r.b = (static_cast<uint64_t>(static_cast<uint32_t>(code)) << 32) | (task.value & 0xffffffffu);
    } else {
      r.a = task.kind == hal::TaskKind::kCopy2d ? task.size * task.height
            : task.kind == hal::TaskKind::kFill32 ? task.size * 4 : task.size;
      r.b = static_cast<uint64_t>(static_cast<uint32_t>(code)) << 32;
    }
    dfx::PushRecord(r);
  }
};
TaskTimeObserver g_observer;

// The devices the runtime opened (InstallTaskObserver), so that a profiling session switches the observer
// on and off on each. Lock-free: the switch may come from an aclInit hook, with the runtime's lock held,
// or from a fork child. A device and the switch are each stored before the other is read (seq_cst), so a
// device opened while a session starts is installed by one side or the other. A late install after a stop
// leaves an observer that records nothing (it checks the profiler's mask first).
constexpr uint32_t kMaxDevices = 64;
std::atomic<hal::Device*> g_devices[kMaxDevices];
std::atomic<uint32_t> g_device_count{0};
std::atomic<bool> g_collecting{false};

void Collect(bool on) {
  g_collecting.store(on, std::memory_order_seq_cst);
  const uint32_t n = std::min(g_device_count.load(std::memory_order_seq_cst), kMaxDevices);
  for (uint32_t i = 0; i < n; ++i) {
    if (hal::Device* d = g_devices[i].load(std::memory_order_seq_cst)) d->SetTaskObserver(on ? &g_observer : nullptr);
  }
}

constexpr dfx::TaskTimeSource kSource{&DescribeKind, &Collect};

// Registered when the library loads: the profiler may start (msprof, the aclInit JSON) before any device is.
[[maybe_unused]] const bool g_registered = [] {
  dfx::SetTaskTimeSource(&kSource);
  return true;
}();

}  // namespace

void InstallTaskObserver(hal::Device* device) {
  const uint32_t i = g_device_count.fetch_add(1, std::memory_order_seq_cst);
  if (i >= kMaxDevices) {
    device->SetTaskObserver(&g_observer);  // beyond the table: always installed (it records only in sessions)
    return;
  }
  g_devices[i].store(device, std::memory_order_seq_cst);
  if (g_collecting.load(std::memory_order_seq_cst)) device->SetTaskObserver(&g_observer);
}

void ProfRecordSubmitSlow(int32_t device, int32_t stream, const hal::Task& task) {
  const bool kernel = task.kind == hal::TaskKind::kKernel && task.kernel != nullptr;
  dfx::ProfRecordSubmitSlow(device, stream, static_cast<uint8_t>(task.kind), task.id,
                            kernel ? task.kernel->name : nullptr, kernel ? task.kernel->num_blocks : 0);
}

}  // namespace npurt::core
