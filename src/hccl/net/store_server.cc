#include "hccl/net/store_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "hccl/hccl_types.h"
#include "hccl/net/store_protocol.h"

namespace npurt::hccl {
namespace {

using wire::FrameReader;
using wire::FrameWriter;
using wire::StoreOp;
using wire::StoreReply;

constexpr size_t kMaxStoreBytes = size_t{1} << 30;
constexpr size_t kMaxConnections = 4096;
// Replies a client has not read yet: past this the server takes no more requests from it until it reads
// (a client that pipelines requests and never reads would otherwise grow the server without bound).
constexpr size_t kPauseUnsentBytes = 8 << 20;
constexpr size_t kReadChunk = 256 << 10;
constexpr int kReadsPerWakeup = 16;  // then the other connections' turn (level-triggered: we come back)
constexpr uint64_t kWakeId = 0;
constexpr uint64_t kListenId = 1;
// Out of descriptors: accept(2) keeps failing and the listening socket stays readable, so stop watching it
// for a while instead of spinning.
constexpr uint64_t kAcceptPauseNs = 100'000'000;

uint64_t DeadlineFromTimeoutMs(uint64_t timeout_ms) {
  if (timeout_ms == wire::kNoTimeoutMs) return UINT64_MAX;
  const uint64_t now = NowNs();
  if (timeout_ms > (UINT64_MAX - now) / 1'000'000) return UINT64_MAX;
  return now + timeout_ms * 1'000'000;
}

bool ParseInt64(const std::string& s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  size_t i = 0;
  const bool negative = s[0] == '-';
  if (negative) i = 1;
  if (i == s.size()) return false;
  uint64_t magnitude = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (__builtin_mul_overflow(magnitude, 10u, &magnitude) ||
        __builtin_add_overflow(magnitude, static_cast<uint64_t>(s[i] - '0'), &magnitude) ||
        magnitude > uint64_t{1} << 63) {
      return false;
    }
  }
  if (!negative && magnitude > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

}  // namespace

class StoreServer::Loop {
 public:
  explicit Loop(int listen_fd) : listen_fd_(listen_fd) {}
  ~Loop();
  Status Init();
  void Run();
  void Stop();

 private:
  // A client connection. A member type, not a file-local one: a field of this class whose type is in the
  // anonymous namespace fails -Wsubobject-linkage where the file is compiled in a unity batch.
  struct Conn {
    uint64_t id = 0;  // the epoll key
    int fd = -1;
    std::string in;        // received, not parsed yet
    std::string out;       // replies not sent yet, from out_sent on
    size_t out_sent = 0;
    uint32_t events = EPOLLIN | EPOLLRDHUP;  // what epoll watches for it
    bool dead = false;
    // A Get or Wait whose keys are not all set: the connection's later requests wait behind it.
    bool parked = false;
    StoreOp parked_op = StoreOp::kWait;
    std::vector<std::string> keys;
    uint64_t deadline_ns = UINT64_MAX;
    // Too many replies unread: no more requests are taken from it until it reads.
    bool paused() const { return out.size() - out_sent > kPauseUnsentBytes; }
  };

  void Accept();
  void ReadFrom(Conn& c);
  void Parse(Conn& c);
  void Handle(Conn& c, const char* body, size_t len);
  void Park(Conn& c, StoreOp op, std::vector<std::string> keys, uint64_t timeout_ms);
  // Answers the parked requests whose keys appeared or whose time ran out, then lets those connections'
  // later requests through.
  void Settle();
  std::vector<std::string> Missing(const std::vector<std::string>& keys) const;
  void Reply(Conn& c, std::string frame);
  void ReplyError(Conn& c, int32_t code, const std::string& message);
  void Flush(Conn& c);
  // Watches for what the connection's state calls for: requests unless paused, writability while
  // replies are unsent.
  void Rearm(Conn& c);
  void Sweep();
  int NextTimeoutMs() const;

  const int listen_fd_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::atomic<bool> stopping_{false};
  uint64_t next_id_ = kListenId + 1;
  std::unordered_map<uint64_t, Conn> conns_;
  std::unordered_map<std::string, std::string> table_;
  size_t table_bytes_ = 0;
  bool changed_ = false;             // a key was set since the last Settle
  uint64_t accept_paused_until_ = 0;  // 0: watching the listening socket
  std::vector<char> scratch_ = std::vector<char>(kReadChunk);
};

StoreServer::Loop::~Loop() {
  for (auto& [id, c] : conns_) close(c.fd);
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
  close(listen_fd_);
}

Status StoreServer::Loop::Init() {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) return Err(HCCL_E_SYSCALL, "store listener: epoll/eventfd: {}", strerror(errno));
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kWakeId;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev) != 0) {
    return Err(HCCL_E_SYSCALL, "store listener: epoll_ctl: {}", strerror(errno));
  }
  ev.data.u64 = kListenId;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev) != 0) {
    return Err(HCCL_E_SYSCALL, "store listener: epoll_ctl: {}", strerror(errno));
  }
  return Status();
}

