#include "dfx/profiler.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "acl/acl_base_rt.h"
#include "base/clock.h"
#include "base/wall_clock.h"
#include "dfx/json_escape.h"
#include "dfx/log.h"
#include "dfx/plog_file.h"
#include "dfx/prof_buffer.h"

namespace npurt::dfx {

std::atomic<uint64_t> g_prof_mask{0};

namespace {

RingRegistry& Rings() {
  static RingRegistry* r = new RingRegistry();  // never destroyed: threads may record at exit
  return *r;
}

// Interned strings; new ones wait in `fresh` until the drain writes them.
struct StringTable {
  std::mutex mu;
  std::unordered_map<std::string, uint64_t> ids;
  std::vector<std::pair<uint64_t, std::string>> fresh;
  uint64_t next = 1;
};
StringTable& Strings() {
  static StringTable* t = new StringTable();
  return *t;
}

// The runtime's task kinds and its switch of the driver's completion hook (SetTaskTimeSource).
std::atomic<const TaskTimeSource*> g_task_source{nullptr};

void CollectTaskTimes(bool on) {
  if (const TaskTimeSource* source = g_task_source.load(std::memory_order_acquire)) source->collect(on);
}

std::string TimeStamp() { return CompactStamp(NowLocal(), 3); }

uint64_t RealNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Files and the drain thread.
struct Sink {
  std::mutex mu;  // files and counters
  std::FILE* records = nullptr;
  std::FILE* strings = nullptr;
  uint64_t written = 0;
  uint64_t lost_base = 0;
  bool open = false;
  std::condition_variable wake;
  bool thread_started = false;
};
Sink& TheSink() {
  static Sink* s = new Sink();
  return *s;
}

uint64_t TotalLost() {
  uint64_t n = 0;
  for (RecordRing* r : Rings().All()) n += r->lost();
  return n;
}

// fork(): the child must not write into the parent's files, nor inherit locks held by the parent's
// drain thread. The prepare handler takes the locks; the child drops the parent's unread records and
// files and, if a session is open, continues it in files of its own pid with its own drain thread.
void ForkPrepare() {
  Sink& s = TheSink();
  s.mu.lock();
  // Empty the stdio buffers: the child's exit() flushes every FILE it inherited, which would write the
  // parent's buffered records into the parent's files a second time.
  if (s.records != nullptr) std::fflush(s.records);
  if (s.strings != nullptr) std::fflush(s.strings);
  Strings().mu.lock();
}
void ForkParent() {
  Strings().mu.unlock();
  TheSink().mu.unlock();
}
void ForkChild() {
  Strings().mu.unlock();
  Sink& s = TheSink();
  const bool was_open = s.open;
  s.records = s.strings = nullptr;  // the parent's FILE objects: abandoned, never flushed twice
  s.open = false;
  s.thread_started = false;
  s.written = 0;
  s.mu.unlock();
  for (RecordRing* r : Rings().All()) {
    r->Drain([](const Record*, uint64_t) {});
    r->ResetLost();
  }
  if (was_open) Profiler::Get().ContinueAfterFork();
}

struct ExitFlush {
  ExitFlush() {
    pthread_atfork(&ForkPrepare, &ForkParent, &ForkChild);
    std::atexit([] {
      Profiler& p = Profiler::Get();
      if (p.mode() == ProfMode::kCommand) {
        (void)p.StopCommand();
      } else if (p.mode() == ProfMode::kApi) {
        (void)p.Finalize();
      }
    });
  }
} g_exit_flush;

}  // namespace

uint32_t CurrentTid() {
  thread_local uint32_t tid = 0;
  if (tid == 0) tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return tid;
}

uint64_t ProfString(std::string_view text) {
  StringTable& t = Strings();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.ids.find(std::string(text));
  if (it != t.ids.end()) return it->second;
  const uint64_t id = t.next++;
  t.ids.emplace(std::string(text), id);
  t.fresh.emplace_back(id, std::string(text));
  return id;
}

std::string ProfStringText(uint64_t id) {
  StringTable& t = Strings();
  std::lock_guard<std::mutex> lock(t.mu);
  for (const auto& [text, sid] : t.ids) {
    if (sid == id) return text;
  }
  return {};
}

Profiler& Profiler::Get() {
  static Profiler* p = new Profiler();
  return *p;
}

Status Profiler::OpenSession(const std::string& raw_dir, uint64_t mask) {
  if (!MakeDirs(raw_dir)) {
    return Err(ACL_ERROR_INVALID_PROFILING_CONFIG, "cannot create the profiling directory '{}'", raw_dir);
  }
  Sink& s = TheSink();
  std::unique_lock<std::mutex> lock(s.mu);
  if (!s.open) {
    const std::string pid = std::to_string(getpid());
    s.records = std::fopen((raw_dir + "/records." + pid + ".bin").c_str(), "ae");
    s.strings = std::fopen((raw_dir + "/strings." + pid + ".tsv").c_str(), "ae");
    if (s.records == nullptr || s.strings == nullptr) {
      if (s.records) std::fclose(s.records);
      if (s.strings) std::fclose(s.strings);
      s.records = s.strings = nullptr;
      return Err(ACL_ERROR_INVALID_PROFILING_CONFIG, "cannot write profiling data under '{}'", raw_dir);
    }
    // Every string interned so far goes to the new files too (ids are process-wide).
    {
      StringTable& t = Strings();
      std::lock_guard<std::mutex> sl(t.mu);
      t.fresh.clear();
      for (auto& [text, id] : t.ids) t.fresh.emplace_back(id, text);
    }
    // Records left in the rings from before this session (a recorder that raced the last stop).
    for (RecordRing* r : Rings().All()) {
      r->Drain([](const Record*, uint64_t) {});
      r->ResetLost();
    }
    s.written = 0;
    s.lost_base = 0;
    s.open = true;
    raw_dir_ = raw_dir;
    start_mono_ns_ = NowNs();
    start_real_ns_ = RealNs();
  }
  // Rings for the threads that record first: the caller, the device executors and the host engine.
  Rings().Prepare(4);
  if (!s.thread_started) {
    s.thread_started = true;
    std::thread([this] { DrainLoop(); }).detach();
  }
  lock.unlock();
  session_mask_ |= mask;
  if (mask & prof_bits::kAnyTaskTime) CollectTaskTimes(true);
  g_prof_mask.store(session_mask_, std::memory_order_release);
  WriteInfo(false);
  // Not in a fork child: the log's own fork handler may not have run yet.
  if (!in_fork_child_) NPURT_LOG_INFO("PROFILING", "profiling started: data types {:#x}, raw data in {}", mask, raw_dir);
  return Status::Ok();
}

void Profiler::CloseSession() {
  g_prof_mask.store(0, std::memory_order_release);
  CollectTaskTimes(false);
  // A recorder that loaded the mask just before it was cleared finishes its store within microseconds.
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  Flush();
  WriteInfo(true);
  Sink& s = TheSink();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.open) {
    std::fclose(s.records);
    std::fclose(s.strings);
    s.records = s.strings = nullptr;
    s.open = false;
  }
  session_mask_ = 0;
}

