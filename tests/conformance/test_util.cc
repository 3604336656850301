#include "test_util.h"

#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace cts {

// ---------------------------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------------------------

namespace {

std::string RecentMessage() {
  const char* msg = aclGetRecentErrMsg();
  return msg != nullptr && msg[0] != '\0' ? std::string(msg) : std::string("<no recent error message>");
}

}  // namespace

testing::AssertionResult AclSucceeded(const char* expr_text, aclError result) {
  if (result == ACL_SUCCESS) return testing::AssertionSuccess();
  return testing::AssertionFailure() << expr_text << " returned " << result << ", expected ACL_SUCCESS\n  recent error: "
                                     << RecentMessage();
}

testing::AssertionResult AclFailedWith(const char* expected_text, const char* expr_text, aclError expected,
                                       aclError result) {
  if (result == expected) return testing::AssertionSuccess();
  return testing::AssertionFailure() << expr_text << " returned " << result << ", expected " << expected_text << " ("
                                     << expected << ")\n  recent error: " << RecentMessage();
}

testing::AssertionResult AclRejectedHandle(const char* expr_text, aclError result) {
  if (result == ACL_ERROR_RT_INVALID_HANDLE || result == ACL_ERROR_INVALID_PARAM) return testing::AssertionSuccess();
  return testing::AssertionFailure() << expr_text << " returned " << result
                                     << ", expected ACL_ERROR_RT_INVALID_HANDLE (107017) or ACL_ERROR_INVALID_PARAM "
                                        "(100000) for a bad handle";
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

void ClearErrorState() {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  (void)aclGetRecentErrMsg();
}

bool RunKnownBugs() {
  const char* v = std::getenv("NPURT_CTS_RUN_KNOWN_BUGS");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

uint32_t DeviceCount() {
  uint32_t n = 0;
  if (aclrtGetDeviceCount(&n) != ACL_SUCCESS) return 0;
  return n;
}

void CtsTest::SetUp() {
  CTS_SKIP_IF_UNSUPPORTED();
  ASSERT_ACL_OK(aclrtSetDevice(0));
  device_set_ = true;
  ClearErrorState();
}

void CtsTest::TearDown() {
  if (device_set_) {
    EXPECT_ACL_OK(aclrtResetDevice(0)) << "the test left device 0 in an unexpected state";
  }
  ClearErrorState();
}

void CtsNoDeviceTest::SetUp() {
  CTS_SKIP_IF_UNSUPPORTED();
  ClearErrorState();
}

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

void FillRandom(void* p, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
  auto* out = static_cast<uint8_t*>(p);
  size_t i = 0;
  while (i < n) {
    uint64_t v = rng();
    for (int b = 0; b < 8 && i < n; ++b, ++i) out[i] = static_cast<uint8_t>(v >> (8 * b));
  }
  if (n > 0 && AllBytesAre(p, n, 0)) out[0] = 0x5a;  // never all zeros
}

std::vector<uint8_t> RandomBytes(size_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  FillRandom(v.data(), n, seed);
  return v;
}

long FirstDifference(const void* a, const void* b, size_t n) {
  const auto* x = static_cast<const uint8_t*>(a);
  const auto* y = static_cast<const uint8_t*>(b);
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return static_cast<long>(i);
  }
  return -1;
}

bool AllBytesAre(const void* p, size_t n, uint8_t value) {
  const auto* x = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != value) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Owners
// ---------------------------------------------------------------------------------------------

DevBuf::DevBuf(size_t size, aclrtMemMallocPolicy policy) : size_(size) {
  if (aclrtMalloc(&ptr_, size, policy) != ACL_SUCCESS) {
    ADD_FAILURE() << "aclrtMalloc(" << size << ") failed: " << RecentMessage();
    ptr_ = nullptr;
  }
}

DevBuf::~DevBuf() {
  if (ptr_ != nullptr) {
    EXPECT_ACL_OK(aclrtFree(ptr_));
  }
}

aclError DevBuf::Upload(const void* src, size_t n, size_t offset) {
  return aclrtMemcpy(bytes() + offset, size_ - offset, src, n, ACL_MEMCPY_HOST_TO_DEVICE);
}

aclError DevBuf::Download(void* dst, size_t n, size_t offset) const {
  return aclrtMemcpy(dst, n, bytes() + offset, n, ACL_MEMCPY_DEVICE_TO_HOST);
}

std::vector<uint8_t> DevBuf::Read() const {
  std::vector<uint8_t> out(size_);
  EXPECT_ACL_OK(Download(out.data(), size_));
  return out;
}

PinnedBuf::PinnedBuf(size_t size) : size_(size) {
  if (aclrtMallocHost(&ptr_, size) != ACL_SUCCESS) {
    ADD_FAILURE() << "aclrtMallocHost(" << size << ") failed: " << RecentMessage();
    ptr_ = nullptr;
  }
}

PinnedBuf::~PinnedBuf() {
  if (ptr_ != nullptr) {
    EXPECT_ACL_OK(aclrtFreeHost(ptr_));
  }
}

Stream::Stream() {
  if (aclrtCreateStream(&s_) != ACL_SUCCESS) {
    ADD_FAILURE() << "aclrtCreateStream failed: " << RecentMessage();
    s_ = nullptr;
  }
}

Stream::Stream(uint32_t priority, uint32_t flags) {
  if (aclrtCreateStreamWithConfig(&s_, priority, flags) != ACL_SUCCESS) {
    ADD_FAILURE() << "aclrtCreateStreamWithConfig failed: " << RecentMessage();
    s_ = nullptr;
  }
}

Stream::~Stream() {
  if (s_ != nullptr) {
    EXPECT_ACL_OK(aclrtDestroyStream(s_));
  }
}

Event::Event(uint32_t flags, bool reusable) {
  const aclError e = reusable ? aclrtCreateEventExWithFlag(&e_, flags) : aclrtCreateEventWithFlag(&e_, flags);
  if (e != ACL_SUCCESS) {
    ADD_FAILURE() << "event creation failed: " << RecentMessage();
    e_ = nullptr;
  }
}

Event::~Event() {
  if (e_ != nullptr) {
    EXPECT_ACL_OK(aclrtDestroyEvent(e_));
  }
}

DeviceGate::DeviceGate() {
  if (!Backend().deferred_execution) {
    // Blocking a stream would block this thread forever: the test must be listed as unsupported.
    throw std::logic_error("DeviceGate used on backend '" + Backend().name +
                           "', which has no deferred execution: list the test in tests/conformance/backends.cc");
  }
  if (aclrtMalloc(&word_, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    ADD_FAILURE() << "DeviceGate: aclrtMalloc failed: " << RecentMessage();
    word_ = nullptr;
    return;
  }
  const uint64_t zero = 0;
  EXPECT_ACL_OK(aclrtMemcpy(word_, sizeof zero, &zero, sizeof zero, ACL_MEMCPY_HOST_TO_DEVICE));
}

DeviceGate::~DeviceGate() {
  if (word_ == nullptr) return;
  if (!open_) {
    EXPECT_ACL_OK(Open());
  }
  // The free is stream-ordered: waits still queued on the word finish first.
  EXPECT_ACL_OK(aclrtFree(word_));
}

aclError DeviceGate::Block(aclrtStream stream) {
  return aclrtValueWait(word_, 1, ACL_STREAM_WAIT_VALUE_GEQ, stream);
}

aclError DeviceGate::Open() {
  open_ = true;
  const uint64_t one = 1;
  return aclrtMemcpy(word_, sizeof one, &one, sizeof one, ACL_MEMCPY_HOST_TO_DEVICE);
}

uint64_t CurrentThreadId() { return static_cast<uint64_t>(pthread_self()); }

CallbackThread::CallbackThread(Kind kind) : kind_(kind) {
  std::atomic<bool> started{false};
  std::atomic<uint64_t> id{0};
  thread_ = std::thread([this, &started, &id] {
    id.store(CurrentThreadId());
    started.store(true);
    while (!stop_.load()) {
      if (!running_.load()) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        continue;
      }
      const aclError e = kind_ == Kind::kReport ? aclrtProcessReport(20) : aclrtProcessHostFunc(20);
      if (e == ACL_SUCCESS) {
        served_.fetch_add(1);
      } else if (e == ACL_ERROR_THREAD_NOT_SUBSCRIBE) {
        // Unsubscribed while running: a real serving loop would stop; back off briefly.
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      } else if (e != ACL_ERROR_WAIT_CALLBACK_TIMEOUT) {
        unexpected_.fetch_add(1);
      }
    }
    ClearErrorState();
  });
  while (!started.load()) std::this_thread::yield();
  id_ = id.load();
  std_id_ = thread_.get_id();
}

CallbackThread::~CallbackThread() { Stop(); }

void CallbackThread::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

namespace {

std::map<std::string, ChildFn>& Children() {
  static auto* m = new std::map<std::string, ChildFn>();
  return *m;
}

std::string SelfExe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "/proc/self/exe";
  buf[n] = '\0';
  return buf;
}

}  // namespace