void StoreServer::Loop::Stop() {
  stopping_.store(true, std::memory_order_release);
  const uint64_t one = 1;
  ssize_t rv;
  do {
    rv = write(wake_fd_, &one, sizeof(one));
  } while (rv < 0 && errno == EINTR);
}

int StoreServer::Loop::NextTimeoutMs() const {
  uint64_t next = accept_paused_until_ != 0 ? accept_paused_until_ : UINT64_MAX;
  for (const auto& [id, c] : conns_) {
    if (c.parked && c.deadline_ns < next) next = c.deadline_ns;
  }
  if (next == UINT64_MAX) return -1;
  const uint64_t now = NowNs();
  if (next <= now) return 0;
  const uint64_t ms = (next - now + 999'999) / 1'000'000;
  return ms > 3'600'000 ? 3'600'000 : static_cast<int>(ms);
}

void StoreServer::Loop::Run() {
  pthread_setname_np(pthread_self(), "npurt-store");
  epoll_event events[64];
  while (!stopping_.load(std::memory_order_acquire)) {
    const int n = epoll_wait(epoll_fd_, events, 64, NextTimeoutMs());
    if (n < 0 && errno != EINTR) return;  // cannot happen with valid descriptors; clients then see timeouts
    for (int i = 0; i < n; ++i) {
      const uint64_t id = events[i].data.u64;
      if (id == kWakeId) continue;  // Stop: the loop condition ends it
      if (id == kListenId) {
        Accept();
        continue;
      }
      auto it = conns_.find(id);
      if (it == conns_.end() || it->second.dead) continue;
      Conn& c = it->second;
      if (events[i].events & EPOLLOUT) Flush(c);
      if (!c.dead && (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP))) ReadFrom(c);
      Parse(c);  // what waited for the replies to drain
      Rearm(c);
    }
    if (accept_paused_until_ != 0 && NowNs() >= accept_paused_until_) {
      accept_paused_until_ = 0;
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = kListenId;
      epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
    }
    Settle();
    Sweep();
  }
}

void StoreServer::Loop::Accept() {
  for (;;) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      accept_paused_until_ = NowNs() + kAcceptPauseNs;
      epoll_event ev{};
      ev.data.u64 = kListenId;
      epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
      return;
    }
    if (conns_.size() >= kMaxConnections) {
      close(fd);
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    const uint64_t id = next_id_++;
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.u64 = id;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      close(fd);
      continue;
    }
    Conn& c = conns_[id];
    c.id = id;
    c.fd = fd;
  }
}

void StoreServer::Loop::ReadFrom(Conn& c) {
  for (int i = 0; i < kReadsPerWakeup && !c.dead; ++i) {
    const ssize_t rv = recv(c.fd, scratch_.data(), scratch_.size(), 0);
    if (rv == 0) {
      c.dead = true;  // the client closed (or died): its parked request goes with it
      return;
    }
    if (rv < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) c.dead = true;
      return;
    }
    c.in.append(scratch_.data(), static_cast<size_t>(rv));
    Parse(c);
    // A parked connection's client sends nothing more until it has its reply; bytes piling up meanwhile
    // are a client that does not follow the protocol.
    if (c.in.size() > 4 + wire::kMaxFrameBytes) c.dead = true;
  }
}

void StoreServer::Loop::Parse(Conn& c) {
  size_t pos = 0;
  while (!c.parked && !c.dead && !c.paused() && c.in.size() - pos >= 4) {
    const uint32_t len = wire::ReadFrameLength(c.in.data() + pos);
    if (len == 0 || len > wire::kMaxFrameBytes) {
      c.dead = true;  // refused before its body arrives
      break;
    }
    if (c.in.size() - pos - 4 < len) break;
    Handle(c, c.in.data() + pos + 4, len);
    pos += 4 + size_t{len};
  }
  c.in.erase(0, pos);
}

