// The communication engine of one rank of one communicator: a thread that runs the communicator's
// operations through its transport, one at a time, in the order their streams reached them. A collective
// is a task on the caller's stream (core/external_task.h): when the stream gets there it hands the
// operation to this engine and holds until the engine completes it, so compute on other streams (the AI
// cores) runs meanwhile and communication overlaps it, as on an NPU's communication engine.
//
// A failure completes the operation's stream task with the stream error of hccl/result.h and the reason,
// and is remembered as the communicator's asynchronous error (HcclGetCommAsyncError).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/external_task.h"
#include "hccl/op_args.h"
#include "hccl/transport.h"

namespace npurt::hccl {

class CommEngine {
 public:
  // `label` names the communicator and rank in messages ("comm 'x' rank 2").
  CommEngine(std::unique_ptr<Transport> transport, std::string label, uint64_t exec_timeout_ns);
  // Runs what is still queued (nothing, when HcclCommDestroy got here) and joins the thread.
  ~CommEngine();

  // Runs `op` after the operations handed over before it, then calls done.Complete. `op` stays valid until
  // then (it belongs to the stream task).
  void Submit(const OpArgs* op, core::ExternalCompletion done);

  // The first failure of an operation: its HcclResult (0 = none) and message.
  int32_t async_error() const;
  std::string async_error_message() const;
  const Transport& transport() const { return *transport_; }

 private:
  struct Work {
    const OpArgs* op;
    core::ExternalCompletion done;
  };
  void Loop();

  std::unique_ptr<Transport> transport_;
  const std::string label_;
  const uint64_t exec_timeout_ns_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Work> queue_;
  bool stopping_ = false;
  int32_t async_error_ = 0;
  std::string async_message_;
  std::thread thread_;
};

}  // namespace npurt::hccl
