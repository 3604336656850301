#include "drivers/sim/sim_shared_flag.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "drivers/sim/sim_device.h"

namespace npurt::drivers::sim {

struct SimSharedFlag::Page {
  uint32_t magic;
  uint32_t version;
  std::atomic<uint32_t> epoch;     // bumped by every signal; the futex word
  std::atomic<int32_t> sleepers;   // threads (of every process) asleep on `epoch`
  std::atomic<uint64_t> value;
  std::atomic<uint64_t> timestamp_ns;
  alignas(64) uint8_t area[hal::kFlagSharedAreaBytes];
};

namespace {

constexpr uint32_t kPageMagic = 0x4e50464c;  // "NPFL"
constexpr uint32_t kPageVersion = 1;
constexpr size_t kFlagPageBytes = 4096;
static_assert(sizeof(SimSharedFlag::Page) <= kFlagPageBytes);
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free,
              "shared-memory atomics must be lock-free");

struct FlagTokenLayout {
  uint32_t magic;
  int32_t pid;
  int32_t fd;
  uint32_t reserved;
  uint64_t start_time;
};
static_assert(sizeof(FlagTokenLayout) <= sizeof(hal::FlagShareToken));

StatusOr<SimSharedFlag::Page*> MapPage(int fd) {
  void* p = mmap(nullptr, kFlagPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "mapping a shared flag failed: {}", std::strerror(errno));
  }
  return static_cast<SimSharedFlag::Page*>(p);
}

}  // namespace

StatusOr<std::unique_ptr<hal::Flag>> SimSharedFlag::Create() {
  const int fd = memfd_create("npurt-flag", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, kFlagPageBytes) != 0) {
    const int err = errno;
    if (fd >= 0) close(fd);
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "creating a shared flag failed: {}", std::strerror(err));
  }
  auto page = MapPage(fd);
  if (!page.ok()) {
    close(fd);
    return page.status();
  }
  Page* pg = page.value();  // zero-filled by ftruncate
  pg->version = kPageVersion;
  __atomic_store_n(&pg->magic, kPageMagic, __ATOMIC_RELEASE);
  FlagTokenLayout t{kPageMagic, getpid(), fd, 0, ProcessStartTime(getpid())};
  hal::FlagShareToken token{};
  std::memcpy(token.bytes, &t, sizeof t);
  return std::unique_ptr<hal::Flag>(new SimSharedFlag(pg, fd, token));
}

StatusOr<std::unique_ptr<hal::Flag>> SimSharedFlag::Open(const hal::FlagShareToken& token) {
  FlagTokenLayout t;
  std::memcpy(&t, token.bytes, sizeof t);
  if (t.magic != kPageMagic || t.pid <= 0 || t.fd < 0) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "the handle does not name a shared event or notify of a simulated device");
  }
  if (ProcessStartTime(t.pid) != t.start_time) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "the process {} that shared the event or notify has exited", t.pid);
  }
  const std::string path = "/proc/" + std::to_string(t.pid) + "/fd/" + std::to_string(t.fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return Err(ACL_ERROR_RT_NO_PERMISSION, "cannot open the shared event or notify of process {} ({}): {}", t.pid,
               path, std::strerror(errno));
  }
  struct stat st {};
  const bool sized = fstat(fd, &st) == 0 && st.st_size == static_cast<off_t>(kFlagPageBytes);
  auto page = sized ? MapPage(fd) : StatusOr<Page*>(Err(ACL_ERROR_RT_PARAM_INVALID, "{} is not a shared flag", path));
  close(fd);  // the mapping keeps the page
  if (!page.ok()) return page.status();
  if (__atomic_load_n(&page.value()->magic, __ATOMIC_ACQUIRE) != kPageMagic ||
      ProcessStartTime(t.pid) != t.start_time) {
    munmap(page.value(), kFlagPageBytes);
    return Err(ACL_ERROR_RT_PARAM_INVALID, "{} is not the shared event or notify that process {} exported", path,
               t.pid);
  }
  return std::unique_ptr<hal::Flag>(new SimSharedFlag(page.value(), -1, token));
}