void StoreServer::Loop::Handle(Conn& c, const char* body, size_t len) {
  FrameReader r(body, len);
  const auto op = static_cast<StoreOp>(r.U8());
  switch (op) {
    case StoreOp::kHello: {
      const uint64_t magic = r.U64();
      if (!r.done() || magic != wire::kStoreMagic) break;
      Reply(c, FrameWriter().U8(static_cast<uint8_t>(StoreReply::kOk)).U64(wire::kStoreMagic).Finish());
      return;
    }
    case StoreOp::kSet: {
      std::string key = r.Str(wire::kMaxKeyBytes);
      const std::string_view value = r.Rest();
      if (!r.ok() || value.size() > wire::kMaxValueBytes) break;
      auto it = table_.find(key);
      const size_t old = it == table_.end() ? 0 : key.size() + it->second.size();
      if (table_bytes_ - old + key.size() + value.size() > kMaxStoreBytes) {
        ReplyError(c, HCCL_E_MEMORY, "the store holds its limit of 1 GiB of keys and values");
        return;
      }
      table_bytes_ = table_bytes_ - old + key.size() + value.size();
      table_[std::move(key)] = std::string(value);
      changed_ = true;
      Reply(c, FrameWriter().U8(static_cast<uint8_t>(StoreReply::kOk)).Finish());
      return;
    }
    case StoreOp::kGet: {
      const uint64_t timeout_ms = r.U64();
      std::string key = r.Str(wire::kMaxKeyBytes);
      if (!r.done()) break;
      Park(c, op, {std::move(key)}, timeout_ms);
      return;
    }
    case StoreOp::kAdd: {
      std::string key = r.Str(wire::kMaxKeyBytes);
      const int64_t delta = r.I64();
      if (!r.done()) break;
      int64_t value = 0;
      auto it = table_.find(key);
      if (it != table_.end() && !ParseInt64(it->second, &value)) {
        ReplyError(c, HCCL_E_PARA, "Add: the value of '" + wire::PrintableKey(key) + "' is not an integer");
        return;
      }
      if (__builtin_add_overflow(value, delta, &value)) {
        ReplyError(c, HCCL_E_PARA, "Add: the counter '" + wire::PrintableKey(key) + "' would overflow");
        return;
      }
      std::string text = std::to_string(value);
      const size_t old = it == table_.end() ? 0 : key.size() + it->second.size();
      table_bytes_ = table_bytes_ - old + key.size() + text.size();
      table_[std::move(key)] = std::move(text);
      changed_ = true;
      Reply(c, FrameWriter().U8(static_cast<uint8_t>(StoreReply::kOk)).I64(value).Finish());
      return;
    }
    case StoreOp::kCheck:
    case StoreOp::kWait: {
      const uint64_t timeout_ms = op == StoreOp::kWait ? r.U64() : 0;
      const uint32_t n = r.U32();
      if (!r.ok() || n > wire::kMaxKeysPerRequest) break;
      std::vector<std::string> keys;
      keys.reserve(n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) keys.push_back(r.Str(wire::kMaxKeyBytes));
      if (!r.done()) break;
      if (op == StoreOp::kCheck) {
        const uint8_t all = Missing(keys).empty() ? 1 : 0;
        Reply(c, FrameWriter().U8(static_cast<uint8_t>(StoreReply::kOk)).U8(all).Finish());
        return;
      }
      Park(c, op, std::move(keys), timeout_ms);
      return;
    }
  }
  c.dead = true;  // malformed: an unknown op, a short or overlong body, a field out of bounds
}

void StoreServer::Loop::Park(Conn& c, StoreOp op, std::vector<std::string> keys, uint64_t timeout_ms) {
  c.parked = true;
  c.parked_op = op;
  c.keys = std::move(keys);
  c.deadline_ns = DeadlineFromTimeoutMs(timeout_ms);
  changed_ = true;  // Settle answers it at once when the keys are there already
}

std::vector<std::string> StoreServer::Loop::Missing(const std::vector<std::string>& keys) const {
  std::vector<std::string> missing;
  for (const std::string& k : keys) {
    if (table_.find(k) == table_.end()) missing.push_back(k);
  }
  return missing;
}

void StoreServer::Loop::Settle() {
  bool again = true;
  while (again) {
    again = false;
    const bool scan_all = changed_;
    changed_ = false;
    const uint64_t now = NowNs();
    for (auto& [id, c] : conns_) {
      if (c.dead || !c.parked || (!scan_all && c.deadline_ns > now)) continue;
      std::vector<std::string> missing = Missing(c.keys);
      if (!missing.empty() && c.deadline_ns > now) continue;
      FrameWriter w;
      if (missing.empty()) {
        w.U8(static_cast<uint8_t>(StoreReply::kOk));
        if (c.parked_op == StoreOp::kGet) {
          const std::string& value = table_.find(c.keys[0])->second;
          w.Raw(value.data(), value.size());
        }
      } else {
        w.U8(static_cast<uint8_t>(StoreReply::kTimeout)).U32(static_cast<uint32_t>(missing.size()));
        for (const std::string& k : missing) w.Str(k);
      }
      c.parked = false;
      c.keys.clear();
      Reply(c, w.Finish());
      Parse(c);  // the requests that waited behind this one
      Rearm(c);
      again = true;
    }
    again = again || changed_;
  }
}