uint64_t Profiler::DrainOnce() {
  Sink& s = TheSink();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.open) return 0;
  {
    StringTable& t = Strings();
    std::vector<std::pair<uint64_t, std::string>> fresh;
    {
      std::lock_guard<std::mutex> sl(t.mu);
      fresh.swap(t.fresh);
    }
    for (auto& [id, text] : fresh) {
      std::string clean = text;
      for (char& c : clean) {
        if (c == '\n' || c == '\t' || c == '\r') c = ' ';
      }
      std::fprintf(s.strings, "%llu\t%s\n", static_cast<unsigned long long>(id), clean.c_str());
    }
    if (!fresh.empty()) std::fflush(s.strings);
  }
  uint64_t n = 0;
  for (RecordRing* r : Rings().All()) {
    n += r->Drain([&](const Record* recs, uint64_t count) { std::fwrite(recs, sizeof(Record), count, s.records); });
  }
  s.written += n;
  return n;
}

void Profiler::DrainLoop() {
  Sink& s = TheSink();
  for (;;) {
    const uint64_t n = DrainOnce();
    if (n > 0) continue;
    std::unique_lock<std::mutex> lock(s.mu);
    s.wake.wait_for(lock, std::chrono::milliseconds(s.open ? 1 : 100));
  }
}

