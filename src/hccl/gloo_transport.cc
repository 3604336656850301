#include "hccl/gloo_transport.h"

#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>

#include <fmt/format.h>
#include <gloo/common/error.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/tcp/address.h>
#include <gloo/transport/tcp/device.h>

#include "base/clock.h"
#include "hccl/hccl_types.h"
#include "hccl/net/gloo_exchange.h"
#include "hccl/net/gloo_ops.h"
#include "hccl/net/op_header.h"
#include "hccl/net/store_client.h"

namespace npurt::hccl {
namespace {

constexpr size_t kAddressBytes = 64;  // room for "[IPv6 address]:port"

// Gloo writes to its sockets with writev, which raises SIGPIPE when the peer is gone, and leaves it to the
// program to ignore SIGPIPE (its own tests do). Rather than change the process's disposition, block the
// signal on this thread for the scope — and on the device thread Gloo starts within it, which inherits the
// mask — and discard one that arrived before unblocking it.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
    sigset_t pending;
    sigpending(&pending);
    discard_ = !sigismember(&old_, SIGPIPE) && !sigismember(&pending, SIGPIPE);
  }
  ~SigpipeBlock() {
    if (discard_) {
      const timespec now{0, 0};
      sigtimedwait(&pipe_, nullptr, &now);  // SIGPIPE does not queue: at most one is pending
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
  bool discard_;
};

// Gloo's rendezvous store over npurt's: keys under `prefix`, every wait bounded by the join's deadline.
// Gloo's interface cannot return errors, so a failure is thrown (and kept, with its HcclResult).
class PrefixedStore final : public gloo::rendezvous::Store {
 public:
  PrefixedStore(StoreClient* store, std::string prefix, uint64_t deadline_ns)
      : store_(store), prefix_(std::move(prefix)), deadline_ns_(deadline_ns) {}

  void set(const std::string& key, const std::vector<char>& data) override {
    Check(store_->Set(prefix_ + key, data));
    published_[key] = data;
  }
  std::vector<char> get(const std::string& key) override {
    auto value = store_->Get(prefix_ + key, deadline_ns_);
    Check(value.status());
    return std::move(value.value());
  }
  void wait(const std::vector<std::string>& keys) override { Wait(keys, deadline_ns_); }
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override {
    const uint64_t by_timeout = NowNs() + static_cast<uint64_t>(std::max<int64_t>(timeout.count(), 0)) * 1'000'000;
    Wait(keys, std::min(deadline_ns_, by_timeout));
  }
  const Status& error() const { return error_; }
  // What this rank set under `key` (empty if nothing).
  std::vector<char> Published(const std::string& key) const {
    auto it = published_.find(key);
    return it == published_.end() ? std::vector<char>() : it->second;
  }

 private:
  void Wait(const std::vector<std::string>& keys, uint64_t deadline_ns) {
    std::vector<std::string> full;
    for (const std::string& k : keys) full.push_back(prefix_ + k);
    Check(store_->Wait(full, deadline_ns));
  }
  void Check(const Status& s) {
    if (s.ok()) return;
    if (error_.ok()) error_ = s;
    throw gloo::IoException(s.message());
  }

  StoreClient* const store_;
  const std::string prefix_;
  const uint64_t deadline_ns_;
  Status error_;
  std::map<std::string, std::vector<char>> published_;
};

// Gloo binds the address it is given and publishes it to the peers. Its own lookup reads an unset result
// when getaddrinfo fails with anything but EAI_BADFLAGS, and leaks the list when bind fails (it throws
// past the free). So check here: numeric, not a wildcard, and an address of this machine.
StatusOr<int> AddressFamily(const std::string& ip) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST;
  addrinfo* found = nullptr;
  if (ip.empty() || getaddrinfo(ip.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
    return Err(HCCL_E_PARA, "'{}' is not a numeric IPv4 or IPv6 address", ip);
  }
  bool wildcard = false;
  if (found->ai_family == AF_INET) {
    wildcard = reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr.s_addr == htonl(INADDR_ANY);
  } else if (found->ai_family == AF_INET6) {
    wildcard = IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<sockaddr_in6*>(found->ai_addr)->sin6_addr);
  }
  const int family = found->ai_family;
  int bind_error = 0;
  if (!wildcard) {
    const int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, found->ai_addr, found->ai_addrlen) != 0) bind_error = errno;
    if (fd >= 0) close(fd);
  }
  freeaddrinfo(found);
  if (wildcard) {
    return Err(HCCL_E_PARA, "{} is a wildcard address; the ranks need one they can reach this rank at (HCCL_IF_IP)",
               ip);
  }
  if (bind_error != 0) {
    return Err(HCCL_E_TCP_CONNECT, "cannot bind {}: {} (not an address of this machine? see HCCL_IF_IP)", ip,
               strerror(bind_error));
  }
  return family;
}

