// External work in stream order: a task whose work runs on an engine outside the device's queues (the
// communication engine of a collective, src/hccl/). When the stream reaches the task, `start` is called on
// the device's host-function engine; it hands the work over and returns at once. The stream then holds
// (its later tasks wait, other streams run on) until the work calls Complete on the handle it was given,
// exactly once, from any thread. This is how a collective is "a task on the caller's stream" without
// occupying an AI core or the host-function engine while it waits for its peers.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace npurt::hal {
class Queue;
}

namespace npurt::core {

class Stream;

// The right to finish one external task. Copyable but meaningful once: the first Complete ends the task.
class ExternalCompletion {
 public:
  ExternalCompletion() = default;  // completes nothing (a placeholder)
  // code 0 = success; otherwise the stream fails with `code` (an aclError) and `message` as its reason.
  void Complete(int32_t code, std::string message) const;

 private:
  friend void RunExternalStart(void*, hal::Queue*);
  explicit ExternalCompletion(hal::Queue* queue) : queue_(queue) {}
  hal::Queue* queue_ = nullptr;
};

using ExternalStartFn = void (*)(void* arg, ExternalCompletion done);

// Submits the task. `arg` belongs to the task: free_arg(arg) runs once after it completed (or was discarded
// without starting), or at once when the submission is refused (a stream that is capturing a graph).
// Returns the task id the stream gave it (profiles).
StatusOr<uint32_t> SubmitExternalWork(Stream* stream, ExternalStartFn start, void* arg, void (*free_arg)(void*));

}  // namespace npurt::core