void Profiler::Flush() {
  DrainOnce();
  Sink& s = TheSink();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.open) {
    std::fflush(s.records);
    std::fflush(s.strings);
  }
}

void Profiler::WriteInfo(bool final_info) {
  if (raw_dir_.empty()) return;
  Sink& s = TheSink();
  uint64_t written;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    written = s.written;
  }
  std::string kinds;
  const TaskTimeSource* source = g_task_source.load(std::memory_order_acquire);
  for (int k = 0; source != nullptr && k < 32; ++k) {
    TaskKindInfo info = source->describe(static_cast<uint8_t>(k));
    if (!kinds.empty()) kinds += ",";
    kinds += fmt::format("\"{}\":{{\"name\":\"{}\",\"engine\":\"{}\"}}", k,
                         info.name ? info.name : fmt::format("KERNEL_{}", k).c_str(), info.engine);
  }
  std::string devices;
  for (uint32_t d : devices_) devices += (devices.empty() ? "" : ",") + std::to_string(d);
  const std::string text = fmt::format(
      "{{\"version\":1,\"pid\":{},\"process\":\"{}\",\"mask\":{},\"devices\":[{}],\"start_mono_ns\":{},"
      "\"start_real_ns\":{},\"records\":{},\"lost\":{},\"complete\":{},\"record_size\":{},\"task_kinds\":{{{}}}}}\n",
      getpid(), JsonEscape(ProcessName()), session_mask_, devices, start_mono_ns_, start_real_ns_, written, TotalLost(),
      final_info ? "true" : "false", sizeof(Record), kinds);
  const std::string path = raw_dir_ + "/info." + std::to_string(getpid()) + ".json";
  const std::string tmp = path + ".tmp";
  if (FILE* f = std::fopen(tmp.c_str(), "we")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    std::rename(tmp.c_str(), path.c_str());
  }
}

void Profiler::ContinueAfterFork() {
  const uint64_t mask = session_mask_;
  session_mask_ = 0;
  in_fork_child_ = true;
  const bool ok = OpenSession(raw_dir_, mask).ok();
  in_fork_child_ = false;
  if (!ok) {
    g_prof_mask.store(0, std::memory_order_release);
    CollectTaskTimes(false);
  }
}