ChildRegistrar::ChildRegistrar(const char* name, ChildFn fn) { Children()[name] = fn; }

int FinishChildOnDevice0() {
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return 0;
}

void ChildReport(const char* key, long long value) {
  std::printf("cts:%s=%lld\n", key, value);
  std::fflush(stdout);
}

void ChildReportText(const char* key, const std::string& value) {
  std::printf("cts:%s=%s\n", key, value.c_str());
  std::fflush(stdout);
}

long long ChildResult::Int(const std::string& key) const {
  auto it = values.find(key);
  if (it == values.end()) {
    ADD_FAILURE() << "the child did not report '" << key << "'; its output:\n" << output;
    return -1;
  }
  return std::strtoll(it->second.c_str(), nullptr, 10);
}

std::string ChildResult::Text(const std::string& key) const {
  auto it = values.find(key);
  if (it == values.end()) {
    ADD_FAILURE() << "the child did not report '" << key << "'; its output:\n" << output;
    return std::string();
  }
  return it->second;
}

int RunChildScenario(const char* name) {
  auto it = Children().find(name);
  if (it == Children().end()) {
    std::fprintf(stderr, "unknown conformance child scenario '%s'\n", name);
    return 125;
  }
  return it->second();
}

ChildResult RunChild(const std::string& name, const std::vector<std::pair<std::string, std::string>>& env,
                     int timeout_s) {
  ChildResult result;
  // The environment: ours, with the overrides replacing variables of the same name.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto& kv : env) overridden = overridden || kv.first == key;
    if (!overridden) env_strings.push_back(entry);
  }
  for (const auto& kv : env) env_strings.push_back(kv.first + "=" + kv.second);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  const std::string exe = SelfExe();
  std::string arg0 = exe, arg1 = "--cts-child", arg2 = name;
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2 failed";
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    ADD_FAILURE() << "posix_spawn of " << exe << " failed: " << std::strerror(rc);
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, 100);
    if (ready > 0) {
      char buf[4096];
      const ssize_t n = read(fds[0], buf, sizeof buf);
      if (n <= 0) break;  // EOF: the child exited (or closed its output)
      result.output.append(buf, static_cast<size_t>(n));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) {
    ADD_FAILURE() << "child scenario '" << name << "' did not finish within " << timeout_s << " s; output:\n"
                  << result.output;
    result.exit_code = -1;
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else {
    result.exit_code = 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  }
  size_t pos = 0;
  while (pos < result.output.size()) {
    size_t end = result.output.find('\n', pos);
    if (end == std::string::npos) end = result.output.size();
    const std::string line = result.output.substr(pos, end - pos);
    if (line.rfind("cts:", 0) == 0) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) result.values[line.substr(4, eq - 4)] = line.substr(eq + 1);
    }
    pos = end + 1;
  }
  return result;
}

bool WaitForFile(const std::string& path, std::string* content, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(path);
    if (in) {
      std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!s.empty()) {
        *content = s;
        return true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

void WriteFile(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << content;
  std::rename(tmp.c_str(), path.c_str());
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempDir() {
  char tmpl[] = "/tmp/npurt-cts-ipc-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d != nullptr ? d : "/tmp";
}

const char* EnvOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

static int RemoveEntry(const char* path, const struct stat*, int, struct FTW*) { return remove(path); }

// A fresh directory under $TMPDIR, removed with everything in it when the test process exits.
std::string MakeTempDir(const char* tag) {
  static std::vector<std::string>* made = [] {
    auto* v = new std::vector<std::string>();
    std::atexit([] {
      for (const auto& d : *made) nftw(d.c_str(), &RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
    });
    return v;
  }();
  std::string tmpl = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/npurt_" + tag + "_XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  const char* d = mkdtemp(buf.data());
  if (d == nullptr) return "";
  made->push_back(d);
  return d;
}

}  // namespace cts
