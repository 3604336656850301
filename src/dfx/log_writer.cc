#include "dfx/log_writer.h"

#include <chrono>
#include <cstdio>
#include <thread>

namespace npurt::dfx {

void LogWriter::Configure(const LogSinkOptions& options) {
  Flush(1000);
  std::lock_guard<std::mutex> lock(sink_mu_);
  if (file_ != nullptr) file_->Flush();
  options_ = options;
  file_.reset();
}

void LogWriter::WriteOut(const std::string& data) {
  if (data.empty()) return;
  if (options_.to_stdout) {
    std::fwrite(data.data(), 1, data.size(), stdout);
    std::fflush(stdout);
    return;
  }
  if (file_ == nullptr) file_ = std::make_unique<PlogFile>(options_.plog);
  if (!file_->Write(data.data(), data.size())) {
    // The log directory is not writable: the lines still reach a person.
    std::fwrite(data.data(), 1, data.size(), stderr);
  }
}

void LogWriter::Append(std::string_view line) {
  {
    std::lock_guard<std::mutex> lock(sink_mu_);
    if (options_.synchronous) {
      WriteOut(std::string(line));
      if (file_ != nullptr) file_->Flush();
      return;
    }
  }
  std::unique_lock<std::mutex> lock(mu_);
  if (pending_.size() + line.size() > kMaxPendingBytes) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  pending_.append(line.data(), line.size());
  ++appended_;
  EnsureThread();
  if (writer_idle_) wake_.notify_one();
}

void LogWriter::EnsureThread() {
  if (thread_started_) return;
  thread_started_ = true;
  std::thread([this] { ThreadMain(); }).detach();
}

void LogWriter::ThreadMain() {
  std::string batch;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    writer_idle_ = true;
    done_.notify_all();
    wake_.wait_for(lock, std::chrono::milliseconds(200), [&] { return !pending_.empty(); });
    if (pending_.empty()) continue;
    writer_idle_ = false;
    batch.swap(pending_);
    const uint64_t through = appended_;
    const uint64_t dropped = dropped_.load(std::memory_order_relaxed);
    lock.unlock();
    {
      std::lock_guard<std::mutex> sink(sink_mu_);
      WriteOut(batch);
      if (dropped != dropped_reported_) {
        WriteOut("[WARNING] LOG: " + std::to_string(dropped - dropped_reported_) +
                 " log line(s) dropped: the writer fell behind\n");
        dropped_reported_ = dropped;
      }
      if (file_ != nullptr) file_->Flush();
    }
    batch.clear();
    if (batch.capacity() > (1u << 20)) batch.shrink_to_fit();
    lock.lock();
    written_ = through;
  }
}

void LogWriter::Flush(int timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!thread_started_) return;
  const uint64_t target = appended_;
  wake_.notify_one();
  done_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                 [&] { return written_ >= target && (pending_.empty() || written_ >= target); });
}

std::string LogWriter::Destination() {
  std::lock_guard<std::mutex> lock(sink_mu_);
  if (options_.to_stdout) return "stdout";
  return file_ != nullptr ? file_->path() : options_.plog.dir;
}

void LogWriter::PrepareFork() {
  mu_.lock();
  sink_mu_.lock();
}

void LogWriter::ParentAfterFork() {
  sink_mu_.unlock();
  mu_.unlock();
}

void LogWriter::ChildAfterFork() {
  thread_started_ = false;
  writer_idle_ = true;
  pending_.clear();
  appended_ = written_ = 0;
  (void)file_.release();  // the parent's file stays the parent's: the child opens its own plog file
  sink_mu_.unlock();
  mu_.unlock();
}

}  // namespace npurt::dfx
