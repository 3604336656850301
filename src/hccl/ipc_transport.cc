#include "hccl/ipc_transport.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "core/runtime.h"
#include "hccl/group_registry.h"
#include "hccl/net/store_client.h"
#include "hccl/result.h"

namespace npurt::hccl {
namespace ipc_wire {

// A collective's arguments in the control block: these scalars, then the arrays (counts as given).
struct ArgsHead {
  uint32_t kind;
  int32_t dtype;
  int32_t op;
  int32_t recv_dtype;
  uint32_t root;
  uint32_t lengths[5];  // send_counts, send_displs, recv_counts, recv_displs, count_matrix
  uint64_t seq;
  uint64_t count;
  uint64_t recv_count;
};

// The count arrays in their order on the wire.
template <typename Args>
auto* ArrayOf(Args& op, size_t i) {
  switch (i) {
    case 0: return &op.send_counts;
    case 1: return &op.send_displs;
    case 2: return &op.recv_counts;
    case 3: return &op.recv_displs;
    default: return &op.count_matrix;
  }
}

uint64_t MaxEnd(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs) {
  uint64_t end = 0;
  for (size_t i = 0; i < counts.size() && i < displs.size(); ++i) {
    if (counts[i] != 0) end = std::max(end, displs[i] + counts[i]);
  }
  return end;
}

// The bytes of this rank's send and receive buffers that `op` touches (0: none), as the API checked them.
void SharedSpans(const OpArgs& op, uint32_t rank, uint32_t n, uint64_t* send, uint64_t* recv) {
  const uint64_t es = DataTypeSize(op.dtype), er = DataTypeSize(op.recv_dtype);
  *send = *recv = 0;
  switch (op.kind) {
    case OpKind::kAllReduce: *send = *recv = op.count * es; break;
    case OpKind::kBroadcast: *recv = op.count * es; break;
    case OpKind::kReduce:
      *send = op.count * es;
      if (rank == op.root) *recv = op.count * es;
      break;
    case OpKind::kAllGather: *send = op.count * es, *recv = n * op.count * es; break;
    case OpKind::kAllGatherV: *send = op.count * es, *recv = MaxEnd(op.recv_counts, op.recv_displs) * es; break;
    case OpKind::kReduceScatter: *send = n * op.count * es, *recv = op.count * es; break;
    case OpKind::kReduceScatterV: *send = MaxEnd(op.send_counts, op.send_displs) * es, *recv = op.recv_count * es; break;
    case OpKind::kScatter:
      if (rank == op.root) *send = n * op.count * es;
      *recv = op.count * es;
      break;
    case OpKind::kAlltoAll: *send = n * op.count * es, *recv = n * op.recv_count * er; break;
    case OpKind::kAlltoAllV:
      *send = MaxEnd(op.send_counts, op.send_displs) * es;
      *recv = MaxEnd(op.recv_counts, op.recv_displs) * er;
      break;
    case OpKind::kAlltoAllVC: {
      uint64_t sent = 0, received = 0;
      for (uint32_t j = 0; j < n && op.count_matrix.size() == static_cast<size_t>(n) * n; ++j) {
        sent += op.count_matrix[static_cast<size_t>(rank) * n + j];
        received += op.count_matrix[static_cast<size_t>(j) * n + rank];
      }
      *send = sent * es, *recv = received * er;
      break;
    }
    default: break;  // barrier
  }
}

}  // namespace ipc_wire

using ipc_wire::ArgsHead;

namespace {

// The control blocks this process has mapped, by the job's key prefix: ranks of one job that live in this
// process share one mapping, so that their waits and wakes are on the same words (and the memory order
// between them is plain to tools such as ThreadSanitizer).
GroupRegistry<IpcGroup>& Blocks() {
  static auto* blocks = new GroupRegistry<IpcGroup>;
  return *blocks;
}

// Polls the store until `done()` or until some rank published why it cannot join (under `failed`): a rank
// that cannot open the control block must not leave the others waiting out the connect timeout.
Status AwaitRanks(StoreClient* store, const std::string& failed, uint64_t deadline_ns, const char* what,
                  const std::function<StatusOr<bool>()>& done) {
  for (;;) {
    auto ready = done();
    if (!ready.ok()) return ready.status();
    if (ready.value()) return Status();
    auto broke = store->Check({failed});
    if (!broke.ok()) return broke.status();
    if (broke.value()) {
      auto why = store->Get(failed, deadline_ns);
      return Err(HCCL_E_REMOTE, "{}", why.ok() ? std::string(why.value().begin(), why.value().end()) : "a rank failed to join");
    }
    if (NowNs() >= deadline_ns) return Err(HCCL_E_TIMEOUT, "not every rank {} before the timeout (HCCL_CONNECT_TIMEOUT)", what);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

StatusOr<std::unique_ptr<IpcTransport>> IpcTransport::Create(uint32_t rank, uint32_t size, int32_t device_id,
                                                             StoreClient* store, const std::string& prefix,
                                                             uint64_t deadline_ns) {
  const std::string failed = prefix + "failed";
  // Tells the other ranks why this one cannot join, so that they fail now rather than at the timeout.
  auto give_up = [&](const Status& why) {
    const std::string text = fmt::format("rank {} could not join the shared control block: {}", rank, why.message());
    (void)store->Set(failed, std::vector<char>(text.begin(), text.end()));
    return Err(why.code(), "{}", text);
  };
  auto device = core::Runtime::Get().GetDevice(device_id);
  if (!device.ok()) return give_up(Err(HCCL_E_RUNTIME, "device {}: {}", device_id, device.status().message()));
  auto token = core::PeerShareToken(device.value());
  if (!token.ok()) {
    return give_up(Err(HCCL_E_NOT_SUPPORT, "device {} cannot share its memory with other processes: {}", device_id,
                       token.status().message()));
  }
  StatusOr<std::shared_ptr<IpcGroup>> group = Err(HCCL_E_INTERNAL, "no control block");
  if (rank == 0) {
    std::string locator;
    group = Blocks().FindOrMake(
        prefix, [](const IpcGroup&) { return false; },  // rank 0 makes the job's block
        [&]() -> StatusOr<std::shared_ptr<IpcGroup>> {
          auto created = IpcGroup::Create(size, &locator);
          if (!created.ok()) return created.status();
          return std::shared_ptr<IpcGroup>(std::move(created.value()));
        });
    if (!group.ok()) return give_up(group.status());
    NPURT_RETURN_IF_ERROR(store->Set(prefix + "block", std::vector<char>(locator.begin(), locator.end())));
  } else {
    NPURT_RETURN_IF_ERROR(AwaitRanks(store, failed, deadline_ns, "learned where the ranks meet",
                                     [&] { return store->Check({prefix + "block"}); }));
    auto locator = store->Get(prefix + "block", deadline_ns);
    if (!locator.ok()) return locator.status();
    group = Blocks().FindOrMake(
        prefix, [](const IpcGroup&) { return true; },  // rank 0, or another rank, of this process opened it
        [&]() -> StatusOr<std::shared_ptr<IpcGroup>> {
          auto opened = IpcGroup::Open(size, std::string(locator.value().begin(), locator.value().end()));
          if (!opened.ok()) return opened.status();
          return std::shared_ptr<IpcGroup>(std::move(opened.value()));
        });
    if (!group.ok()) return give_up(group.status());
  }
  IpcGroup& block = *group.value();
  IpcRankSlot& me = block.slot(rank);
  block.Claim(rank);
  me.memory_bytes = core::PeerMemoryBytes(device.value());
  std::memcpy(me.token, token.value().bytes, sizeof(me.token));
  NPURT_RETURN_IF_ERROR(store->Add(prefix + "ready", 1).status());
  Status all = AwaitRanks(store, failed, deadline_ns, "opened the shared control block", [&]() -> StatusOr<bool> {
    auto count = store->Add(prefix + "ready", 0);
    if (!count.ok()) return count.status();
    return count.value() >= static_cast<int64_t>(size);
  });
  if (!all.ok()) return Err(all.code(), "rank {}: {}", rank, all.message());
  if (rank == 0) block.ForgetLocator();
  return std::unique_ptr<IpcTransport>(new IpcTransport(std::move(group.value()), rank, device.value()));
}

IpcTransport::IpcTransport(std::shared_ptr<IpcGroup> group, uint32_t rank, core::Device* device)
    : group_(std::move(group)), rank_(rank), device_(device), pid_(getpid()), peers_(group_->size()),
      views_(group_->size()) {}

Status IpcTransport::Run(const OpArgs& op, uint64_t deadline_ns) {
  if (Status broken = group_->BrokenStatus(); !broken.ok()) return broken;
  ++use_;
  if (op.kind == OpKind::kSend || op.kind == OpKind::kRecv || op.kind == OpKind::kBatchSendRecv) {
    return RunPointToPoint(op, deadline_ns);
  }
  return RunCollective(op, deadline_ns);
}

Status IpcTransport::Describe(const void* ptr, uint64_t bytes, uint64_t* table, uint32_t first, uint32_t capacity,
                              IpcBuffer* out) {
  *out = IpcBuffer{reinterpret_cast<uint64_t>(ptr), bytes, 0, first, 0};
  if (bytes == 0) return Status();
  core::PeerExtents extents;
  if (Status s = core::DescribeForPeers(device_, ptr, bytes, &extents); !s.ok()) {
    return Err(HCCL_E_PARA, "{} (buffers shared with other processes must come from aclrtMalloc or a memory pool)",
               s.message());
  }
  if (extents.runs.size() > capacity - first) {
    return Err(HCCL_E_NOT_SUPPORT, "a buffer of {} bytes spans {} separate runs of device pages, more than the {} a "
               "transfer between processes can name", bytes, extents.runs.size(), capacity - first);
  }
  for (size_t i = 0; i < extents.runs.size(); ++i) {
    table[2 * (first + i)] = extents.runs[i].first;
    table[2 * (first + i) + 1] = extents.runs[i].second;
  }
  out->inner = extents.inner;
  out->run_count = static_cast<uint32_t>(extents.runs.size());
  return Status();
}

StatusOr<uint8_t*> IpcTransport::Reach(uint32_t r, const IpcBuffer& buffer, const uint64_t* table, uint32_t table_runs) {
  if (buffer.bytes == 0) return static_cast<uint8_t*>(nullptr);
  const IpcRankSlot& peer = group_->slot(r);
  if (peer.pid == pid_) return reinterpret_cast<uint8_t*>(buffer.address);  // a device of this process
  if (buffer.run_count == 0 || buffer.first_run > table_runs || buffer.run_count > table_runs - buffer.first_run) {
    return Err(HCCL_E_INTERNAL, "rank {} published a buffer with runs [{}, +{}) outside its table", r, buffer.first_run,
               buffer.run_count);
  }
  if (views_[r] == nullptr) {
    core::PeerToken token{};
    std::memcpy(token.bytes, peer.token, sizeof(token.bytes));
    // The views of all peers share this device's window (four times its memory): each peer's cache gets
    // an equal part of one memory's worth.
    const uint64_t cache = core::PeerMemoryBytes(device_) / std::max<uint32_t>(1, group_->size() - 1);
    auto opened = core::PeerMemoryViews::Open(device_, token, peer.memory_bytes, cache);
    if (!opened.ok()) {
      return Err(HCCL_E_REMOTE, "rank {} cannot open the device memory of rank {} (process {}): {}", rank_, r, peer.pid,
                 opened.status().message());
    }
    views_[r] = std::move(opened.value());
  }
  std::vector<core::PageRun> runs(buffer.run_count);
  uint64_t span = 0;
  for (uint32_t i = 0; i < buffer.run_count; ++i) {
    runs[i] = {table[2 * (buffer.first_run + i)], table[2 * (buffer.first_run + i) + 1]};
    span += runs[i].second;
  }
  if (buffer.inner > span || buffer.bytes > span - buffer.inner) {
    return Err(HCCL_E_INTERNAL, "rank {} published a buffer of {} bytes at offset {} in {} bytes of pages", r,
               buffer.bytes, buffer.inner, span);
  }
  auto view = views_[r]->View(runs, buffer.inner, use_);
  if (!view.ok()) {
    return Err(HCCL_E_MEMORY, "rank {} cannot map a buffer of rank {}: {}", rank_, r, view.status().message());
  }
  return view.value();
}

// ---- Collectives.

void IpcTransport::Publish(const OpArgs& op) {
  IpcRankSlot& me = group_->slot(rank_);
  uint8_t* area = group_->args(rank_);
  ArgsHead head{};
  head.kind = static_cast<uint32_t>(op.kind);
  head.dtype = op.dtype;
  head.op = op.op;
  head.recv_dtype = op.recv_dtype;
  head.root = op.root;
  head.seq = op.seq;
  head.count = op.count;
  head.recv_count = op.recv_count;
  size_t at = sizeof(head);
  std::string invalid;
  for (size_t i = 0; i < 5; ++i) {
    const std::vector<uint64_t>& a = *ipc_wire::ArrayOf(op, i);
    head.lengths[i] = static_cast<uint32_t>(a.size());
    const size_t bytes = a.size() * sizeof(uint64_t);
    if (at + bytes > group_->args_capacity()) {
      invalid = fmt::format("rank {}'s count arrays do not fit the {} bytes a {}-rank communicator has for them", rank_,
                            group_->args_capacity(), group_->size());
      break;
    }
    if (bytes != 0) std::memcpy(area + at, a.data(), bytes);
    at += bytes;
  }
  std::memcpy(area, &head, sizeof(head));
  me.args_bytes = static_cast<uint32_t>(at);
  uint64_t send_bytes = 0, recv_bytes = 0;
  ipc_wire::SharedSpans(op, rank_, group_->size(), &send_bytes, &recv_bytes);
  uint64_t* table = group_->runs(rank_);
  if (invalid.empty()) {
    if (Status s = Describe(op.send, send_bytes, table, 0, kIpcMaxRuns, &me.send); !s.ok()) {
      invalid = fmt::format("rank {}'s send buffer cannot be shared: {}", rank_, s.message());
    }
  }
  if (invalid.empty()) {
    if (Status s = Describe(op.recv, recv_bytes, table, kIpcMaxRuns, 2 * kIpcMaxRuns, &me.recv); !s.ok()) {
      invalid = fmt::format("rank {}'s receive buffer cannot be shared: {}", rank_, s.message());
    }
  }
  me.invalid = invalid.empty() ? 0 : 1;
  const size_t n = std::min(invalid.size(), sizeof(me.reason) - 1);
  std::memcpy(me.reason, invalid.data(), n);
  me.reason[n] = '\0';
}

std::string IpcTransport::Adopt(uint32_t r) {
  const IpcRankSlot& slot = group_->slot(r);
  if (slot.invalid != 0) {
    return std::string(slot.reason, strnlen(slot.reason, sizeof(slot.reason)));
  }
  const uint8_t* area = group_->args(r);
  if (slot.args_bytes < sizeof(ArgsHead)) return fmt::format("rank {} published {} bytes of arguments", r, slot.args_bytes);
  ArgsHead head;
  std::memcpy(&head, area, sizeof(head));
  OpArgs& peer = peers_[r];
  peer.kind = static_cast<OpKind>(head.kind);
  peer.seq = head.seq;
  peer.dtype = head.dtype;
  peer.op = head.op;
  peer.recv_dtype = head.recv_dtype;
  peer.root = head.root;
  peer.count = head.count;
  peer.recv_count = head.recv_count;
  const size_t n = group_->size();
  size_t at = sizeof(head);
  for (size_t i = 0; i < 5; ++i) {
    const size_t limit = i == 4 ? n * n : n;
    const size_t bytes = static_cast<size_t>(head.lengths[i]) * sizeof(uint64_t);
    if (head.lengths[i] > limit || at + bytes > std::min<size_t>(slot.args_bytes, group_->args_capacity())) {
      return fmt::format("rank {} published a count array of {} entries (at most {})", r, head.lengths[i], limit);
    }
    std::vector<uint64_t>& a = *ipc_wire::ArrayOf(peer, i);
    a.resize(head.lengths[i]);
    if (bytes != 0) std::memcpy(a.data(), area + at, bytes);
    at += bytes;
  }
  return "";
}

Status IpcTransport::RunStaged(const OpArgs& op, uint64_t deadline_ns, const ChunkStage& stage) {
  if (Status broken = group_->BrokenStatus(); !broken.ok()) return broken;
  ++use_;
  return RunCollective(op, deadline_ns, &stage);
}

Status IpcTransport::RunCollective(const OpArgs& op, uint64_t deadline_ns, const ChunkStage* stage) {
  current_ = &op;
  Publish(op);
  if (Status s = MeetAll(deadline_ns, "the ranks' arrival"); !s.ok()) return s;
  // A rank whose arguments or buffers cannot be shared fails every rank alike (the first such rank's reason).
  std::string verdict;
  for (uint32_t r = 0; r < group_->size() && verdict.empty(); ++r) {
    if (r != rank_) verdict = Adopt(r);
    if (r == rank_ && group_->slot(r).invalid != 0) {
      verdict = std::string(group_->slot(r).reason, strnlen(group_->slot(r).reason, sizeof(group_->slot(r).reason)));
    }
  }
  if (verdict.empty()) {
    for (uint32_t r = 0; r < group_->size(); ++r) {
      if (r == rank_) continue;
      const IpcRankSlot& slot = group_->slot(r);
      const uint64_t* table = group_->runs(r);
      auto send = Reach(r, slot.send, table, 2 * kIpcMaxRuns);
      auto recv = send.ok() ? Reach(r, slot.recv, table, 2 * kIpcMaxRuns) : send;
      if (!send.ok() || !recv.ok()) {
        // This rank cannot do its share: the others must not take a partial result for the whole.
        const Status& why = send.ok() ? recv.status() : send.status();
        group_->Break(fmt::format("Hccl{}: {}", OpName(op.kind), why.message()));
        return Err(why.code(), "{}", why.message());
      }
      peers_[r].send = send.value();
      peers_[r].recv = recv.value();
    }
  }
  Status done = RunCollectiveSteps(*this, op, verdict, deadline_ns, stage);
  current_ = nullptr;
  return done;
}

// ---- Point to point.

Status IpcTransport::RunPointToPoint(const OpArgs& op, uint64_t deadline_ns) {
  IpcRankSlot& me = group_->slot(rank_);
  IpcSend* mine = group_->sends(rank_);
  uint64_t* my_runs = group_->send_runs(rank_);
  // Post every send first, so that the receives of the same call (a ring's) cannot wait for it.
  uint32_t posted = 0, runs_used = 0;
  std::vector<Status> unshareable;  // per posted send: why its buffer could not be described
  for (const P2pItem& item : op.items) {
    if (!item.send) continue;
    if (posted == kIpcMaxSends) {
      return Err(HCCL_E_NOT_SUPPORT, "more than {} sends in one HcclBatchSendRecv between processes", kIpcMaxSends);
    }
    IpcSend& s = mine[posted++];
    s.dtype = item.dtype;
    s.count = item.count;
    s.recv_count = 0;
    s.recv_dtype = 0;
    const uint64_t bytes = item.count * DataTypeSize(item.dtype);
    Status described = Describe(item.buf, bytes, my_runs, runs_used, kIpcSendRuns, &s.buf);
    s.to.store(item.peer, std::memory_order_relaxed);
    unshareable.push_back(described);
    if (described.ok()) {
      runs_used += s.buf.run_count;
      s.state.store(IpcSend::kPosted, std::memory_order_release);
    } else {
      const std::string why = fmt::format("rank {}'s send buffer cannot be shared: {}", rank_, described.message());
      const size_t n = std::min(why.size(), sizeof(me.reason) - 1);
      std::memcpy(me.reason, why.data(), n);
      me.reason[n] = '\0';
      s.state.store(IpcSend::kInvalid, std::memory_order_release);
    }
  }
  me.send_count.store(posted, std::memory_order_release);
  if (posted != 0) group_->Notify();

  Status first;
  auto note = [&](const Status& s) {
    if (first.ok() && !s.ok()) first = s;
  };
  for (const P2pItem& item : op.items) {
    if (item.send) continue;
    IpcSend* theirs = group_->sends(item.peer);
    IpcSend* taken = nullptr;
    uint32_t was = IpcSend::kFree;
    auto try_take = [&] {
      const uint32_t count = std::min(group_->slot(item.peer).send_count.load(std::memory_order_acquire), kIpcMaxSends);
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t state = theirs[i].state.load(std::memory_order_acquire);
        if ((state != IpcSend::kPosted && state != IpcSend::kInvalid) ||
            theirs[i].to.load(std::memory_order_relaxed) != rank_) {
          continue;
        }
        if (theirs[i].state.compare_exchange_strong(state, IpcSend::kTaken, std::memory_order_acq_rel)) {
          taken = &theirs[i];
          was = state;
          return true;
        }
      }
      return false;
    };
    auto sender = [&](uint32_t r) { return r == item.peer; };
    if (!group_->WaitFor(try_take, deadline_ns, sender)) {
      note(group_->broken() ? group_->BrokenStatus()
                            : Err(HCCL_E_TIMEOUT, "rank {} waited for a send from rank {} that did not come before the "
                                  "timeout (HCCL_EXEC_TIMEOUT)", rank_, item.peer));
      continue;
    }
    const uint64_t bytes = item.count * DataTypeSize(item.dtype);
    const uint64_t sent = taken->count * DataTypeSize(taken->dtype);
    uint32_t outcome = IpcSend::kDone;
    if (was == IpcSend::kInvalid) {
      const IpcRankSlot& sender = group_->slot(item.peer);
      note(Err(HCCL_E_PARA, "{}", std::string(sender.reason, strnlen(sender.reason, sizeof(sender.reason)))));
      outcome = IpcSend::kUnreachable;
    } else if (sent != bytes) {
      taken->recv_count = item.count;
      taken->recv_dtype = item.dtype;
      note(Err(HCCL_E_PARA, "rank {} sends {} {} ({} bytes) to rank {}, which receives {} {} ({} bytes)", item.peer,
               taken->count, DataTypeName(taken->dtype), sent, rank_, item.count, DataTypeName(item.dtype), bytes));
      outcome = IpcSend::kMismatched;
    } else {
      auto src = Reach(item.peer, taken->buf, group_->send_runs(item.peer), kIpcSendRuns);
      if (src.ok()) {
        CopyIfDistinct(item.buf, src.value(), bytes);
      } else {
        note(src.status());
        outcome = IpcSend::kUnreachable;
      }
    }
    taken->state.store(outcome, std::memory_order_release);
    group_->Notify();
  }

  // Wait until every send was consumed (the receiver copied it, or refused it).
  for (uint32_t i = 0; i < posted; ++i) {
    IpcSend& s = mine[i];
    const uint32_t to = s.to.load(std::memory_order_relaxed);
    auto finished = [&] {
      const uint32_t state = s.state.load(std::memory_order_acquire);
      return state == IpcSend::kDone || state == IpcSend::kMismatched || state == IpcSend::kUnreachable;
    };
    auto receiver = [&](uint32_t r) { return r == to; };
    if (!group_->WaitFor(finished, deadline_ns, receiver)) {
      // Withdraw it unless a receiver took it meanwhile (then it is copying, and finishes promptly or its
      // process dies and the wait says so).
      uint32_t expected = s.state.load(std::memory_order_acquire);
      while ((expected == IpcSend::kPosted || expected == IpcSend::kInvalid) &&
             !s.state.compare_exchange_weak(expected, IpcSend::kWithdrawn, std::memory_order_acq_rel)) {
      }
      if (expected == IpcSend::kPosted || expected == IpcSend::kInvalid) {
        note(group_->broken() ? group_->BrokenStatus()
                              : Err(HCCL_E_TIMEOUT, "rank {}'s send to rank {} was not received before the timeout "
                                    "(HCCL_EXEC_TIMEOUT)", rank_, to));
        continue;
      }
      if (!finished() && !group_->WaitFor(finished, UINT64_MAX, receiver)) {
        note(group_->BrokenStatus());
        continue;
      }
    }
    switch (s.state.load(std::memory_order_acquire)) {
      case IpcSend::kMismatched:
        note(Err(HCCL_E_PARA, "rank {} sends {} {} ({} bytes) to rank {}, which receives {} {} ({} bytes)", rank_, s.count,
                 DataTypeName(s.dtype), s.count * DataTypeSize(s.dtype), to, s.recv_count, DataTypeName(s.recv_dtype),
                 s.recv_count * DataTypeSize(s.recv_dtype)));
        break;
      case IpcSend::kUnreachable:
        note(unshareable[i].ok() ? Err(HCCL_E_REMOTE, "rank {} could not read rank {}'s send buffer (its own error says "
                                       "why)", to, rank_)
                                 : unshareable[i]);
        break;
      default: break;
    }
  }
  return first;
}

}  // namespace npurt::hccl
