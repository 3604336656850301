// PlogFile: the per-process log file set, CANN layout and rotation.
//
// Files are <dir>/plog-<pid>_<yyyymmddhhmmssmmm>.log, created on the first write (a process that logs
// nothing leaves no file). When the current file would pass `max_bytes`, a new file with a fresh
// timestamp is started and, past `max_files` files of this process, the oldest is deleted. Not
// thread-safe: the log writer serialises calls.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>

namespace npurt::dfx {

struct PlogOptions {
  std::string dir;                    // <root>/debug/plog
  uint64_t max_bytes = 20ull << 20;   // per file
  uint32_t max_files = 10;            // per process
};

class PlogFile {
 public:
  explicit PlogFile(PlogOptions options) : options_(std::move(options)) {}
  ~PlogFile();
  PlogFile(const PlogFile&) = delete;
  PlogFile& operator=(const PlogFile&) = delete;

  // Appends `data` (whole lines); rotates first if needed. False if the file cannot be written (the
  // caller falls back to stderr).
  bool Write(const char* data, size_t size);
  void Flush();
  // Path of the current file ("" before the first write).
  const std::string& path() const { return path_; }

 private:
  bool OpenNew();

  PlogOptions options_;
  std::FILE* file_ = nullptr;
  std::string path_;
  uint64_t written_ = 0;
  std::deque<std::string> files_;  // this process's files, oldest first
  uint32_t sequence_ = 0;          // disambiguates files opened within one millisecond
};

// Creates `path` and its parents (mode 0750, like CANN's log directories). False on failure.
bool MakeDirs(const std::string& path);

// The log root: ASCEND_PROCESS_LOG_PATH > ASCEND_WORK_PATH/log > $HOME/ascend/log (/tmp/ascend/log
// without HOME). Plogs go to <root>/debug/plog, device logs to <root>/debug/device-<id>.
std::string LogRoot();

// This process's name (/proc/self/comm, read on each call; "?" if it cannot be read).
std::string ProcessName();

}  // namespace npurt::dfx