void StoreServer::Loop::Reply(Conn& c, std::string frame) {
  if (c.dead) return;
  if (c.out_sent == c.out.size()) {
    c.out = std::move(frame);
    c.out_sent = 0;
  } else {
    c.out += frame;
  }
  Flush(c);
}

void StoreServer::Loop::ReplyError(Conn& c, int32_t code, const std::string& message) {
  Reply(c, FrameWriter()
               .U8(static_cast<uint8_t>(StoreReply::kError))
               .U32(static_cast<uint32_t>(code))
               .Raw(message.data(), message.size())
               .Finish());
}

void StoreServer::Loop::Flush(Conn& c) {
  while (c.out_sent < c.out.size()) {
    const ssize_t rv = send(c.fd, c.out.data() + c.out_sent, c.out.size() - c.out_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (rv < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) c.dead = true;
      return;
    }
    c.out_sent += static_cast<size_t>(rv);
  }
  c.out.clear();
  c.out_sent = 0;
}

void StoreServer::Loop::Rearm(Conn& c) {
  if (c.dead) return;
  uint32_t events = c.paused() ? 0u : uint32_t{EPOLLIN | EPOLLRDHUP};
  if (c.out_sent < c.out.size()) events |= EPOLLOUT;
  if (events == c.events) return;
  c.events = events;
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = c.id;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev) != 0) c.dead = true;
}

void StoreServer::Loop::Sweep() {
  for (auto it = conns_.begin(); it != conns_.end();) {
    if (!it->second.dead) {
      ++it;
      continue;
    }
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, it->second.fd, nullptr);
    close(it->second.fd);
    it = conns_.erase(it);
  }
}

StoreServer::StoreServer(std::string ip, uint16_t port, std::unique_ptr<Loop> loop)
    : ip_(std::move(ip)), port_(port), loop_(std::move(loop)) {
  thread_ = std::thread([l = loop_.get()] { l->Run(); });
}

StoreServer::~StoreServer() {
  loop_->Stop();
  thread_.join();
  loop_.reset();  // closes the listening socket and every connection
}

StatusOr<std::unique_ptr<StoreServer>> StoreServer::Start(const std::string& bind_ip, uint16_t base_port,
                                                          uint16_t port_count) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
  addrinfo* found = nullptr;
  if (bind_ip.empty() || getaddrinfo(bind_ip.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
    return Err(HCCL_E_PARA, "store listener: '{}' is not a numeric IPv4 or IPv6 address", bind_ip);
  }
  sockaddr_storage addr{};
  const socklen_t addr_len = found->ai_addrlen;
  const int family = found->ai_family;
  std::memcpy(&addr, found->ai_addr, addr_len);
  freeaddrinfo(found);

  const bool any_port = base_port == 0 || port_count == 0;
  const uint32_t first = any_port ? 0 : base_port;
  const uint32_t last = any_port ? 0 : std::min<uint32_t>(65535, uint32_t{base_port} + port_count - 1);
  for (uint32_t port = first; port <= last; ++port) {
    const int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return Err(HCCL_E_TCP_CONNECT, "store listener: socket: {}", strerror(errno));
    // A listener restarted on the same port must not wait out the old connections' TIME_WAIT.
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    const uint16_t net_port = htons(static_cast<uint16_t>(port));
    if (family == AF_INET6) {
      reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port = net_port;
    } else {
      reinterpret_cast<sockaddr_in*>(&addr)->sin_port = net_port;
    }
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), addr_len) != 0 || listen(fd, SOMAXCONN) != 0) {
      const int err = errno;
      close(fd);
      if (err == EADDRINUSE) continue;
      return Err(HCCL_E_TCP_CONNECT, "store listener: cannot listen on {} port {}: {}{}", bind_ip, port, strerror(err),
                 err == EADDRNOTAVAIL ? " (not an address of this machine: check HCCL_IF_IP / HCCL_SOCKET_IFNAME)"
                                      : "");
    }
    sockaddr_storage bound{};
    socklen_t bound_len = sizeof(bound);
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_len);
    const uint16_t actual = ntohs(family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                                     : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    auto loop = std::make_unique<Loop>(fd);  // owns fd from here on
    if (Status s = loop->Init(); !s.ok()) return s;
    return std::unique_ptr<StoreServer>(new StoreServer(bind_ip, actual, std::move(loop)));
  }
  if (any_port) return Err(HCCL_E_TCP_CONNECT, "store listener: the kernel has no free port on {}", bind_ip);
  return Err(HCCL_E_TCP_CONNECT,
             "store listener: every port tried on {} is in use ({}-{}); choose a free range with HCCL_IF_BASE_PORT "
             "(32 ports from it) or HCCL_HOST_SOCKET_PORT_RANGE (first-last, or auto)",
             bind_ip, first, last);
}

}  // namespace npurt::hccl
