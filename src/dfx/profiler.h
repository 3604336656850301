// Profiler: collects task timing, submissions, memory use and msproftx markers into per-thread rings
// (prof_buffer.h) and drains them on its own thread into <PROF dir>/raw/ (records.<pid>.bin,
// strings.<pid>.tsv, info.<pid>.json), which tools/msprof turns into a timeline and summaries.
//
// Control (one session at a time, as in CANN):
//   - API mode: aclprofInit(dir) -> aclprofStart(mask) ... aclprofStop -> aclprofFinalize; each Init
//     session writes one PROF_<pid>_<time>/ directory under `dir`.
//   - Command mode: `msprof` (env NPURT_PROF_RAW_DIR + NPURT_PROF_MASK) or the aclInit JSON "profiler"
//     section start collection for the whole process; the aclprof* control calls then return
//     ACL_ERROR_PROF_ALREADY_RUN, as CANN's do under msprof.
//
// Cost when off: every recording site is guarded by On(bits), one relaxed load of g_prof_mask and a test;
// the driver's task observer pointer is null. When on, a record is a clock read and a 48-byte store into
// the calling thread's ring: no lock, no allocation, no I/O on the recording thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "dfx/prof_record.h"

namespace npurt::dfx {

// Data-type bits: the values of ACL_PROF_* in acl/acl_prof.h.
namespace prof_bits {
constexpr uint64_t kAclApi = 0x0001;
constexpr uint64_t kTaskTime = 0x0002;
constexpr uint64_t kAicoreMetrics = 0x0004;
constexpr uint64_t kMsproftx = 0x0080;
constexpr uint64_t kRuntimeApi = 0x0100;
constexpr uint64_t kTaskTimeL0 = 0x0800;
constexpr uint64_t kTaskMemory = 0x1000;
constexpr uint64_t kTaskTimeL2 = 0x2000;
constexpr uint64_t kTaskTimeL3 = 0x8000;
constexpr uint64_t kAnyTaskTime = kTaskTime | kTaskTimeL0 | kTaskTimeL2 | kTaskTimeL3;
constexpr uint64_t kAnyApi = kAclApi | kRuntimeApi;
}  // namespace prof_bits

// The data types being collected now (0 when profiling is off).
extern std::atomic<uint64_t> g_prof_mask;
inline bool ProfOn(uint64_t bits) { return (g_prof_mask.load(std::memory_order_relaxed) & bits) != 0; }

enum class ProfMode { kOff, kApi, kCommand };

struct ProfSessionInfo {
  std::string prof_dir;      // PROF_* directory ("" before the first start)
  uint64_t records = 0;      // written so far
  uint64_t lost = 0;         // dropped because a ring was full
};

class Profiler {
 public:
  static Profiler& Get();

  ProfMode mode() const { return mode_.load(std::memory_order_acquire); }
  // API mode.
  Status Init(const std::string& result_dir);
  Status Finalize();
  Status Start(uint64_t mask, const std::vector<uint32_t>& devices);
  Status Stop();
  bool started() const { return started_; }
  // Command mode: starts collecting for the process into `raw_dir` (created); Stop via StopCommand().
  Status StartCommand(const std::string& raw_dir, uint64_t mask);
  Status StopCommand();
  // Writes everything recorded so far and waits for the drain (used by Stop and at exit).
  void Flush();
  // Writes out the records of every ring once (the drain thread's step; also a producer whose ring is
  // full). Returns how many.
  uint64_t DrainOnce();
  ProfSessionInfo Info();
  // In a fork child whose parent was collecting: reopens the session's files under the child's pid.
  void ContinueAfterFork();
  const std::string& result_dir() const { return result_dir_; }
  void set_result_dir(const std::string& dir) { result_dir_ = dir; }

 private:
  Profiler() = default;
  Status OpenSession(const std::string& raw_dir, uint64_t mask);
  void CloseSession();
  void DrainLoop();
  void WriteInfo(bool final_info);

  std::atomic<ProfMode> mode_{ProfMode::kOff};
  bool started_ = false;
  std::string result_dir_;
  std::string prof_dir_;
  std::string raw_dir_;
  uint64_t session_mask_ = 0;
  std::vector<uint32_t> devices_;
  uint64_t start_mono_ns_ = 0;
  uint64_t start_real_ns_ = 0;
  bool in_fork_child_ = false;
};

// Interns `text` and returns its id (stable for the process); new strings reach strings.<pid>.tsv.
uint64_t ProfString(std::string_view text);
// The text of an interned id ("" if unknown), e.g. for ids that aclprofStr2Id handed out.
std::string ProfStringText(uint64_t id);

// Task timing comes from the runtime below the profiler, which knows its task kinds and how its driver
// reports a task's completion (core/prof_tasks.cc registers the source): the profiler never sees a task.
struct TaskKindInfo {
  const char* name;    // null: a kind without a table entry, shown as KERNEL_<kind>
  const char* engine;  // DMA, SCHEDULER, HOST_CPU, AI_CORE
};
struct TaskTimeSource {
  TaskKindInfo (*describe)(uint8_t kind);  // the names and engines tools/msprof shows (info.<pid>.json)
  void (*collect)(bool on);                // starts / stops recording task completions (kTask records)
};
// Installs the source (process lifetime); a session collecting task times already switches it on.
void SetTaskTimeSource(const TaskTimeSource* source);
// Appends a record to the calling thread's ring (the task records the source builds).
void PushRecord(const Record& r);

// Recording helpers; each is a no-op unless its data type is on. Cheap: call them unguarded.
// A task's submission (call it only while task time is collected): its kind, id and, for a kernel, name and
// block count.
void ProfRecordSubmitSlow(int32_t device, int32_t stream, uint8_t kind, uint32_t task_id, const char* kernel,
                          uint32_t num_blocks);
void ProfRecordMemory(int32_t device, uint64_t bytes_in_use, int64_t delta);
void ProfRecordApi(const char* name, uint64_t start_ns, uint64_t end_ns);
// Names a task (kernels and operators call it at submission so the timeline shows their name).
void ProfNameTask(uint32_t task_id, std::string_view name);
// Describes operator task `task_id`: its name and the interned "<type>|<block num>|<inputs>|<outputs>"
// string (prof_record.h, kOpInfo). Operators call it at submission (ops/op_prof.h builds the strings).
void ProfRecordOpInfo(uint32_t task_id, uint64_t name_id, uint64_t detail_id);
// An operator compile-cache event (RecordType::kOpCache): 0 hit, 1 miss compiled in compile_ns, 2 eviction,
// 3 miss served by re-tiling a kernel of the same family in compile_ns, 4 a re-tiled entry compiled for its
// own shapes (at a hit) in compile_ns.
void ProfRecordOpCache(std::string_view op_type, uint8_t event, uint64_t compile_ns);
void ProfRecordMark(std::string_view message, int32_t stream);
void ProfRecordRange(std::string_view message, uint64_t start_ns, uint64_t end_ns);
void ProfRecordStep(uint64_t index, uint32_t tag, int32_t stream, uint64_t ns);

uint32_t CurrentTid();

}  // namespace npurt::dfx
