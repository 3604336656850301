#include "dfx/plog_file.h"
#include "base/wall_clock.h"

#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "base/env.h"

namespace npurt::dfx {

std::string LogRoot() {
  const char* p = npurt::env::Raw(npurt::env::Var::kProcessLogPath);
  if (p != nullptr && *p != '\0') return p;
  const char* w = npurt::env::Raw(npurt::env::Var::kWorkPath);
  if (w != nullptr && *w != '\0') return std::string(w) + "/log";
  const char* home = npurt::env::Raw(npurt::env::Var::kHome);
  return std::string(home != nullptr && *home != '\0' ? home : "/tmp") + "/ascend/log";
}

std::string ProcessName() {
  char comm[64] = "?";
  if (FILE* f = std::fopen("/proc/self/comm", "re")) {
    if (std::fgets(comm, sizeof comm, f) != nullptr) comm[std::strcspn(comm, "\n")] = '\0';
    std::fclose(f);
  }
  return comm;
}

bool MakeDirs(const std::string& path) {
  if (path.empty()) return false;
  std::string cur;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    cur = path.substr(0, pos);
    if (cur.empty()) continue;
    if (mkdir(cur.c_str(), 0750) != 0 && errno != EEXIST) return false;
  }
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

PlogFile::~PlogFile() {
  if (file_ != nullptr) std::fclose(file_);
}

bool PlogFile::OpenNew() {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
  if (!MakeDirs(options_.dir)) return false;
  // CANN's name is plog-<pid>_<time with ms>.log; a sequence suffix keeps two rotations within one
  // millisecond apart.
  std::string name = options_.dir + "/plog-" + std::to_string(getpid()) + "_" + CompactStamp(NowLocal(), 3);
  if (sequence_++ > 0) name += "." + std::to_string(sequence_);
  name += ".log";
  file_ = std::fopen(name.c_str(), "ae");
  if (file_ == nullptr) return false;
  chmod(name.c_str(), 0640);
  path_ = name;
  written_ = 0;
  files_.push_back(name);
  while (files_.size() > options_.max_files) {
    unlink(files_.front().c_str());
    files_.pop_front();
  }
  return true;
}

bool PlogFile::Write(const char* data, size_t size) {
  // The writer hands over batches of many lines: split them at line ends so that no file grows past
  // max_bytes (a single line longer than that gets a file of its own).
  while (size > 0) {
    if (file_ == nullptr && !OpenNew()) return false;
    const size_t room = options_.max_bytes > written_ ? options_.max_bytes - written_ : 0;
    size_t take = 0;
    if (size <= room) {
      take = size;
    } else {
      for (size_t i = 0; i < room; ++i) {
        if (data[i] == '\n') take = i + 1;
      }
      if (take == 0 && written_ > 0) {
        if (!OpenNew()) return false;
        continue;
      }
      if (take == 0) {
        const void* end = std::memchr(data, '\n', size);
        take = end != nullptr ? static_cast<size_t>(static_cast<const char*>(end) - data) + 1 : size;
      }
    }
    if (std::fwrite(data, 1, take, file_) != take) return false;
    written_ += take;
    data += take;
    size -= take;
  }
  return true;
}

void PlogFile::Flush() {
  if (file_ != nullptr) std::fflush(file_);
}

}  // namespace npurt::dfx
