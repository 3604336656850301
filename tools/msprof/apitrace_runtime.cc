#include "apitrace_runtime.h"

#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <vector>

namespace npurt_apitrace {
namespace {

struct Record {  // src/dfx/prof_record.h
  uint8_t type;
  uint8_t kind;
  uint16_t device;
  int32_t stream;
  uint32_t task_id;
  uint32_t tid;
  uint64_t t0, t1, a, b;
};
static_assert(sizeof(Record) == 48, "record layout");

constexpr size_t kBatch = 4096;

struct Sink {
  std::mutex mu;
  std::FILE* file = nullptr;
  bool acl_on = false;
  bool ready = false;
};

Sink& TheSink() {
  static Sink* s = [] {
    auto* s = new Sink();
    const char* dir = std::getenv("NPURT_PROF_RAW_DIR");
    if (dir == nullptr || *dir == '\0') return s;
    uint64_t mask = 0x101;
    if (const char* m = std::getenv("NPURT_PROF_MASK")) mask = std::strtoull(m, nullptr, 0);
    s->acl_on = (mask & 0x1) != 0;
    const std::string pid = std::to_string(getpid());
    s->file = std::fopen((std::string(dir) + "/apitrace." + pid + ".bin").c_str(), "ae");
    if (std::FILE* names = std::fopen((std::string(dir) + "/apitrace_names." + pid + ".tsv").c_str(), "we")) {
      for (int i = 0; i < kNameCount; ++i) std::fprintf(names, "%d\t%s\n", i, kNames[i]);
      std::fclose(names);
    }
    s->ready = s->file != nullptr;
    return s;
  }();
  return *s;
}

struct ThreadBuffer {
  std::vector<Record> recs;
  uint32_t tid = static_cast<uint32_t>(syscall(SYS_gettid));
  ThreadBuffer() { recs.reserve(kBatch); }
  ~ThreadBuffer() { Flush(); }
  void Flush() {
    if (recs.empty()) return;
    Sink& s = TheSink();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.file != nullptr) {
      std::fwrite(recs.data(), sizeof(Record), recs.size(), s.file);
      std::fflush(s.file);
    }
    recs.clear();
  }
};

ThreadBuffer& Mine() {
  thread_local ThreadBuffer buf;
  return buf;
}

struct AtExit {
  AtExit() {
    std::atexit([] { Mine().Flush(); });
  }
} g_at_exit;

uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

void* Resolve(const char* name) {
  void* p = dlsym(RTLD_NEXT, name);
  if (p == nullptr) {
    // The program dlopen'ed the runtime privately: look in the loaded libascendcl.
    if (void* h = dlopen("libascendcl.so", RTLD_LAZY | RTLD_NOLOAD)) p = dlsym(h, name);
  }
  if (p == nullptr) {
    std::fprintf(stderr, "npurt apitrace: cannot find %s\n", name);
    std::abort();
  }
  return p;
}

// Depth of acl* calls on this thread. Only the outermost call is the program's: the runtime calls its own
// exported functions too (aclopExecuteV2 reads its buffers with aclGetDataBufferAddr), and through the PLT
// those calls land here; they are part of the outer call's time, not calls of the program.
namespace {
thread_local int g_depth = 0;
}  // namespace

uint64_t Start(int runtime_api) {
  if (g_depth++ > 0) return 0;
  Sink& s = TheSink();
  // Every acl* entry point is CANN's AscendCL level (--ascendcl). aclrt* calls are AscendCL API too: CANN's
  // Runtime level (--runtime-api) is the rt* layer below them, which npurt does not have.
  (void)runtime_api;
  if (!s.ready || !s.acl_on) return 0;
  return NowNs();
}

void End(int index, int runtime_api, uint64_t start_ns) {
  (void)runtime_api;
  --g_depth;
  if (start_ns == 0) return;
  ThreadBuffer& b = Mine();
  Record r{};
  r.type = 3;
  r.stream = -1;
  r.tid = b.tid;
  r.t0 = start_ns;
  r.t1 = NowNs();
  r.a = static_cast<uint64_t>(index);
  b.recs.push_back(r);
  if (b.recs.size() >= kBatch) b.Flush();
}

}  // namespace npurt_apitrace
