#include "hccl/local_transport.h"

#include <cstring>

#include <fmt/format.h>

#include "base/clock.h"
#include "hccl/reduce.h"
#include "hccl/result.h"

namespace npurt::hccl {
namespace {

// Spinning answers a peer in well under a microsecond when cores are free; past this the waiter sleeps
// (ranks outnumber the cores on small machines, and a spinning rank would keep its peers off the core).
constexpr uint64_t kSpinNs = 20'000;
}  // namespace

LocalGroup::LocalGroup(uint32_t size) : size_(size), posted_(2 * size), passed_(size), failed_(size) {}

void LocalGroup::Publish(uint32_t rank, uint64_t index, const OpArgs& op) {
  Posted& p = posted_[rank * 2 + (index & 1)];
  p.args = op;
  const uint64_t bytes = op.count * DataTypeSize(op.dtype);
  p.staged = op.kind == OpKind::kAllReduce && bytes <= kWholeReduceBytes && op.send != nullptr;
  if (p.staged) {
    p.input.resize(bytes);
    std::memcpy(p.input.data(), op.send, bytes);
    p.args.send = p.input.data();
  }
}

bool LocalGroup::InputsStaged(uint64_t index) const {
  for (uint32_t r = 0; r < size_; ++r) {
    if (!posted_[r * 2 + (index & 1)].staged) return false;
  }
  return true;
}

bool LocalGroup::WaitFor(auto&& ready, uint64_t deadline_ns) {
  return signal_.WaitUntil([&] { return broken() || ready(); }, deadline_ns, kSpinNs);
}

Status LocalGroup::Meet(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what) {
  passed_[rank].store(generation, std::memory_order_release);
  signal_.Notify();
  auto all_arrived = [&] {
    for (uint32_t r = 0; r < size_; ++r) {
      if (passed_[r].load(std::memory_order_acquire) < generation) return false;
    }
    return true;
  };
  // Everyone arrived: done, even if the group broke meanwhile (a later operation will see that).
  if (WaitFor(all_arrived, deadline_ns)) return all_arrived() ? Status() : BrokenStatus();
  std::string missing;
  for (uint32_t r = 0; r < size_; ++r) {
    if (passed_[r].load(std::memory_order_acquire) < generation) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", r);
  }
  Break(MissedMeetingReason(what, missing));
  return Err(HCCL_E_TIMEOUT, "{}", BrokenStatus().message());
}

Status LocalGroup::MeetAndTell(uint32_t rank, uint64_t generation, uint64_t deadline_ns, const char* what, bool failed,
                               bool* any_failed) {
  if (failed) failed_[rank].store(generation, std::memory_order_release);
  NPURT_RETURN_IF_ERROR(Meet(rank, generation, deadline_ns, what));
  *any_failed = false;
  for (uint32_t r = 0; r < size_; ++r) *any_failed = *any_failed || failed_[r].load(std::memory_order_acquire) == generation;
  return Status();
}

void LocalGroup::Break(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!broken_.load(std::memory_order_relaxed)) broken_reason_ = reason;
    broken_.store(true, std::memory_order_release);
  }
  signal_.Notify();
}

Status LocalGroup::BrokenStatus() const {
  if (!broken()) return Status();
  std::lock_guard<std::mutex> lock(mu_);
  return Err(HCCL_E_REMOTE, "{}", broken_reason_);
}

void LocalGroup::Post(uint32_t from, uint32_t to, Message* message) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    channels_[{from, to}].push_back(message);
  }
  signal_.Notify();
}

StatusOr<LocalGroup::Message*> LocalGroup::Take(uint32_t from, uint32_t to, uint64_t deadline_ns) {
  Message* taken = nullptr;
  auto try_take = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = channels_.find({from, to});
    if (it == channels_.end() || it->second.empty()) return false;
    taken = it->second.front();
    it->second.pop_front();
    return true;
  };
  if (!WaitFor(try_take, deadline_ns)) {
    return Err(HCCL_E_TIMEOUT, "rank {} waited for a send from rank {} that did not come before the timeout "
               "(HCCL_EXEC_TIMEOUT)", to, from);
  }
  if (taken == nullptr) return BrokenStatus();
  return taken;
}

