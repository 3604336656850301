// Executables: device work that a driver built, run by a kDispatch task with the bindings of one run. An
// operator compiled by the driver's operator backend is one; so is each of the driver's built-ins
// (hal/builtins.h). Core never hands a driver host code to run as device work: it names an executable the
// driver gave it. Part of the driver interface (hal/hal.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace npurt::hal {

class Executable;

// Device-memory checking, as for kernel launches (hal/task.h): "" if [addr, addr + size) lies in one live
// allocation, else why not. Executables that read addresses from device memory when they run (built-ins
// driven by descriptors) check them through it, as a DMA engine faults on a bad address.
using MemoryCheckFn = std::string (*)(const void* addr, uint64_t size);

// One run of an executable (kDispatch's `dispatch`): owned by core and alive until the task's cleanup.
// Field order: what every run reads first; what the driver writes (`overflowed`) last.
struct Dispatch {
  const Executable* executable = nullptr;
  const void* const* inputs = nullptr;  // device addresses, in the executable's order
  void* const* outputs = nullptr;
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  // An executable built with OpRequest::shape_slots: per input, then per output, where that tensor's actual
  // dims live in device memory (as many int64 as the spec's rank). Null otherwise.
  int64_t* const* shapes = nullptr;
  const void* params = nullptr;  // the executable's parameter block (a built-in's, hal/builtins.h)
  size_t params_size = 0;
  // Compute parallelism this run may use at most (the device's cores the stream may occupy); 0: all.
  uint32_t max_parallelism = 0;
  // Report float overflow (aclrtSetStreamOverflowSwitch): the driver sets `overflowed` when a result is
  // not finite, as the AI cores' status register does; core reads it in the task's cleanup.
  bool check_overflow = false;
  // Saturation mode (aclrtSetDeviceSatMode): overflowing results clamp to the type's largest finite value.
  bool saturate = false;
  uint16_t overflowed = 0;
  // The run's result (0 or the task's error code), written by the driver before the task completes: later
  // tasks of the queue and the cleanup may read it.
  int32_t status = 0;
  MemoryCheckFn check_memory = nullptr;  // set for executables that read addresses when they run
  const char* name = "";                 // for messages
};

class Executable {
 public:
  virtual ~Executable() = default;
  // Runs `dispatch` once on the executing engine, in queue order (the executable may use up to
  // dispatch.max_parallelism cores). Returns 0, or an ACL error code with `message` saying why.
  // Thread-safe: one executable runs on several queues at once.
  virtual int32_t Run(Dispatch& dispatch, std::string* message) const = 0;
};

}  // namespace npurt::hal
