// Device-memory checking for kernels (NPURT_SIM_MEMCHECK=1).
//
// Kernel code runs natively on the sim, so a kernel reading past its buffer reads whatever lies there.
// With checking on, every global-memory access that kernel_operator.h makes (DataCopy, DataCopyPad,
// GlobalTensor::GetValue/SetValue) is checked against the device's allocation map before it happens, and
// a kernel that faults on device memory gets its fault address explained: the failure names the address,
// the allocation it missed (base, size) and by how many bytes. Raw pointer accesses are not checked
// one by one; they are reported when they fault.
#pragma once

#include <cstdint>
#include <string>

namespace npurt::core {

// True when NPURT_SIM_MEMCHECK is set to 1 (read once).
bool MemcheckEnabled();

// hal::MemoryCheckFn: "" if [addr, addr + size) lies inside one live allocation of the device that owns
// addr; otherwise why not. size 0 describes a faulting address.
std::string MemcheckDescribe(const void* addr, uint64_t size);

}  // namespace npurt::core
