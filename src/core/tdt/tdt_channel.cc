#include "core/tdt/tdt_channel.h"

#include <cstring>
#include <map>
#include <utility>

#include "acl/acl.h"
#include "core/handle_tags.h"
#include "core/tdt/tdt_wait.h"

namespace npurt::core {

struct TdtChannel::Fifo {
  uint32_t device = 0;
  std::string name;
  size_t capacity = kUnlimited;
  std::mutex mu;
  std::condition_variable not_empty;
  std::condition_variable not_full;
  std::deque<TdtMessage> messages;
  bool stopped = false;
};

namespace {

// Live channels by (device, name). Weak: the FIFO belongs to its handles; an expired entry is replaced
// when the name is used again.
struct ChannelRegistry {
  std::mutex mu;
  std::map<std::pair<uint32_t, std::string>, std::weak_ptr<TdtChannel::Fifo>> fifos;
};

ChannelRegistry& Registry() {
  static ChannelRegistry* registry = new ChannelRegistry();  // never destroyed: handles may outlive statics
  return *registry;
}

Status StoppedError(const TdtChannel::Fifo& fifo) {
  return Err(ACL_ERROR_FAILURE, "channel '{}' of device {} was stopped (acltdtStopChannel)", fifo.name, fifo.device);
}

}  // namespace

TdtChannel::TdtChannel(std::shared_ptr<Fifo> fifo) : HandleObject(handle_tags::kTdtChannel), fifo_(std::move(fifo)) {}

TdtChannel::~TdtChannel() = default;

StatusOr<TdtChannel*> TdtChannel::Create(uint32_t device, const char* name, size_t capacity) {
  if (name == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "name is a null pointer");
  size_t len = strnlen(name, kMaxNameLength + 1);
  if (len == 0) return Err(ACL_ERROR_INVALID_PARAM, "the channel name is empty");
  if (len > kMaxNameLength) return Err(ACL_ERROR_INVALID_PARAM, "the channel name exceeds {} characters", kMaxNameLength);
  if (capacity == 0) return Err(ACL_ERROR_INVALID_PARAM, "capacity is 0");

  ChannelRegistry& reg = Registry();
  std::shared_ptr<Fifo> fifo;
  {
    std::lock_guard<std::mutex> lock(reg.mu);
    auto& slot = reg.fifos[{device, std::string(name, len)}];
    fifo = slot.lock();
    if (fifo == nullptr) {
      // The first handle decides the capacity; later handles of the same name join its FIFO.
      fifo = std::make_shared<Fifo>();
      fifo->device = device;
      fifo->name.assign(name, len);
      fifo->capacity = capacity;
      slot = fifo;
    }
  }
  TdtChannel* ch = NewHandle<TdtChannel>(std::move(fifo));
  if (ch == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for channels");
  return ch;
}

Status TdtChannel::Send(TdtMessage&& message, int32_t timeout_ms) const {
  Fifo& f = *fifo_;
  std::unique_lock<std::mutex> lock(f.mu);
  bool room = WaitWithTimeout(lock, f.not_full, timeout_ms,
                              [&f] { return f.stopped || f.messages.size() < f.capacity; });
  if (f.stopped) return StoppedError(f);
  if (!room) {
    return Err(ACL_ERROR_RT_QUEUE_FULL, "channel '{}' is full ({} datasets) after waiting {} ms", f.name,
               f.messages.size(), timeout_ms);
  }
  f.messages.push_back(std::move(message));
  lock.unlock();  // wake the receiver after unlocking, so it does not wake only to block on the mutex
  f.not_empty.notify_one();
  return Status::Ok();
}

StatusOr<TdtMessage> TdtChannel::Receive(int32_t timeout_ms) const {
  Fifo& f = *fifo_;
  std::unique_lock<std::mutex> lock(f.mu);
  bool ready = WaitWithTimeout(lock, f.not_empty, timeout_ms, [&f] { return f.stopped || !f.messages.empty(); });
  if (f.stopped) return StoppedError(f);
  if (!ready) return Err(ACL_ERROR_RT_QUEUE_EMPTY, "channel '{}' is empty after waiting {} ms", f.name, timeout_ms);
  TdtMessage m = std::move(f.messages.front());
  f.messages.pop_front();
  lock.unlock();
  f.not_full.notify_one();
  return m;
}

size_t TdtChannel::Size() const {
  std::lock_guard<std::mutex> lock(fifo_->mu);
  return fifo_->messages.size();
}

void TdtChannel::Clean() const {
  std::deque<TdtMessage> dropped;
  {
    std::lock_guard<std::mutex> lock(fifo_->mu);
    dropped.swap(fifo_->messages);
  }
  fifo_->not_full.notify_all();
}

void TdtChannel::Stop() const {
  {
    std::lock_guard<std::mutex> lock(fifo_->mu);
    fifo_->stopped = true;
  }
  fifo_->not_empty.notify_all();
  fifo_->not_full.notify_all();
}

void TdtChannel::Destroy() {
  if (Invalidate()) Release();
}

}  // namespace npurt::core
