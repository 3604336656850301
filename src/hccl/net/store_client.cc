#include "hccl/net/store_client.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "base/clock.h"
#include "hccl/hccl_types.h"
#include "hccl/net/store_protocol.h"

namespace npurt::hccl {
namespace {

using wire::FrameReader;
using wire::FrameWriter;
using wire::StoreOp;
using wire::StoreReply;

// Set, Add and Check are answered at once by a live server; this only bounds a dead or unreachable one.
constexpr uint64_t kReplyTimeoutNs = 30'000'000'000;
// A Get or Wait is answered by the server when its time runs out; this much more covers the network.
constexpr uint64_t kReplyGraceNs = 2'000'000'000;
constexpr uint64_t kFirstRetryNs = 10'000'000;
constexpr uint64_t kMaxRetryNs = 500'000'000;
constexpr size_t kKeysNamed = 8;  // in a timeout message

uint64_t AddNs(uint64_t deadline, uint64_t ns) { return deadline > UINT64_MAX - ns ? UINT64_MAX : deadline + ns; }

// poll(2)'s timeout for an absolute deadline: -1 for none, 0 when it passed, else at least 1 ms.
int PollMs(uint64_t deadline_ns) {
  if (deadline_ns == UINT64_MAX) return -1;
  const uint64_t now = NowNs();
  if (now >= deadline_ns) return 0;
  return static_cast<int>(std::min<uint64_t>((deadline_ns - now + 999'999) / 1'000'000, 3'600'000));
}

// The relative timeout a Get or Wait request carries.
uint64_t TimeoutMs(uint64_t deadline_ns) {
  if (deadline_ns == UINT64_MAX) return wire::kNoTimeoutMs;
  const uint64_t now = NowNs();
  return now >= deadline_ns ? 0 : (deadline_ns - now + 999'999) / 1'000'000;
}

// Waits until `fd` is ready for `events`; false when the deadline passed first.
bool WaitReady(int fd, short events, uint64_t deadline_ns) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rv = poll(&p, 1, PollMs(deadline_ns));
    if (rv > 0) return true;
    if (rv == 0) return false;
    if (errno != EINTR) return true;  // let the following send/recv report the error
  }
}

std::string NamedKeys(const std::vector<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size() && i < kKeysNamed; ++i) {
    if (i > 0) out += ", ";
    out += "'" + wire::PrintableKey(keys[i]) + "'";
  }
  if (keys.size() > kKeysNamed) out += fmt::format(" and {} more", keys.size() - kKeysNamed);
  return out;
}

Status CheckKey(const std::string& key) {
  if (key.size() > wire::kMaxKeyBytes) {
    return Err(HCCL_E_PARA, "store key '{}' has {} bytes, more than the limit of {}", wire::PrintableKey(key),
               key.size(), wire::kMaxKeyBytes);
  }
  return Status();
}

Status CheckKeys(const std::vector<std::string>& keys) {
  if (keys.size() > wire::kMaxKeysPerRequest) {
    return Err(HCCL_E_PARA, "{} store keys in one request, more than the limit of {}", keys.size(),
               wire::kMaxKeysPerRequest);
  }
  for (const std::string& k : keys) NPURT_RETURN_IF_ERROR(CheckKey(k));
  return Status();
}

// The status a reply's first byte reports; kOk leaves `r` at the payload.
Status ReplyStatus(FrameReader& r, const std::string& address, const std::string& what, uint64_t started_ns) {
  const auto kind = static_cast<StoreReply>(r.U8());
  switch (kind) {
    case StoreReply::kOk:
      return Status();
    case StoreReply::kTimeout: {
      const uint32_t n = r.U32();
      std::vector<std::string> missing;
      for (uint32_t i = 0; i < n && r.ok(); ++i) missing.push_back(r.Str(wire::kMaxKeyBytes));
      if (!r.ok()) break;
      return Err(HCCL_E_TIMEOUT, "store {}: {} timed out after {} ms; {} key(s) still missing: {}", address, what,
                 (NowNs() - started_ns) / 1'000'000, missing.size(), NamedKeys(missing));
    }
    case StoreReply::kError: {
      const auto code = static_cast<int32_t>(r.U32());
      const std::string_view message = r.Rest();
      if (!r.ok()) break;
      return Err(code == 0 ? HCCL_E_INTERNAL : code, "store {}: {} refused: {}", address, what, message);
    }
  }
  return Err(HCCL_E_TCP_TRANSFER, "store {}: malformed reply to {}", address, what);
}

}  // namespace

StatusOr<std::unique_ptr<StoreClient>> StoreClient::Connect(const std::string& ip, uint16_t port,
                                                            uint64_t deadline_ns) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (ip.empty() || port == 0 || getaddrinfo(ip.c_str(), service.c_str(), &hints, &found) != 0 || found == nullptr) {
    return Err(HCCL_E_PARA, "store address {}:{} is not a numeric IP address and a port", ip, port);
  }
  sockaddr_storage addr{};
  const socklen_t addr_len = found->ai_addrlen;
  const int family = found->ai_family;
  std::memcpy(&addr, found->ai_addr, addr_len);
  freeaddrinfo(found);
  const std::string address = family == AF_INET6 ? fmt::format("[{}]:{}", ip, port) : fmt::format("{}:{}", ip, port);

