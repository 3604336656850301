#include "hccl/ipc_group.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

#include "base/process.h"
#include "hccl/collective_steps.h"
#include "hccl/result.h"

namespace npurt::hccl {
namespace {

constexpr uint64_t kIpcMagic = 0x6e707572'74697063;  // "nprtipc"
constexpr uint32_t kIpcVersion = 1;
// How often a sleeping waiter looks whether its peers' processes still run.
constexpr uint64_t kLivenessCheckNs = 20'000'000;

size_t AlignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

}  // namespace

struct IpcGroup::Header {
  uint64_t magic;
  uint32_t version;
  uint32_t size;
  uint64_t bytes;
  alignas(64) std::atomic<uint32_t> epoch;
  std::atomic<int32_t> sleepers;
  std::atomic<uint32_t> broken;  // 0; 1 while the first breaker writes `reason`; 2 once it is there
  char reason[kIpcReasonBytes];
};

size_t IpcGroup::Layout(uint32_t size, size_t* args_capacity, size_t* rank_stride) {
  // Arguments: the scalars and up to four arrays of `size` counts plus the AlltoAllVC matrix.
  *args_capacity = AlignUp(256 + 8 * (4 * static_cast<size_t>(size) + static_cast<size_t>(size) * size), 64);
  *rank_stride = AlignUp(sizeof(IpcRankSlot), 64) + *args_capacity + 2 * kIpcMaxRuns * 16 +
                 AlignUp(kIpcMaxSends * sizeof(IpcSend), 64) + kIpcSendRuns * 16;
  return AlignUp(sizeof(Header), 64) + size * *rank_stride;
}

IpcGroup::IpcGroup(uint32_t size, uint8_t* base, size_t bytes)
    : size_(size), base_(base), bytes_(bytes), header_(reinterpret_cast<Header*>(base)),
      slots_(new IpcRankSlot*[size]) {
  Layout(size, &args_capacity_, &rank_stride_);
  for (uint32_t r = 0; r < size; ++r) {
    slots_[r] = reinterpret_cast<IpcRankSlot*>(base + AlignUp(sizeof(Header), 64) + r * rank_stride_);
  }
}

IpcGroup::~IpcGroup() {
  ForgetLocator();
  munmap(base_, bytes_);
}

uint8_t* IpcGroup::args(uint32_t rank) const {
  return reinterpret_cast<uint8_t*>(slots_[rank]) + AlignUp(sizeof(IpcRankSlot), 64);
}
uint64_t* IpcGroup::runs(uint32_t rank) const { return reinterpret_cast<uint64_t*>(args(rank) + args_capacity_); }
IpcSend* IpcGroup::sends(uint32_t rank) const { return reinterpret_cast<IpcSend*>(runs(rank) + 4 * kIpcMaxRuns); }
uint64_t* IpcGroup::send_runs(uint32_t rank) const {
  return reinterpret_cast<uint64_t*>(reinterpret_cast<uint8_t*>(sends(rank)) + AlignUp(kIpcMaxSends * sizeof(IpcSend), 64));
}

StatusOr<std::unique_ptr<IpcGroup>> IpcGroup::Create(uint32_t size, std::string* locator) {
  size_t args_capacity = 0, stride = 0;
  const size_t bytes = Layout(size, &args_capacity, &stride);
  const int fd = memfd_create("npurt-hccl", MFD_CLOEXEC);
  if (fd < 0) return Err(HCCL_E_INTERNAL, "creating the communicator's shared memory failed: {}", std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int e = errno;
    close(fd);
    return Err(HCCL_E_MEMORY, "sizing the communicator's shared memory ({} bytes) failed: {}", bytes, std::strerror(e));
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    const int e = errno;
    close(fd);
    return Err(HCCL_E_MEMORY, "mapping the communicator's shared memory failed: {}", std::strerror(e));
  }
  // The fd stays open (and reachable through /proc) until this process exits or the group goes: peers
  // open it during the rendezvous only, and a mapping keeps the memory alive after.
  std::unique_ptr<IpcGroup> group(new IpcGroup(size, static_cast<uint8_t*>(p), bytes));
  Header* h = group->header_;
  h->magic = kIpcMagic;
  h->version = kIpcVersion;
  h->size = size;
  h->bytes = bytes;
  group->fd_ = fd;
  *locator = fmt::format("{} {} {}", getpid(), fd, ProcessStartTime(getpid()));
  return group;
}

StatusOr<std::unique_ptr<IpcGroup>> IpcGroup::Open(uint32_t size, const std::string& locator) {
  std::istringstream in(locator);
  int32_t pid = 0;
  int fd_number = -1;
  uint64_t start = 0;
  if (!(in >> pid >> fd_number >> start) || pid <= 0 || fd_number < 0) {
    return Err(HCCL_E_INTERNAL, "the communicator's shared memory locator '{}' is malformed", locator);
  }
  if (ProcessStartTime(pid) != start) return Err(HCCL_E_REMOTE, "rank 0's process {} has exited", pid);
  const std::string path = fmt::format("/proc/{}/fd/{}", pid, fd_number);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return Err(HCCL_E_INTERNAL, "cannot open rank 0's shared memory {}: {} (the ranks must run as one user)", path,
               std::strerror(errno));
  }
  size_t args_capacity = 0, stride = 0;
  const size_t bytes = Layout(size, &args_capacity, &stride);
  struct stat st {};
  if (fstat(fd, &st) != 0 || static_cast<size_t>(st.st_size) != bytes || ProcessStartTime(pid) != start) {
    close(fd);
    return Err(HCCL_E_INTERNAL, "{} is not the shared memory of a {}-rank communicator", path, size);
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return Err(HCCL_E_MEMORY, "mapping {} failed: {}", path, std::strerror(errno));
  std::unique_ptr<IpcGroup> group(new IpcGroup(size, static_cast<uint8_t*>(p), bytes));
  if (group->header_->magic != kIpcMagic || group->header_->version != kIpcVersion || group->header_->size != size ||
      group->header_->bytes != bytes) {
    return Err(HCCL_E_INTERNAL, "{} does not hold a {}-rank communicator's control block", path, size);
  }
  return group;
}

void IpcGroup::Claim(uint32_t rank) {
  IpcRankSlot& s = slot(rank);
  s.pid = getpid();
  s.start_time = ProcessStartTime(s.pid);
}

void IpcGroup::ForgetLocator() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

uint32_t IpcGroup::Epoch() const { return header_->epoch.load(std::memory_order_acquire); }

void IpcGroup::Notify() {
  header_->epoch.fetch_add(1, std::memory_order_seq_cst);
  if (header_->sleepers.load(std::memory_order_seq_cst) > 0) FutexWake(&header_->epoch, INT32_MAX, true);
}

void IpcGroup::SleepOnce(uint32_t seen, uint64_t deadline_ns) {
  header_->sleepers.fetch_add(1, std::memory_order_seq_cst);
  if (header_->epoch.load(std::memory_order_seq_cst) == seen) {
    FutexWait(&header_->epoch, seen, std::min(deadline_ns, NowNs() + kLivenessCheckNs), true);
  }
  header_->sleepers.fetch_sub(1, std::memory_order_seq_cst);
}

bool IpcGroup::CheckPeers(const std::function<bool(uint32_t)>& waits_on) {
  const uint64_t now = NowNs();
  if (now < next_liveness_check_ns_.load(std::memory_order_relaxed)) return false;
  next_liveness_check_ns_.store(now + kLivenessCheckNs, std::memory_order_relaxed);
  const int32_t me = getpid();
  for (uint32_t r = 0; r < size_; ++r) {
    const IpcRankSlot& s = slot(r);
    if (s.pid == 0 || s.pid == me || !waits_on(r)) continue;
    if (!ProcessRunning(s.pid, s.start_time)) {
      Break(fmt::format("rank {}'s process {} exited", r, s.pid));
      return true;
    }
  }
  return false;
}

Status IpcGroup::Meet(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what) {
  slot(rank).arrived.store(generation, std::memory_order_release);
  Notify();
  auto all_arrived = [&] {
    for (uint32_t r = 0; r < size_; ++r) {
      if (slot(r).arrived.load(std::memory_order_acquire) < generation) return false;
    }
    return true;
  };
  auto missing_rank = [&](uint32_t r) { return slot(r).arrived.load(std::memory_order_acquire) < generation; };
  if (WaitFor(all_arrived, deadline_ns, missing_rank)) return Status();
  if (broken()) return BrokenStatus();
  std::string missing;
  for (uint32_t r = 0; r < size_; ++r) {
    if (slot(r).arrived.load(std::memory_order_acquire) < generation) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", r);
  }
  Break(MissedMeetingReason(what, missing));
  return Err(HCCL_E_TIMEOUT, "{}", BrokenStatus().message());
}

Status IpcGroup::MeetAndTell(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what, bool failed,
                             bool* any_failed) {
  if (failed) slot(rank).failed_at.store(generation, std::memory_order_release);
  NPURT_RETURN_IF_ERROR(Meet(rank, generation, deadline_ns, what));
  *any_failed = false;
  for (uint32_t r = 0; r < size_; ++r) {
    *any_failed = *any_failed || slot(r).failed_at.load(std::memory_order_acquire) == generation;
  }
  return Status();
}

void IpcGroup::Break(const std::string& reason) {
  uint32_t expected = 0;
  if (header_->broken.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
    const size_t n = std::min(reason.size(), static_cast<size_t>(kIpcReasonBytes - 1));
    std::memcpy(header_->reason, reason.data(), n);
    header_->reason[n] = '\0';
    header_->broken.store(2, std::memory_order_release);
  }
  Notify();
}

bool IpcGroup::broken() const { return header_->broken.load(std::memory_order_acquire) != 0; }

Status IpcGroup::BrokenStatus() const {
  if (!broken()) return Status();
  // The breaker writes a bounded string between its two stores; wait for it (briefly) rather than read it torn.
  const uint64_t until = NowNs() + 100'000'000;
  while (header_->broken.load(std::memory_order_acquire) != 2 && NowNs() < until) YieldCore();
  if (header_->broken.load(std::memory_order_acquire) != 2) return Err(HCCL_E_REMOTE, "the communicator broke");
  return Err(HCCL_E_REMOTE, "{}", std::string(header_->reason, strnlen(header_->reason, kIpcReasonBytes)));
}

}  // namespace npurt::hccl