void LocalGroup::Finish(Message* message, int32_t code, std::string error) {
  if (code != 0) message->error = std::move(error);
  message->result.store(code, std::memory_order_release);
  signal_.Notify();
}

Status LocalGroup::AwaitConsumed(uint32_t from, uint32_t to, Message* message, uint64_t deadline_ns) {
  auto consumed = [&] { return message->result.load(std::memory_order_acquire) >= 0; };
  if (!WaitFor(consumed, deadline_ns)) {
    // Withdraw the message so that a late receiver cannot read a buffer the sender gave back.
    std::lock_guard<std::mutex> lock(mu_);
    auto& queue = channels_[{from, to}];
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      if (*it == message) {
        queue.erase(it);
        return Err(HCCL_E_TIMEOUT, "rank {}'s send to rank {} was not received before the timeout (HCCL_EXEC_TIMEOUT)",
                   from, to);
      }
    }
    // Taken meanwhile: the receiver is copying; it finishes promptly.
  }
  if (!consumed()) {
    signal_.WaitUntil(consumed, UINT64_MAX, kSpinNs);
  }
  const int32_t code = message->result.load(std::memory_order_acquire);
  if (code != 0) return Err(code, "{}", message->error);
  return Status();
}

LocalTransport::LocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank) : group_(std::move(group)), rank_(rank) {}

Status LocalTransport::Meet(uint64_t deadline_ns, const char* what) {
  return group_->Meet(rank_, ++generation_, deadline_ns, what);
}

Status LocalTransport::Run(const OpArgs& op, uint64_t deadline_ns) {
  if (Status broken = group_->BrokenStatus(); !broken.ok()) return broken;
  if (op.kind == OpKind::kSend || op.kind == OpKind::kRecv || op.kind == OpKind::kBatchSendRecv) {
    return RunPointToPoint(op, deadline_ns);
  }
  return RunCollective(op, deadline_ns);
}

Status LocalTransport::RunCollective(const OpArgs& op, uint64_t deadline_ns, const ChunkStage* stage) {
  ++collectives_;
  group_->Publish(rank_, collectives_, op);
  if (Status s = Meet(deadline_ns, "the ranks' arrival"); !s.ok()) return s;
  return RunCollectiveSteps(*this, op, "", deadline_ns, stage);
}

Status LocalTransport::RunStaged(const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage) {
  if (Status broken = group_->BrokenStatus(); !broken.ok()) return broken;
  return RunCollective(op, deadline_ns, &stage);
}

Status LocalTransport::RunPointToPoint(const OpArgs& op, uint64_t deadline_ns) {
  // Every send is posted first, so that the receives of the same call (a ring's) cannot wait for it.
  std::vector<std::unique_ptr<LocalGroup::Message>> sends;
  for (const P2pItem& item : op.items) {
    if (!item.send) continue;
    sends.push_back(std::make_unique<LocalGroup::Message>());
    sends.back()->item = &item;
    group_->Post(rank_, item.peer, sends.back().get());
  }
  Status first;
  for (const P2pItem& item : op.items) {
    if (item.send) continue;
    auto taken = group_->Take(item.peer, rank_, deadline_ns);
    if (!taken.ok()) {
      if (first.ok()) first = taken.status();
      continue;
    }
    LocalGroup::Message* m = taken.value();
    const size_t bytes = item.count * DataTypeSize(item.dtype);
    const size_t sent = m->item->count * DataTypeSize(m->item->dtype);
    if (sent != bytes) {
      std::string why = fmt::format("rank {} sends {} {} ({} bytes) to rank {}, which receives {} {} ({} bytes)", item.peer,
                                    m->item->count, DataTypeName(m->item->dtype), sent, rank_, item.count,
                                    DataTypeName(item.dtype), bytes);
      group_->Finish(m, HCCL_E_PARA, why);
      if (first.ok()) first = Err(HCCL_E_PARA, "{}", why);
      continue;
    }
    CopyIfDistinct(item.buf, m->item->buf, bytes);
    group_->Finish(m, 0, "");
  }
  for (size_t i = 0; i < sends.size(); ++i) {
    const P2pItem& item = *sends[i]->item;
    Status s = group_->AwaitConsumed(rank_, item.peer, sends[i].get(), deadline_ns);
    if (!s.ok() && first.ok()) first = s;
  }
  return first;
}

}  // namespace npurt::hccl