  std::string last_error = "no attempt finished";
  uint64_t retry_ns = kFirstRetryNs;
  for (;;) {
    const int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return Err(HCCL_E_TCP_CONNECT, "store {}: socket: {}", address, strerror(errno));
    int err = 0;
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), addr_len) != 0) {
      err = errno;
      if (err == EINPROGRESS) {
        if (WaitReady(fd, POLLOUT, deadline_ns)) {
          socklen_t len = sizeof(err);
          if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
        } else {
          err = ETIMEDOUT;
        }
      }
    }
    if (err == 0) {
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      std::unique_ptr<StoreClient> client(new StoreClient(fd, address));
      std::lock_guard<std::mutex> lock(client->mu_);
      // Bounded even without a deadline: a listener that accepts and stays silent is not a store.
      auto reply = client->Call(FrameWriter().U8(static_cast<uint8_t>(StoreOp::kHello)).U64(wire::kStoreMagic).Finish(),
                                std::min(deadline_ns, AddNs(NowNs(), kReplyTimeoutNs)));
      if (reply.ok()) {
        FrameReader r(reply.value().data(), reply.value().size());
        const bool ok = r.U8() == static_cast<uint8_t>(StoreReply::kOk) && r.U64() == wire::kStoreMagic && r.done();
        if (!ok) {
          return Err(HCCL_E_TCP_CONNECT, "store {}: the listener there is not npurt's store (or another version)",
                     address);
        }
        return client;
      }
      // Closed before answering: a server at its connection limit, or one going down as another comes up.
      if (reply.status().code() != HCCL_E_TCP_TRANSFER) {
        return Err(HCCL_E_TCP_CONNECT, "store {}: connected, but no store answered: {}", address,
                   reply.status().message());
      }
      last_error = reply.status().message();
    } else {
      close(fd);
      last_error = strerror(err);
    }
    const uint64_t now = NowNs();
    if (now >= deadline_ns) break;
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(retry_ns, deadline_ns - now)));
    retry_ns = std::min(retry_ns * 2, kMaxRetryNs);
  }
  return Err(HCCL_E_TCP_CONNECT, "cannot reach the store at {} before the deadline (last attempt: {})", address,
             last_error);
}

StoreClient::~StoreClient() { close(fd_); }

Status StoreClient::Break(Status why) {
  if (broken_.ok()) broken_ = why;
  return why;
}

Status StoreClient::SendAll(const std::string& bytes, uint64_t deadline_ns) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t rv = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (rv >= 0) {
      sent += static_cast<size_t>(rv);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return Err(HCCL_E_TCP_TRANSFER, "store {}: send failed: {}", address_, strerror(errno));
    }
    if (!WaitReady(fd_, POLLOUT, deadline_ns)) {
      return Err(HCCL_E_TIMEOUT, "store {}: the server took no data before the deadline", address_);
    }
  }
  return Status();
}

Status StoreClient::RecvAll(char* p, size_t n, uint64_t deadline_ns) {
  size_t got = 0;
  while (got < n) {
    const ssize_t rv = recv(fd_, p + got, n - got, MSG_DONTWAIT);
    if (rv > 0) {
      got += static_cast<size_t>(rv);
      continue;
    }
    if (rv == 0) {
      return Err(HCCL_E_TCP_TRANSFER, "store {}: the server closed the connection (its process ended, or it "
                 "refused a request)", address_);
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return Err(HCCL_E_TCP_TRANSFER, "store {}: receive failed: {}", address_, strerror(errno));
    }
    if (!WaitReady(fd_, POLLIN, deadline_ns)) {
      return Err(HCCL_E_TIMEOUT, "store {}: the server did not answer before the deadline", address_);
    }
  }
  return Status();
}

StatusOr<std::string> StoreClient::Call(const std::string& frame, uint64_t deadline_ns) {
  if (!broken_.ok()) return broken_;
  if (Status s = SendAll(frame, deadline_ns); !s.ok()) return Break(std::move(s));
  char header[4];
  if (Status s = RecvAll(header, sizeof(header), deadline_ns); !s.ok()) return Break(std::move(s));
  const uint32_t len = wire::ReadFrameLength(header);
  if (len == 0 || len > wire::kMaxFrameBytes) {
    return Break(Err(HCCL_E_TCP_TRANSFER, "store {}: malformed reply ({} bytes)", address_, len));
  }
  std::string body(len, '\0');
  if (Status s = RecvAll(body.data(), len, deadline_ns); !s.ok()) return Break(std::move(s));
  return body;
}

