#include "core/rtc/rtc_compiler.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "acl/acl_rt_compile.h"
#include "base/env.h"

extern char** environ;

namespace npurt::core::rtc {
namespace fs = std::filesystem;
namespace {

// The compiler: $NPURT_ASCC, else the package's bin/npurt-ascc beside the lib64/ this library is in.
std::string CompilerPath() {
  if (const char* v = env::Raw(env::Var::kAscc); v != nullptr && *v != '\0') return v;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&CompilerPath), &info) != 0 && info.dli_fname != nullptr) {
    return (fs::path(info.dli_fname).parent_path().parent_path() / "bin" / "npurt-ascc").string();
  }
  return "npurt-ascc";
}

// A directory only this process uses, removed with everything in it when the compile ends.
class TempDir {
 public:
  TempDir() {
    const char* base = env::Raw(env::Var::kTmpDir);
    std::string tmpl = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/npurt-rtc-XXXXXX";
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool WriteText(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

std::string ReadAll(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// An include name must stay inside the directory: no absolute path, no "..".
bool SafeRelative(const std::string& name) {
  if (name.empty() || name.front() == '/') return false;
  for (const auto& part : fs::path(name)) {
    if (part == "..") return false;
  }
  return true;
}

// A compile that has not finished after NPURT_RTC_COMPILE_TIMEOUT_S seconds (600) is stopped: a compiler that
// hangs must not hang the program that asked for the compile, which gets ACL_ERROR_RTC_FAILURE and the log so far.
std::chrono::seconds CompileLimit() {
  const char* v = env::Raw(env::Var::kRtcCompileTimeout);
  char* end = nullptr;
  const long s = v != nullptr ? std::strtol(v, &end, 10) : 0;
  return std::chrono::seconds(v != nullptr && end != v && *end == '\0' && s > 0 ? s : 600);
}
constexpr int kTimedOut = -2;

// Runs argv with stdout and stderr into `log_path`; the exit status, -1 (errno) if it did not start, or
// kTimedOut if it ran past `limit` (then it is killed).
int Spawn(const std::vector<std::string>& argv, const std::string& log_path, std::chrono::seconds limit) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    errno = rc;
    return -1;
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return -1;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return kTimedOut;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void Replace(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

Status RunCompiler(const CompileInput& in, CompileOutput& out) {
  out = CompileOutput{};
  TempDir dir;
  if (dir.path().empty()) {
    return Err(ACL_ERROR_RTC_FAILURE, "cannot create a temporary directory for the compile: {}", std::strerror(errno));
  }
  const fs::path root = dir.path();
  for (const auto& [name, text] : in.headers) {
    if (!SafeRelative(name)) {
      return Err(ACL_ERROR_RTC_INVALID_INPUT, "include name '{}' must be a relative path without '..'", name);
    }
    if (!WriteText(root / name, text)) return Err(ACL_ERROR_RTC_FAILURE, "cannot write header {}", name);
  }
  const fs::path src = root / in.file_name;
  const fs::path bin = root / "npurt-rtc-kernels.so";
  const fs::path names = root / "npurt-rtc-kernels.txt";
  const fs::path log = root / "npurt-rtc.log";
  if (!WriteText(src, in.source)) return Err(ACL_ERROR_RTC_FAILURE, "cannot write the source {}", in.file_name);

  const std::string tool = CompilerPath();
  std::vector<std::string> argv = {tool, "--npurt-kernel-binary", "--npurt-kernel-names=" + names.string(),
                                   "-I" + root.string()};
  argv.insert(argv.end(), in.options.begin(), in.options.end());
  for (const auto& [kernel, targs] : in.instances) argv.push_back("--npurt-instance=" + kernel + "=" + targs);
  argv.insert(argv.end(), {"-o", bin.string(), "-x", "asc", src.string()});
  const std::chrono::seconds limit = CompileLimit();
  const int rc = Spawn(argv, log.string(), limit);
  if (rc == kTimedOut) {
    out.log = ReadAll(log);
    return Err(ACL_ERROR_RTC_FAILURE,
               "the kernel compiler {} did not finish {} within {} s and was stopped (NPURT_RTC_COMPILE_TIMEOUT_S)", tool,
               in.file_name, limit.count());
  }
  if (rc < 0) {
    return Err(ACL_ERROR_RTC_FAILURE, "cannot run the kernel compiler {}: {} (set NPURT_ASCC to npurt-ascc)", tool,
               std::strerror(errno));
  }
  out.log = ReadAll(log);
  Replace(out.log, root.string() + "/", "");  // diagnostics name the program's files as the user named them
  if (rc != 0) {
    return Err(ACL_ERROR_RTC_COMPILATION, "{} does not compile (exit status {}); the compile log says why",
               in.file_name, rc);
  }
  const std::string image = ReadAll(bin);
  out.binary.assign(image.begin(), image.end());
  std::istringstream list(ReadAll(names));
  for (std::string line; std::getline(list, line);) {
    if (!line.empty()) out.kernels.push_back(line);
  }
  if (out.binary.empty()) return Err(ACL_ERROR_RTC_FAILURE, "the kernel compiler {} wrote no binary", tool);
  return Status::Ok();
}

}  // namespace npurt::core::rtc
