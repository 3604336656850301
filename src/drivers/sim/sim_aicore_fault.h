// Fault containment for kernel code on the simulated AI cores.
//
// Kernel code is host code, so a wild pointer, an integer division by zero or a trap raises a signal in
// the thread running the block. A BlockGuard marks the thread as "running a block" and owns a recovery
// point (sigsetjmp); the process-wide handlers for SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGTRAP jump back to it
// when the signal hits such a thread, and chain to the handler that was installed before (or the default
// action) otherwise, so faults of the application itself behave exactly as without npurt. Kernel-side
// failures (kernel_operator.h calling services->fail) and timeouts (the deadline timer interrupts the thread
// with kTimeoutSignal) take the same way out.
//
// Everything the handlers touch is async-signal-safe: a table of thread ids and states, written before
// the block starts (not TLS, which a dlopen()ed library gets allocated lazily). Limitation: a block
// interrupted while it held a lock inside the C library (malloc, stdio) leaves that lock held;
// the runtime's own printing path blocks kTimeoutSignal while it writes.
#pragma once

#include <setjmp.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "hal/hal.h"

namespace npurt::drivers::sim {

// Why a block left through the recovery point.
// kInterrupt: the block's launch was interrupted from outside (aclrtStreamAbort, aclrtStreamStop).
enum class BlockExit : int { kNone = 0, kSignal, kFail, kTimeout, kInterrupt };

struct BlockFault {
  int signo = 0;
  int si_code = 0;
  uintptr_t address = 0;   // faulting data address (SIGSEGV/SIGBUS) or instruction (others)
  uintptr_t pc = 0;
  bool is_write = false;
  int32_t fail_code = 0;   // kFail: the ACL code the kernel failed with
  char fail_message[512] = {};
};

// The per-thread state the handlers use. `job` is opaque to this file: the pool's current job, used to
// match a timeout signal to the launch it was meant for.
struct BlockThreadState {
  sigjmp_buf recovery;
  volatile sig_atomic_t active = 0;  // a block runs and may be interrupted
  // Lock-free atomics (async-signal-safe): `job` is this thread's, `timed_out_job` is set by the
  // deadline timer's thread before it signals this one.
  std::atomic<const void*> job{nullptr};
  std::atomic<const void*> timed_out_job{nullptr};
  static_assert(std::atomic<const void*>::is_always_lock_free, "read by signal handlers");
  // A launch the executor runs alone, without a job (AiCorePool::Start): `solo_launch` is this thread's
  // while its block runs; an interrupter sets `interrupt_code`, `interrupt_reason` (a string literal) and
  // then `interrupted_launch` before it signals, and the block leaves only if the two launches match.
  std::atomic<const void*> solo_launch{nullptr};
  std::atomic<const void*> interrupted_launch{nullptr};
  std::atomic<int32_t> interrupt_code{0};
  std::atomic<const char*> interrupt_reason{""};
  BlockFault fault;
  uint32_t block_idx = 0;
  // The running block's launch (a hal::KernelLaunch, null between blocks) for the kernel services, and
  // the line it is printing (flushed when the block ends). Not async-signal-safe: handlers never touch them.
  void* launch = nullptr;
  // The barrier and cross-core flags of the running block's co-operative launch (a CoopBarrier, sim_coop.h,
  // and CrossFlags, sim_cross_flags.h), else null; `unit` is the running participant (block * lanes + lane).
  void* coop = nullptr;
  void* cross = nullptr;
  uint32_t unit = 0;
  std::string print_line;
  // The thread's signal mask outside handlers: restored after leaving a handler through the recovery
  // point (sigsetjmp does not save the mask, which would cost a system call per block).
  sigset_t normal_mask;
};

BlockThreadState& CurrentBlockThread();

// The real-time signal the deadline timer sends to interrupt a block that ran past its launch's timeout.
int TimeoutSignal();

// Installs the handlers (once per process) and an alternate signal stack for the calling thread, so
// that a kernel overflowing its stack is caught too. Call on every thread that runs blocks.
void PrepareBlockThread();

// Leaves the running block through its recovery point with a kernel-reported failure.
[[noreturn]] void FailRunningBlock(int32_t code, const char* message);

// The code a failed kernel task reports: the AI core fault codes (exception, timeout, trap read/write
// overflow) become their vector-core counterparts for a launch on vector cores; other codes stay.
int32_t KernelFaultCode(const hal::KernelLaunch& launch, int32_t code);

// Human-readable description of a fault ("invalid write of address 0x10 (SIGSEGV: address not mapped)").
std::string DescribeFault(const BlockFault& fault);

}  // namespace npurt::drivers::sim