Status StoreClient::Set(const std::string& key, const std::vector<char>& value) {
  NPURT_RETURN_IF_ERROR(CheckKey(key));
  if (value.size() > wire::kMaxValueBytes) {
    return Err(HCCL_E_PARA, "store value for '{}' has {} bytes, more than the limit of {}", wire::PrintableKey(key),
               value.size(), wire::kMaxValueBytes);
  }
  const uint64_t started = NowNs();
  std::string frame =
      FrameWriter().U8(static_cast<uint8_t>(StoreOp::kSet)).Str(key).Raw(value.data(), value.size()).Finish();
  std::lock_guard<std::mutex> lock(mu_);
  auto reply = Call(frame, AddNs(started, kReplyTimeoutNs));
  if (!reply.ok()) return reply.status();
  FrameReader r(reply.value().data(), reply.value().size());
  NPURT_RETURN_IF_ERROR(ReplyStatus(r, address_, "Set('" + wire::PrintableKey(key) + "')", started));
  return Status();
}

StatusOr<std::vector<char>> StoreClient::Get(const std::string& key, uint64_t deadline_ns) {
  NPURT_RETURN_IF_ERROR(CheckKey(key));
  const uint64_t started = NowNs();
  std::string frame =
      FrameWriter().U8(static_cast<uint8_t>(StoreOp::kGet)).U64(TimeoutMs(deadline_ns)).Str(key).Finish();
  std::lock_guard<std::mutex> lock(mu_);
  auto reply = Call(frame, AddNs(std::max(deadline_ns, started), kReplyGraceNs));
  if (!reply.ok()) return reply.status();
  FrameReader r(reply.value().data(), reply.value().size());
  NPURT_RETURN_IF_ERROR(ReplyStatus(r, address_, "Get", started));
  const std::string_view value = r.Rest();
  return std::vector<char>(value.begin(), value.end());
}

StatusOr<int64_t> StoreClient::Add(const std::string& key, int64_t delta) {
  NPURT_RETURN_IF_ERROR(CheckKey(key));
  const uint64_t started = NowNs();
  std::string frame = FrameWriter().U8(static_cast<uint8_t>(StoreOp::kAdd)).Str(key).I64(delta).Finish();
  std::lock_guard<std::mutex> lock(mu_);
  auto reply = Call(frame, AddNs(started, kReplyTimeoutNs));
  if (!reply.ok()) return reply.status();
  FrameReader r(reply.value().data(), reply.value().size());
  NPURT_RETURN_IF_ERROR(ReplyStatus(r, address_, "Add('" + wire::PrintableKey(key) + "')", started));
  const int64_t value = r.I64();
  if (!r.done()) return Break(Err(HCCL_E_TCP_TRANSFER, "store {}: malformed reply to Add", address_));
  return value;
}

StatusOr<bool> StoreClient::Check(const std::vector<std::string>& keys) {
  NPURT_RETURN_IF_ERROR(CheckKeys(keys));
  const uint64_t started = NowNs();
  FrameWriter w;
  w.U8(static_cast<uint8_t>(StoreOp::kCheck)).U32(static_cast<uint32_t>(keys.size()));
  for (const std::string& k : keys) w.Str(k);
  std::string frame = w.Finish();
  std::lock_guard<std::mutex> lock(mu_);
  auto reply = Call(frame, AddNs(started, kReplyTimeoutNs));
  if (!reply.ok()) return reply.status();
  FrameReader r(reply.value().data(), reply.value().size());
  NPURT_RETURN_IF_ERROR(ReplyStatus(r, address_, "Check", started));
  const uint8_t all = r.U8();
  if (!r.done()) return Break(Err(HCCL_E_TCP_TRANSFER, "store {}: malformed reply to Check", address_));
  return all != 0;
}

Status StoreClient::Wait(const std::vector<std::string>& keys, uint64_t deadline_ns) {
  NPURT_RETURN_IF_ERROR(CheckKeys(keys));
  const uint64_t started = NowNs();
  FrameWriter w;
  w.U8(static_cast<uint8_t>(StoreOp::kWait)).U64(TimeoutMs(deadline_ns)).U32(static_cast<uint32_t>(keys.size()));
  for (const std::string& k : keys) w.Str(k);
  std::string frame = w.Finish();
  std::lock_guard<std::mutex> lock(mu_);
  auto reply = Call(frame, AddNs(std::max(deadline_ns, started), kReplyGraceNs));
  if (!reply.ok()) return reply.status();
  FrameReader r(reply.value().data(), reply.value().size());
  return ReplyStatus(r, address_, fmt::format("Wait for {} key(s)", keys.size()), started);
}

}  // namespace npurt::hccl
