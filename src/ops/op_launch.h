// Running compiled operators on streams: binding user buffers (validated against the compiled specs
// and the device's allocation map) and submitting the run as a dispatch of the op's executable
// (hal/executable.h), so it executes asynchronously and in order on the caller's stream.
//
// Parallelism: a run may use the device's AI cores (at most the host's hardware threads on the sim); how
// concurrent runs share them is the executable's business (the host kernels split them between the
// operators running at that moment, see op_executable.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_base_rt.h"
#include "ops/op_compiler.h"

namespace npurt::core {
class Stream;
}

namespace npurt::ops {

struct BoundBuffers {
  std::vector<const void*> inputs;
  std::vector<void*> outputs;
  std::vector<std::vector<uint8_t>> owned;  // host copies the run keeps alive (constant inputs)
};

// One user buffer (an aclDataBuffer's contents); `present` is false for a null aclDataBuffer*.
struct UserBuffer {
  void* data = nullptr;
  size_t size = 0;
  bool present = false;
};

// Checks counts, null buffers, sizes (a buffer smaller than its tensor is an error, so no kernel ever
// writes past an output buffer) and that every tensor is device memory of the stream's device.
// `consts[i]` (optional) supplies constant input data for an input whose buffer is null.
Status BindBuffers(const CompiledOp& op, const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs,
                   core::Stream* stream, BoundBuffers* bound,
                   const std::vector<const std::vector<uint8_t>*>* consts = nullptr);

// Validates one raw device range for the stream's device.
Status CheckDeviceRange(const void* ptr, size_t bytes, core::Stream* stream, const char* what);

// Submits the run. Takes the buffers; `op` stays alive until the run finished. `name` (a string with
// static storage, e.g. the API entry "aclnnAdd"; null = the op type) names the run in dumps.
Status Launch(CompiledOpRef op, BoundBuffers bound, core::Stream* stream, const char* name = nullptr);

// Runs inline on the calling thread (tests and the synchronous reference path).
Status RunNow(const CompiledOp& op, const BoundBuffers& bound, int threads);

}  // namespace npurt::ops
