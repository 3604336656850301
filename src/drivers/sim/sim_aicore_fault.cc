#include "drivers/sim/sim_aicore_fault.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::drivers::sim {
namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
constexpr size_t kAltStackBytes = 64 * 1024;

thread_local BlockThreadState* t_state = nullptr;
thread_local bool t_altstack = false;

// The handlers find the interrupted thread's state by thread id in this table rather than through TLS:
// a library loaded with dlopen gets dynamic TLS, whose first access from a thread may allocate, which a
// signal handler must not do (initial-exec TLS would avoid that but makes dlopen fail with "cannot
// allocate memory in static TLS block"). gettid and atomic loads are async-signal-safe.
constexpr int kMaxBlockThreads = 4096;
struct BlockThreadSlot {
  std::atomic<pid_t> tid{0};
  std::atomic<BlockThreadState*> state{nullptr};
};
BlockThreadSlot g_block_threads[kMaxBlockThreads];
std::atomic<int> g_block_thread_slots{0};  // slots ever used (a high-water mark bounds the scan)

int RegisterBlockThread(BlockThreadState* state) {
  const pid_t tid = gettid();
  for (int i = 0; i < kMaxBlockThreads; ++i) {
    pid_t expected = 0;
    if (g_block_threads[i].tid.compare_exchange_strong(expected, tid, std::memory_order_acq_rel)) {
      g_block_threads[i].state.store(state, std::memory_order_release);
      int used = g_block_thread_slots.load(std::memory_order_relaxed);
      while (used < i + 1 && !g_block_thread_slots.compare_exchange_weak(used, i + 1, std::memory_order_acq_rel)) {
      }
      return i;
    }
  }
  return -1;
}

BlockThreadState* BlockThreadForSignal() {
  const pid_t tid = gettid();
  const int used = g_block_thread_slots.load(std::memory_order_acquire);
  for (int i = 0; i < used; ++i) {
    if (g_block_threads[i].tid.load(std::memory_order_acquire) == tid) {
      return g_block_threads[i].state.load(std::memory_order_acquire);
    }
  }
  return nullptr;
}

// Frees the thread's state and alternate stack when the thread exits (not touched by the handlers).
struct ThreadResources {
  void* altstack = nullptr;
  int slot = -1;
  ~ThreadResources() {
    if (slot >= 0) {
      g_block_threads[slot].state.store(nullptr, std::memory_order_release);
      g_block_threads[slot].tid.store(0, std::memory_order_release);
    }
    if (altstack != nullptr) {
      stack_t off;
      std::memset(&off, 0, sizeof off);
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
      munmap(altstack, kAltStackBytes);
    }
    delete t_state;
    t_state = nullptr;
  }
};
thread_local ThreadResources t_resources;

struct sigaction g_previous[NSIG];
std::once_flag g_install_once;

void ChainToPrevious(int signo, siginfo_t* info, void* uctx) {
  const struct sigaction& prev = g_previous[signo];
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction != nullptr) {
      prev.sa_sigaction(signo, info, uctx);
      return;
    }
  } else if (prev.sa_handler == SIG_IGN) {
    return;
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != nullptr) {
    prev.sa_handler(signo);
    return;
  }
  // Default action: restore it; returning re-executes the faulting instruction (or, for a signal sent
  // with kill, re-raise it), which now terminates the process as it would have without npurt.
  signal(signo, SIG_DFL);
  if (info == nullptr || info->si_code <= 0) raise(signo);
}

void OnFaultSignal(int signo, siginfo_t* info, void* uctx) {
  BlockThreadState* t = BlockThreadForSignal();
  if (t == nullptr || !t->active) {
    ChainToPrevious(signo, info, uctx);
    return;
  }
  t->active = 0;
  BlockFault& f = t->fault;
  f.signo = signo;
  f.si_code = info != nullptr ? info->si_code : 0;
  f.address = info != nullptr ? reinterpret_cast<uintptr_t>(info->si_addr) : 0;
  f.is_write = false;
  f.pc = 0;
#if defined(__x86_64__)
  if (uctx != nullptr) {
    const auto* uc = static_cast<const ucontext_t*>(uctx);
    f.pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    // Page-fault error code: bit 1 is set for writes.
    if (signo == SIGSEGV) f.is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  }
#endif
  siglongjmp(t->recovery, static_cast<int>(BlockExit::kSignal));
}

void OnTimeoutSignal(int /*signo*/, siginfo_t* /*info*/, void* /*uctx*/) {
  BlockThreadState* t = BlockThreadForSignal();
  // Only the block of the launch that timed out leaves; a late signal finds another job (or none).
  if (t == nullptr || !t->active) return;
  const void* job = t->job.load(std::memory_order_relaxed);
  if (job == nullptr) {
    // A launch running alone on its executor, interrupted by its stream's abort or stop.
    const void* solo = t->solo_launch.load(std::memory_order_relaxed);
    if (solo == nullptr || solo != t->interrupted_launch.load(std::memory_order_acquire)) return;
    t->active = 0;
    siglongjmp(t->recovery, static_cast<int>(BlockExit::kInterrupt));
  }
  if (job != t->timed_out_job.load(std::memory_order_acquire)) return;
  t->active = 0;
  siglongjmp(t->recovery, static_cast<int>(BlockExit::kTimeout));
}

void InstallHandlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = &OnFaultSignal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int signo : kFaultSignals) sigaction(signo, &sa, &g_previous[signo]);
  struct sigaction ta;
  std::memset(&ta, 0, sizeof ta);
  ta.sa_sigaction = &OnTimeoutSignal;
  ta.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&ta.sa_mask);
  sigaction(TimeoutSignal(), &ta, &g_previous[TimeoutSignal()]);
}

const char* SignalName(int signo) {
  switch (signo) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal";
  }
}

}  // namespace

BlockThreadState& CurrentBlockThread() {
  if (t_state == nullptr) {
    t_state = new BlockThreadState();
    t_resources.slot = RegisterBlockThread(t_state);  // also registers the thread-exit cleanup
    if (t_resources.slot < 0) {
      fmt::print(stderr, "npurt: more than {} AI-core threads: faults in this one cannot be contained\n",
                 kMaxBlockThreads);
    }
  }
  return *t_state;
}

int TimeoutSignal() { return SIGRTMAX - 1; }

void PrepareBlockThread() {
  std::call_once(g_install_once, InstallHandlers);
  BlockThreadState& st = CurrentBlockThread();
  pthread_sigmask(SIG_SETMASK, nullptr, &st.normal_mask);
  if (!t_altstack) {
    // Intentionally leaked with the thread: the alternate stack must outlive any signal on it.
    stack_t old;
    // Keep a stack the application (or a sanitizer) installed on this thread.
    if (sigaltstack(nullptr, &old) == 0 && (old.ss_flags & SS_DISABLE) != 0) {
      void* mem = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mem != MAP_FAILED) {
        stack_t ss;
        ss.ss_sp = mem;
        ss.ss_size = kAltStackBytes;
        ss.ss_flags = 0;
        if (sigaltstack(&ss, nullptr) == 0) {
          t_resources.altstack = mem;
        } else {
          munmap(mem, kAltStackBytes);
        }
      }
    }
    t_altstack = true;
  }
}

void FailRunningBlock(int32_t code, const char* message) {
  BlockThreadState* t = t_state;
  if (t == nullptr || !t->active) {
    fmt::print(stderr, "npurt: kernel failure outside a running block: {}\n", message);
    std::abort();
  }
  t->active = 0;
  t->fault.fail_code = code;
  std::snprintf(t->fault.fail_message, sizeof t->fault.fail_message, "%s", message);
  siglongjmp(t->recovery, static_cast<int>(BlockExit::kFail));
}

int32_t KernelFaultCode(const hal::KernelLaunch& launch, int32_t code) {
  if (code == 0 || launch.on_vector_cores == 0) return code;
  switch (code) {
    case ACL_ERROR_RT_AICORE_EXCEPTION: return ACL_ERROR_RT_VECTOR_CORE_EXCEPTION;
    case ACL_ERROR_RT_AICORE_TIMEOUT: return ACL_ERROR_RT_VECTOR_CORE_TIMEOUT;
    case ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW: return ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW;
    case ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW: return ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW;
    default: return code;
  }
}

std::string DescribeFault(const BlockFault& f) {
  switch (f.signo) {
    case SIGSEGV:
    case SIGBUS: {
      const char* why = "invalid access";
      if (f.signo == SIGSEGV) {
        why = f.si_code == SEGV_MAPERR ? "address not mapped" : f.si_code == SEGV_ACCERR ? "no access to the page"
                                                                                         : "invalid access";
      } else {
        why = f.si_code == BUS_ADRALN ? "misaligned address" : "bus error";
      }
      return fmt::format("invalid {} of address {:#x} ({}: {})", f.is_write ? "write" : "read", f.address,
                         SignalName(f.signo), why);
    }
    case SIGFPE: {
      const char* why = f.si_code == FPE_INTDIV ? "integer division by zero"
                        : f.si_code == FPE_INTOVF ? "integer overflow"
                                                  : "arithmetic exception";
      return fmt::format("{} at {:#x} (SIGFPE)", why, f.pc);
    }
    case SIGILL:
      return fmt::format("illegal instruction or trap at {:#x} (SIGILL)", f.pc);
    case SIGTRAP:
      return fmt::format("trap at {:#x} (SIGTRAP)", f.pc);
    default:
      return fmt::format("{} at {:#x}", SignalName(f.signo), f.pc);
  }
}

}  // namespace npurt::drivers::sim
