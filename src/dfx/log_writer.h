// LogWriter: moves formatted log lines from the threads that log to their destination (a PlogFile or
// stdout) on a background thread, so that logging never waits for I/O on a caller's thread.
//
// Callers append to a shared buffer under a mutex held for a memcpy; the writer thread swaps the buffer
// out and writes it. Past kMaxPendingBytes the line is dropped and counted instead of blocking. In
// synchronous mode (ASCEND_LOG_SYNC_SAVE=1) the caller writes the line itself under the sink lock.
// The writer thread starts on the first line; after fork() the child starts its own.
//
// Why not spdlog's async logger: CANN rotation starts a new timestamped plog file and deletes the oldest
// (spdlog's rotating sink renames base.N.log files), the exit path must wait until every line is on disk
// (spdlog's async flush only enqueues a request), and fork() needs the handlers below; the whole writer is
// smaller than the adapter it would take.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "dfx/plog_file.h"

namespace npurt::dfx {

struct LogSinkOptions {
  bool to_stdout = false;
  bool synchronous = false;
  PlogOptions plog;
};

class LogWriter {
 public:
  static constexpr size_t kMaxPendingBytes = 16u << 20;

  // Replaces the destination (pending lines are written to the old one first).
  void Configure(const LogSinkOptions& options);
  void Append(std::string_view line);
  // Waits until everything appended before the call is written (bounded).
  void Flush(int timeout_ms);
  std::string Destination();
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // pthread_atfork handlers: the lock is held across fork(), so the child never inherits a lock held
  // by a thread that does not exist there; the child then starts its own writer thread and file.
  void PrepareFork();
  void ParentAfterFork();
  void ChildAfterFork();

 private:
  void EnsureThread();   // mu_ held
  void ThreadMain();
  void WriteOut(const std::string& data);  // sink_mu_ held

  std::mutex mu_;                 // pending_, sequence numbers, thread state
  std::condition_variable wake_;  // writer waits for lines
  std::condition_variable done_;  // flushers wait for the writer
  std::string pending_;
  uint64_t appended_ = 0;  // appends so far (sequence)
  uint64_t written_ = 0;   // appends written
  bool thread_started_ = false;
  bool writer_idle_ = true;
  std::atomic<uint64_t> dropped_{0};
  uint64_t dropped_reported_ = 0;

  std::mutex sink_mu_;  // options_ and the sink
  LogSinkOptions options_;
  std::unique_ptr<PlogFile> file_;
};

}  // namespace npurt::dfx