Status Profiler::Init(const std::string& result_dir) {
  if (mode() == ProfMode::kCommand) {
    return Err(ACL_ERROR_PROF_ALREADY_RUN,
               "profiling is already running for this process (msprof or the aclInit profiler config); the "
               "aclprof* control API is disabled");
  }
  if (mode() == ProfMode::kApi) return Err(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit was already called");
  result_dir_ = result_dir;
  prof_dir_.clear();
  mode_.store(ProfMode::kApi, std::memory_order_release);
  return Status::Ok();
}

Status Profiler::Finalize() {
  if (mode() == ProfMode::kCommand) {
    return Err(ACL_ERROR_PROF_ALREADY_RUN, "profiling is controlled by msprof or the aclInit config");
  }
  if (mode() != ProfMode::kApi) return Err(ACL_ERROR_PROF_NOT_RUN, "aclprofFinalize called before aclprofInit");
  if (started_) {
    NPURT_LOG_WARNING("PROFILING", "aclprofFinalize while profiling runs: stopping it first");
    CloseSession();
    started_ = false;
  }
  if (!prof_dir_.empty()) {
    NPURT_LOG_EVENT("PROFILING", "profiling data written to {} (export it with: msprof --export={})", prof_dir_,
                    prof_dir_);
  }
  raw_dir_.clear();
  mode_.store(ProfMode::kOff, std::memory_order_release);
  return Status::Ok();
}

Status Profiler::Start(uint64_t mask, const std::vector<uint32_t>& devices) {
  if (mode() == ProfMode::kCommand) {
    return Err(ACL_ERROR_PROF_ALREADY_RUN, "profiling is already running under msprof or the aclInit config");
  }
  if (mode() != ProfMode::kApi) return Err(ACL_ERROR_PROF_NOT_RUN, "aclprofStart called before aclprofInit");
  if (started_) {
    return Err(ACL_ERROR_PROF_ALREADY_RUN, "profiling is already started; call aclprofStop first");
  }
  if (prof_dir_.empty()) {
    prof_dir_ = fmt::format("{}/PROF_{:06d}_{}", result_dir_.empty() ? "." : result_dir_, getpid(), TimeStamp());
  }
  devices_ = devices;
  NPURT_RETURN_IF_ERROR(OpenSession(prof_dir_ + "/raw", mask));
  started_ = true;
  return Status::Ok();
}

Status Profiler::Stop() {
  if (mode() == ProfMode::kCommand) {
    return Err(ACL_ERROR_PROF_ALREADY_RUN, "profiling is controlled by msprof or the aclInit config");
  }
  if (mode() != ProfMode::kApi) return Status::Ok();  // CANN: stop before init is a no-op
  if (!started_) return Err(ACL_ERROR_PROF_NOT_RUN, "aclprofStop called but profiling was not started");
  CloseSession();
  started_ = false;
  return Status::Ok();
}

Status Profiler::StartCommand(const std::string& raw_dir, uint64_t mask) {
  if (mode() != ProfMode::kOff) return Err(ACL_ERROR_PROF_ALREADY_RUN, "profiling is already running");
  prof_dir_ = raw_dir;
  NPURT_RETURN_IF_ERROR(OpenSession(raw_dir, mask));
  mode_.store(ProfMode::kCommand, std::memory_order_release);
  return Status::Ok();
}

Status Profiler::StopCommand() {
  if (mode() != ProfMode::kCommand) return Err(ACL_ERROR_PROF_NOT_RUN, "no command-mode profiling is running");
  CloseSession();
  mode_.store(ProfMode::kOff, std::memory_order_release);
  return Status::Ok();
}

ProfSessionInfo Profiler::Info() {
  ProfSessionInfo info;
  info.prof_dir = prof_dir_;
  Sink& s = TheSink();
  std::lock_guard<std::mutex> lock(s.mu);
  info.records = s.written;
  info.lost = TotalLost();
  return info;
}

void PushRecord(const Record& r) {
  RecordRing& ring = Rings().Mine();
  if (ring.TryPush(r)) [[likely]] {
    return;
  }
  // Full: the drain thread fell behind (on a loaded machine it may get no CPU for milliseconds). This
  // thread writes the rings out itself (under the sink's lock) rather than drop the record.
  Profiler::Get().DrainOnce();
  if (!ring.TryPush(r)) ring.CountLost();
}

namespace {
void Push(const Record& r) { PushRecord(r); }
}  // namespace

namespace {
// Interned ids of kernel names by address, per thread: no lock for a name seen before.
uint64_t CachedNameId(const char* name) {
  thread_local std::unordered_map<const void*, uint64_t> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const uint64_t id = ProfString(name);
  if (cache.size() > 4096) cache.clear();
  cache.emplace(name, id);
  return id;
}
}  // namespace

void SetTaskTimeSource(const TaskTimeSource* source) {
  g_task_source.store(source, std::memory_order_release);
  if (source != nullptr && ProfOn(prof_bits::kAnyTaskTime)) source->collect(true);
}

void ProfRecordSubmitSlow(int32_t device, int32_t stream, uint8_t kind, uint32_t task_id, const char* kernel,
                          uint32_t num_blocks) {
  if (kernel != nullptr && kernel[0] != '\0') {
    Record n{};
    n.type = RecordType::kTaskName;
    n.stream = stream;
    n.task_id = task_id;
    n.tid = CurrentTid();
    n.t0 = NowNs();
    n.a = CachedNameId(kernel);
    n.b = num_blocks;  // op_summary's Block Num
    PushRecord(n);
  }
  Record r{};
  r.type = RecordType::kSubmit;
  r.kind = kind;
  r.device = static_cast<uint16_t>(device);
  r.stream = stream;
  r.task_id = task_id;
  r.tid = CurrentTid();
  r.t0 = NowNs();
  Push(r);
}

void ProfRecordMemory(int32_t device, uint64_t bytes_in_use, int64_t delta) {
  if (!ProfOn(prof_bits::kTaskMemory)) return;
  Record r{};
  r.type = RecordType::kMemory;
  r.device = static_cast<uint16_t>(device);
  r.stream = -1;
  r.tid = CurrentTid();
  r.t0 = NowNs();
  r.a = bytes_in_use;
  r.b = static_cast<uint64_t>(delta);
  Push(r);
}

void ProfRecordApi(const char* name, uint64_t start_ns, uint64_t end_ns) {
  if (!ProfOn(prof_bits::kAnyApi)) return;
  Record r{};
  r.type = RecordType::kApi;
  r.stream = -1;
  r.tid = CurrentTid();
  r.t0 = start_ns;
  r.t1 = end_ns;
  r.a = ProfString(name);
  Push(r);
}

void ProfNameTask(uint32_t task_id, std::string_view name) {
  if (!ProfOn(prof_bits::kAnyTaskTime)) return;
  Record r{};
  r.type = RecordType::kTaskName;
  r.stream = -1;
  r.task_id = task_id;
  r.tid = CurrentTid();
  r.t0 = NowNs();
  r.a = ProfString(name);
  Push(r);
}

void ProfRecordOpInfo(uint32_t task_id, uint64_t name_id, uint64_t detail_id) {
  if (!ProfOn(prof_bits::kAnyTaskTime)) return;
  Record r{};
  r.type = RecordType::kOpInfo;
  r.stream = -1;
  r.task_id = task_id;
  r.tid = CurrentTid();
  r.t0 = NowNs();
  r.a = name_id;
  r.b = detail_id;
  Push(r);
}

void ProfRecordOpCache(std::string_view op_type, uint8_t event, uint64_t compile_ns) {
  if (!ProfOn(prof_bits::kAnyTaskTime)) return;
  Record r{};
  r.type = RecordType::kOpCache;
  r.kind = event;
  r.stream = -1;
  r.tid = CurrentTid();
  r.t1 = NowNs();
  r.t0 = r.t1 - compile_ns;
  r.a = ProfString(op_type);
  Push(r);
}

void ProfRecordMark(std::string_view message, int32_t stream) {
  if (!ProfOn(prof_bits::kMsproftx)) return;
  Record r{};
  r.type = RecordType::kMark;
  r.stream = stream;
  r.tid = CurrentTid();
  r.t0 = NowNs();
  r.a = ProfString(message);
  Push(r);
}

void ProfRecordRange(std::string_view message, uint64_t start_ns, uint64_t end_ns) {
  if (!ProfOn(prof_bits::kMsproftx)) return;
  Record r{};
  r.type = RecordType::kRange;
  r.stream = -1;
  r.tid = CurrentTid();
  r.t0 = start_ns;
  r.t1 = end_ns;
  r.a = ProfString(message);
  Push(r);
}

void ProfRecordStep(uint64_t index, uint32_t tag, int32_t stream, uint64_t ns) {
  if (g_prof_mask.load(std::memory_order_relaxed) == 0) return;
  Record r{};
  r.type = RecordType::kStep;
  r.stream = stream;
  r.tid = CurrentTid();
  r.t0 = ns;
  r.a = index;
  r.b = tag;
  Push(r);
}

}  // namespace npurt::dfx
