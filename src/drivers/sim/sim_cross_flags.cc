#include "drivers/sim/sim_cross_flags.h"

#include <pthread.h>
#include <signal.h>

#include <cstdio>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/futex.h"
#include "drivers/sim/sim_aicore_fault.h"
#include "drivers/sim/sim_coop.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {
namespace {

[[noreturn]] void Misuse(const char* api, uint32_t mode, uint32_t flag, const char* why) {
  char message[256];
  std::snprintf(message, sizeof message, "%s (mode %u, flag %u): %s", api, mode, flag, why);
  FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, message);
}

CrossFlags* RunningFlags(const char* api) {
  BlockThreadState& st = CurrentBlockThread();
  if (st.cross == nullptr) {
    char message[256];
    std::snprintf(message, sizeof message,
                  "%s in a kernel not marked co-operative: npurt's kernel generator marks kernels whose source, or "
                  "a header it includes with quotes, uses cross-core flags",
                  api);
    FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, message);
  }
  return static_cast<CrossFlags*>(st.cross);
}

}  // namespace

void CrossFlags::Reset(uint32_t blocks, uint32_t aiv, bool aic, const std::atomic<int32_t>* failed) {
  blocks_ = blocks;
  aiv_ = aiv == 0 && !aic ? 1 : aiv;  // a plain kernel's block is one vector participant
  aic_ = aic;
  lanes_ = aiv_ + (aic ? 1 : 0);
  failed_ = failed;
  const size_t units = static_cast<size_t>(blocks_) * lanes_;
  counters_.reset(new std::atomic<uint32_t>[units * kFlags]);
  for (size_t i = 0; i < units * kFlags; ++i) counters_[i].store(0, std::memory_order_relaxed);
  pending_.assign(units * kModes * kFlags, 0);
}

void CrossFlags::Scope(uint32_t unit, uint32_t mode, std::vector<uint32_t>* setters,
                       std::vector<uint32_t>* receivers) const {
  const uint32_t base = unit / lanes_ * lanes_;
  auto block_vectors = [&](std::vector<uint32_t>* out) {
    for (uint32_t l = 0; l < aiv_; ++l) out->push_back(base + l);
  };
  if (mode == 0) {
    for (uint32_t b = 0; b < blocks_; ++b) {
      for (uint32_t l = 0; l < aiv_; ++l) setters->push_back(b * lanes_ + l);
    }
    *receivers = *setters;
  } else if (mode == 1) {
    block_vectors(setters);
    *receivers = *setters;
  } else if (IsCube(unit)) {
    block_vectors(receivers);  // the cube side sets the block's vector participants at once
  } else {
    block_vectors(setters);
    receivers->push_back(base + aiv_);
  }
}

void CrossFlags::Set(uint32_t unit, uint32_t mode, uint32_t flag) {
  if (flag >= kFlags || mode >= kModes) Misuse("CrossCoreSetFlag", mode, flag, "the flag is 0..15, the mode 0..2");
  // The cube participant takes part in mode 2 only; mode 2 from the vector side needs a cube participant.
  if (IsCube(unit) && mode != 2) Misuse("CrossCoreSetFlag", mode, flag, "the cube part sets flags in mode 2 only");
  if (!IsCube(unit) && mode == 2 && !aic_) {
    Misuse("CrossCoreSetFlag", mode, flag, "the kernel has no cube part to receive it (not a mixed kernel)");
  }
  std::vector<uint32_t> setters, receivers;
  Scope(unit, mode, &setters, &receivers);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, TimeoutSignal());
  pthread_sigmask(SIG_BLOCK, &block, &old);
  bool delivered = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto pending = [&](uint32_t u) -> uint16_t& { return pending_[(static_cast<size_t>(u) * kModes + mode) * kFlags + flag]; };
    if (!setters.empty()) ++pending(unit);
    bool all = true;
    for (uint32_t s : setters) all = all && pending(s) != 0;
    if (all) {
      for (uint32_t s : setters) --pending(s);
      for (uint32_t r : receivers) counters_[static_cast<size_t>(r) * kFlags + flag].fetch_add(1, std::memory_order_release);
      delivered = true;
    }
  }
  if (delivered) {
    epoch_.fetch_add(1, std::memory_order_release);
    FutexWake(&epoch_, INT32_MAX);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void CrossFlags::Wait(uint32_t unit, uint32_t flag) {
  if (flag >= kFlags) Misuse("CrossCoreWaitFlag", 0, flag, "the flag is 0..15");
  std::atomic<uint32_t>& counter = counters_[static_cast<size_t>(unit) * kFlags + flag];
  for (;;) {
    const uint32_t epoch = epoch_.load(std::memory_order_acquire);
    uint32_t c = counter.load(std::memory_order_acquire);
    while (c != 0) {
      if (counter.compare_exchange_weak(c, c - 1, std::memory_order_acq_rel)) return;
    }
    if (failed_->load(std::memory_order_acquire) != 0) {
      FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreWaitFlag: another participant of the launch failed");
    }
    FutexWait(&epoch_, epoch, NowNs() + kCoopRecheckNs);
  }
}

void ServiceCrossSet(uint32_t mode, uint32_t flag) {
  CrossFlags* flags = RunningFlags("CrossCoreSetFlag");
  flags->Set(CurrentBlockThread().unit, mode, flag);
}

void ServiceCrossWait(uint32_t mode, uint32_t flag) {
  (void)mode;  // one counter per flag, whatever the mode
  CrossFlags* flags = RunningFlags("CrossCoreWaitFlag");
  flags->Wait(CurrentBlockThread().unit, flag);
}

}  // namespace npurt::drivers::sim