// Gloo's errors name a peer by a socket address ("Connection closed by peer [ip]:port"): the peer's end of
// the connection, or — when the peer connected before this rank's connect() call, which then overwrites
// it — the address the peer listened on. Each rank tells the others both for its connection to each of
// them, so that every rank can tell who is at the far end of each of its connections. Entry [i] of the
// result: rank i's two addresses (none for this rank). `listened` is what this rank published in the store
// for the rendezvous: its pairs' listening addresses, in peer order.
StatusOr<std::vector<std::vector<std::string>>> PeerAddresses(const std::shared_ptr<gloo::Context>& context,
                                                              uint32_t rank, uint32_t size,
                                                              const std::vector<char>& listened,
                                                              uint64_t deadline_ns) {
  auto put = [](char* at, const std::string& a) { std::memcpy(at, a.data(), std::min(a.size(), kAddressBytes - 1)); };
  std::vector<char> mine(size * 2 * kAddressBytes, '\0');
  const size_t chunk = size > 1 ? listened.size() / (size - 1) : 0;
  Status s = GlooGuard("naming the connections", -1, [&] {
    for (uint32_t j = 0; j < size; ++j) {
      if (j == rank) continue;
      put(&mine[j * 2 * kAddressBytes], context->getPair(static_cast<int>(j))->address().str());
      const size_t k = j < rank ? j : j - 1;  // the store entry skips this rank
      if (chunk != 0 && (k + 1) * chunk <= listened.size()) {
        const std::vector<char> bytes(listened.begin() + k * chunk, listened.begin() + (k + 1) * chunk);
        put(&mine[(j * 2 + 1) * kAddressBytes], gloo::transport::tcp::Address(bytes).str());
      }
    }
  });
  NPURT_RETURN_IF_ERROR(s);
  std::vector<char> all(size * mine.size());
  NPURT_RETURN_IF_ERROR(GlooOps(context, rank, size)
                            .AllGatherBytes(mine.data(), all.data(), mine.size(), deadline_ns,
                                            "naming the connections"));
  std::vector<std::vector<std::string>> peers(size);
  for (uint32_t i = 0; i < size; ++i) {
    if (i == rank) continue;
    for (size_t which = 0; which < 2; ++which) {
      const char* entry = &all[((size_t{i} * size + rank) * 2 + which) * kAddressBytes];
      const std::string a(entry, strnlen(entry, kAddressBytes));
      if (!a.empty()) peers[i].push_back(a);
    }
  }
  return peers;
}

}  // namespace

GlooTransport::GlooTransport(uint32_t rank, uint32_t size, std::shared_ptr<gloo::Context> context,
                             std::vector<std::vector<std::string>> peer_addresses)
    : rank_(rank), size_(size), context_(std::move(context)), peer_addresses_(std::move(peer_addresses)) {}

// The pairs close softly (the peers read an end of stream); the device thread stops with the device.
GlooTransport::~GlooTransport() = default;

StatusOr<std::unique_ptr<GlooTransport>> GlooTransport::Create(uint32_t rank, uint32_t size, StoreClient* store,
                                                               const std::string& prefix, const std::string& bind_ip,
                                                               uint64_t deadline_ns) {
  if (size == 0 || rank >= size) return Err(HCCL_E_PARA, "rank {} of {} ranks", rank, size);
  if (size == 1) return std::unique_ptr<GlooTransport>(new GlooTransport(rank, size, nullptr, {}));
  if (store == nullptr) return Err(HCCL_E_PARA, "rank {} of {}: no store to meet the other ranks through", rank, size);
  auto family = AddressFamily(bind_ip);
  if (!family.ok()) return Status(family.status().code(), fmt::format("rank {}: {}", rank, family.status().message()));

  SigpipeBlock block;
  PrefixedStore keys(store, prefix, deadline_ns);
  std::shared_ptr<gloo::rendezvous::Context> context;
  const std::string what = fmt::format("rank {} of {} joining the others over Gloo on {}", rank, size, bind_ip);
  Status joined = GlooGuard(what, -1, [&] {
    gloo::transport::tcp::attr attr;
    attr.hostname = bind_ip;
    attr.ai_family = family.value();
    auto device = gloo::transport::tcp::CreateDevice(attr);
    context = std::make_shared<gloo::rendezvous::Context>(static_cast<int>(rank), static_cast<int>(size));
    context->setTimeout(GlooTimeout(deadline_ns));  // bounds each pair's connect
    context->connectFullMesh(keys, device);
  });
  if (!keys.error().ok()) return Status(keys.error().code(), fmt::format("{}: {}", what, keys.error().message()));
  if (!joined.ok()) {
    // Anything but a timeout is a failure to connect here (Gloo reports refused binds as invariants).
    return Status(joined.code() == HCCL_E_TIMEOUT ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT, joined.message());
  }
  auto peers = PeerAddresses(context, rank, size, keys.Published(std::to_string(rank)), deadline_ns);
  if (!peers.ok()) {
    const Status& e = peers.status();
    return Status(e.code() == HCCL_E_TIMEOUT ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT, what + ": " + e.message());
  }
  return std::unique_ptr<GlooTransport>(new GlooTransport(rank, size, std::move(context), std::move(peers.value())));
}