SimSharedFlag::SimSharedFlag(Page* page, int fd, const hal::FlagShareToken& token)
    : SimFlag(&page->value, &page->timestamp_ns), page_(page), fd_(fd), token_(token) {
  watcher_ = std::thread([this] { Watch(); });
}

SimSharedFlag::~SimSharedFlag() {
  stop_.store(true, std::memory_order_release);
  // The watcher sleeps either on the local word or on the epoch. A bumped epoch makes its FUTEX_WAIT
  // return even if it had not slept yet; other processes' sleepers see a spurious wake-up, which they
  // tolerate.
  parked_.Notify();
  page_->epoch.fetch_add(1, std::memory_order_seq_cst);
  FutexWake(&page_->epoch, INT32_MAX, /*process_shared=*/true);
  watcher_.join();
  munmap(page_, kFlagPageBytes);
  if (fd_ >= 0) close(fd_);
}

void SimSharedFlag::Signal(uint64_t new_value) {
  SimFlag::Signal(new_value);  // value and time stamp live in the shared page
  WakePeers();
}

void SimSharedFlag::Increment() {
  SimFlag::Increment();
  WakePeers();
}

void SimSharedFlag::WakePeers() {
  // Sleepers re-check after the epoch changes. An RMW on `sleepers` pairs with the sleeper's increment
  // before its re-check (as in WaitSignal): either this sees the sleeper or the sleeper sees the value.
  page_->epoch.fetch_add(1, std::memory_order_seq_cst);
  if (page_->sleepers.fetch_add(0, std::memory_order_seq_cst) > 0) {
    FutexWake(&page_->epoch, INT32_MAX, /*process_shared=*/true);
  }
}

bool SimSharedFlag::WaitHost(uint64_t target, uint64_t deadline_ns) {
  const uint64_t spin_end = NowNs() + kHostSpinNs;
  SpinUntil([&] { return value() >= target; },
            [&](uint64_t now) { return now < spin_end && now < deadline_ns; });
  // Sleeps on the epoch directly: a signal of any process wakes this thread, with no watcher between.
  for (;;) {
    if (value() >= target) return true;
    const uint32_t seen = page_->epoch.load(std::memory_order_seq_cst);
    page_->sleepers.fetch_add(1, std::memory_order_seq_cst);
    const bool in_time = value() >= target || FutexWait(&page_->epoch, seen, deadline_ns, /*process_shared=*/true);
    page_->sleepers.fetch_sub(1, std::memory_order_acq_rel);
    if (value() >= target) return true;
    if (!in_time || NowNs() >= deadline_ns) return false;
  }
}

void SimSharedFlag::Watch() {
  // Watching: asleep on the epoch. The watcher keeps watching after it resumed the last parked queue
  // (in a ping-pong the queue parks again soon, and its parking then wakes nobody); it goes back to
  // the local word only when a change of the epoch finds no queue parked.
  bool watching = false;
  while (!stop_.load(std::memory_order_acquire)) {
    if (!watching) {
      parked_.WaitUntil([&] { return HasWaiters() || stop_.load(std::memory_order_acquire); }, UINT64_MAX, 0);
      watching = true;
      continue;
    }
    // Read the epoch, then deliver the value (a signal before the read is seen in the value, one after
    // it changes the epoch), then sleep until the epoch moves.
    const uint32_t seen = page_->epoch.load(std::memory_order_seq_cst);
    if (!HasWaiters()) {
      watching = false;
      continue;
    }
    WakeWaiters(value());
    page_->sleepers.fetch_add(1, std::memory_order_seq_cst);
    if (page_->epoch.load(std::memory_order_seq_cst) == seen && !stop_.load(std::memory_order_acquire)) {
      FutexWait(&page_->epoch, seen, UINT64_MAX, /*process_shared=*/true);
    }
    page_->sleepers.fetch_sub(1, std::memory_order_acq_rel);
  }
}

uint8_t* SimSharedFlag::shared_area() { return page_->area; }

// An importer hands on the creator's token: only the creator's memfd can be opened by others.
bool SimSharedFlag::share_token(hal::FlagShareToken* token) const {
  *token = token_;
  return true;
}

}  // namespace npurt::drivers::sim
