#include "hccl/comm_engine.h"

#include <pthread.h>

#include "base/clock.h"
#include "dfx/log.h"
#include "hccl/result.h"

namespace npurt::hccl {

CommEngine::CommEngine(std::unique_ptr<Transport> transport, std::string label, uint64_t exec_timeout_ns)
    : transport_(std::move(transport)), label_(std::move(label)), exec_timeout_ns_(exec_timeout_ns) {
  thread_ = std::thread([this] { Loop(); });
  pthread_setname_np(thread_.native_handle(), "npurt-hccl");
}

CommEngine::~CommEngine() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  // Nothing runs here any more (HcclCommDestroy refuses while operations are in flight), so the transport
  // is not aborted: that would break the peers' group, whose ranks may still be finishing their part of
  // the last operation. Its destructor releases this rank's side.
  cv_.notify_all();
  thread_.join();
}

void CommEngine::Submit(const OpArgs* op, core::ExternalCompletion done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopping_) {
      queue_.push_back(Work{op, done});
      cv_.notify_one();
      return;
    }
  }
  done.Complete(StreamErrorFor(HCCL_E_INTERNAL), fmt::format("Hccl{} on {}: the communicator was destroyed", OpName(op->kind), label_));
}

int32_t CommEngine::async_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return async_error_;
}

std::string CommEngine::async_error_message() const {
  std::lock_guard<std::mutex> lock(mu_);
  return async_message_;
}

void CommEngine::Loop() {
  for (;;) {
    Work work{nullptr, {}};
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      work = queue_.front();
      queue_.pop_front();
    }
    const OpArgs& op = *work.op;
    const uint64_t deadline = exec_timeout_ns_ == 0 ? UINT64_MAX : NowNs() + exec_timeout_ns_;
    Status status = transport_->Run(op, deadline);
    if (status.ok()) {
      work.done.Complete(0, "");
      continue;
    }
    std::string message = fmt::format("Hccl{} #{} on {} failed: {}", OpName(op.kind), op.seq, label_, status.message());
    NPURT_LOG_ERROR("HCCL", "{}", message);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (async_error_ == 0) {
        async_error_ = status.code();
        async_message_ = message;
      }
    }
    work.done.Complete(StreamErrorFor(status.code()), std::move(message));
  }
}

}  // namespace npurt::hccl
