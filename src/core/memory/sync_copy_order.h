// Synchronous copies after the kernels in flight that write their source (core).
//
// CANN's contract: a synchronous aclrtMemcpy implies no stream or device synchronisation, so a program that
// launches a kernel writing a buffer and then copies that buffer at once has a race. On an NPU it gets the
// kernel's result all the same: the kernel was dispatched to its core microseconds before the host's DMA
// starts and, if it is short, has finished by then (the official sample
// 1_basic_features/memory/5_d2d_sync_memory_copy depends on it). On the simulated NPU the executor that runs
// the kernel may still be waking up.
//
// So a synchronous copy whose source is device memory first waits for the kernel launches in flight whose
// argument blocks point into the source's allocation, and logs a warning that names the race. It waits for
// nothing else, and only where an NPU would have run the kernel by then:
//  - only those launches, never unrelated work. A launch is waited for only once its stream has reached it
//    (everything before it on its stream completed) within kReachGraceMs; a launch queued behind other work
//    that takes longer would not have run on an NPU either, and the copy goes ahead;
//  - not while the launch's stream is parked on a wait (an event, a value, a notify) that the host may be
//    about to satisfy after the copy: that would deadlock the program;
//  - a launch its stream has reached is given kFinishGraceMs to finish: a short kernel (the race this
//    is for) finishes in that time; a kernel that runs longer would race the copy on an NPU too (a host
//    polling a running kernel's progress words), and the copy goes ahead;
//  - at most kMaxOrderWaitMs in all; past it the copy goes ahead, as the racy program asked;
//  - only the source: a synchronous write of memory that a running kernel polls (a host-to-device flag) is
//    the program's way of signalling the kernel and is never held back.
// Cost when no stream of the device has kernels in flight: one pass over the device's stream list.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt::core {

class Device;

inline constexpr uint64_t kReachGraceMs = 200;
inline constexpr uint64_t kFinishGraceMs = 100;
inline constexpr uint64_t kMaxOrderWaitMs = 5000;

// `api` names the call for the warning ("aclrtMemcpy"); [alloc_base, +alloc_size) is the allocation of
// `device` that holds the copy's source.
void OrderAfterKernelsWriting(const char* api, Device* device, uintptr_t alloc_base, size_t alloc_size);

}  // namespace npurt::core
