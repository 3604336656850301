// Kernel launches: the launch settings (aclrtLaunchKernelCfg), the argument block of each launch path,
// and the submission of a kKernel task to a stream.
//
// Every launch path ends in LaunchKernel with the function, the block count, the settings and the
// argument block. A host-side block (args builder, host args, args array) is copied into the launch's
// own record at submission, placeholders patched to point into that copy, so the caller may reuse its
// buffers as soon as the call returns; a device-resident block (aclrtLaunchKernel) is read by the kernel
// when it runs, like any device memory. Records are reused (core/kernel/launch_records.h), so a launch costs no
// allocation for blocks up to LaunchRecord::kInlineArgs bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "core/exception.h"
#include "core/kernel/kernel_args.h"
#include "core/kernel/kernel_binary.h"
#include "hal/hal.h"

namespace npurt::core {

class Stream;

struct LaunchSettings {
  bool timeout_set = false;
  uint64_t timeout_ns = 0;   // with timeout_set: 0 = no limit
  uint32_t block_offset = 0;
};

// Validates and reads a launch configuration (nullptr = defaults). Settings the sim honours: TIMEOUT,
// TIMEOUT_US, BLOCKDIM_OFFSET; accepted with no effect on the sim: SCHEM_MODE, ENGINE_TYPE (AIC and AIV
// both run on the simulated cores), BLOCK_TASK_PREFETCH, ENABLE_PROFILING, DYN_UBUF_SIZE up to the unified
// buffer of `stream`'s device (its capabilities); refused: DATA_DUMP = 1 (not supported), unknown ids.
StatusOr<LaunchSettings> ParseLaunchConfig(const aclrtLaunchKernelCfg* cfg, const Stream* stream);

struct LaunchArgs {
  const void* data = nullptr;
  size_t size = 0;
  bool device_resident = false;  // data is device memory, read when the kernel runs
  const KernelArgs::Placeholder* placeholders = nullptr;
  size_t placeholder_count = 0;
};

// Submits the launch to `stream`.
Status LaunchKernel(KernelFunction* function, uint32_t num_blocks, Stream* stream, const LaunchSettings& settings,
                    const LaunchArgs& args);

// Packs one host pointer per parameter (aclrtLaunchKernelWithArgsArray) into `block`.
// The function a launch runs (graph task introspection).
KernelFunction* LaunchFunction(const hal::KernelLaunch* launch);

void PackArgsArray(const KernelFunction& function, void* const* args, std::vector<uint8_t>* block);

// Exception reporting of failed kernel tasks (called from core/exception.cc): the function and argument
// block of the launch, and the binary's own callback (aclrtBinarySetExceptionCallback).
void FillKernelExceptionInfo(const hal::KernelLaunch* launch, rtExceptionInfo* info);
void RunKernelExceptionCallback(const hal::KernelLaunch* launch, rtExceptionInfo* info);

}  // namespace npurt::core
