#include "dfx/sanitizer_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <string>

#include <fmt/format.h>

#include "base/env.h"

namespace npurt::dfx {
namespace {

// The descriptor, or -1. Opened once and never closed: records are written up to the process's last
// atexit handler (the race detector's summary), after any static destructor could have closed it.
int OpenLog() {
  const char* path = env::Raw(env::Var::kSanitizerLog);
  if (path == nullptr || *path == '\0') return -1;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  // The first record says the runtime was loaded: the tool tells "nothing found" apart from "nothing checked"
  // (a program that never loaded npurt).
  const std::string attach = fmt::format("{{\"kind\":\"attach\",\"pid\":{}}}\n", ::getpid());
  if (::write(fd, attach.data(), attach.size()) < 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int LogFd() {
  static const int fd = OpenLog();
  return fd;
}

// Opened as the library loads, so a program that loads npurt but finds nothing still leaves its attach record.
[[maybe_unused]] const int g_opened = LogFd();

}  // namespace

bool SanitizerLogOn() { return LogFd() >= 0; }

void SanitizerLogWrite(std::string_view json) {
  const int fd = LogFd();
  if (fd < 0) return;
  std::string line(json);
  line += '\n';
  // A short write leaves a partial line that the tool reports as unreadable; nothing better can be done here.
  [[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
}

}  // namespace npurt::dfx