Status GlooTransport::NamePeer(Status error) const {
  const std::string& m = error.message();
  const size_t vague = m.find("a peer");  // GlooError's words when the rank was not known
  if (vague == std::string::npos) return error;
  for (uint32_t i = 0; i < peer_addresses_.size(); ++i) {
    auto found = [&](const std::string& a) {
      const size_t at = m.find(a);
      const size_t end = at + a.size();
      return at != std::string::npos && !(end < m.size() && std::isdigit(static_cast<unsigned char>(m[end])));
    };  // a whole address: "]:123" is not in "]:1234"
    if (std::none_of(peer_addresses_[i].begin(), peer_addresses_[i].end(), found)) continue;
    std::string named = m;
    named.replace(vague, 6, fmt::format("rank {}", i));
    return Status(error.code(), std::move(named));
  }
  return error;
}

Status GlooTransport::BrokenStatus() const {
  std::lock_guard<std::mutex> lock(mu_);
  return first_error_;
}

Status GlooTransport::Fail(Status error) {
  bool first = false;
  Status result;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (first_error_.ok()) {
      first_error_ = std::move(error);
      first = true;
    }
    result = first_error_;
  }
  broken_.store(true, std::memory_order_release);
  // Close every connection now, so that the peers' waits on this rank end at once (HCCL_E_REMOTE) rather
  // than at their deadlines.
  if (first && context_ != nullptr) GlooCloseAll(*context_);
  return result;
}

void GlooTransport::Abort(const std::string& reason) {
  SigpipeBlock block;  // closing posts a message to a peer that may be gone
  (void)Fail(Status(HCCL_E_REMOTE, reason));
}

Status GlooTransport::Run(const OpArgs& op, uint64_t deadline_ns) {
  if (broken_.load(std::memory_order_acquire)) return BrokenStatus();
  SigpipeBlock block;
  Status s = RunOp(op, deadline_ns);
  if (s.ok() || s.code() == HCCL_E_PARA) return s;
  return Fail(NamePeer(std::move(s)));
}

Status GlooTransport::RunOp(const OpArgs& op, uint64_t deadline_ns) {
  GlooOps ops(context_, rank_, size_);
  if (op.kind == OpKind::kSend || op.kind == OpKind::kRecv || op.kind == OpKind::kBatchSendRecv) {
    return ops.PointToPoint(op, deadline_ns);
  }
  if (deadline_ns != UINT64_MAX && NowNs() >= deadline_ns) {
    return Err(HCCL_E_TIMEOUT, "rank {}: the deadline passed before the operation started (HCCL_EXEC_TIMEOUT)", rank_);
  }
  std::string invalid;
  const OpHeader mine = MakeOpHeader(op, rank_, size_, collectives_++, &invalid);
  std::vector<OpHeader> all(size_);
  NPURT_RETURN_IF_ERROR(ops.AllGatherBytes(&mine, all.data(), sizeof(OpHeader), deadline_ns,
                                           fmt::format("rank {}: the ranks' agreement on {}", rank_, OpName(op.kind))));
  std::string disagreement = FindDisagreement(op, rank_, all, invalid);
  if (disagreement.empty() && op.kind == OpKind::kAlltoAllV) {
    std::vector<uint64_t> counts(op.send_counts);
    counts.insert(counts.end(), op.recv_counts.begin(), op.recv_counts.end());
    std::vector<uint64_t> every(counts.size() * size_);
    NPURT_RETURN_IF_ERROR(ops.AllGatherBytes(counts.data(), every.data(), counts.size() * sizeof(uint64_t),
                                             deadline_ns, fmt::format("rank {}: the ranks' AlltoAllV counts", rank_)));
    disagreement = FindAlltoAllVMismatch(op, size_, every);
  }
  if (!disagreement.empty()) return Err(HCCL_E_PARA, "{}", disagreement);
  return ops.Collective(op, deadline_ns);
}

}  // namespace npurt::hccl
