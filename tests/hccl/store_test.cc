// The rendezvous store (hccl/net/store_server.h, store_client.h) over loopback: its operations, deadlines,
// many clients at once, clients that break the protocol, and shutdown with clients still waiting.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "base/clock.h"
#include "hccl/hccl_types.h"
#include "hccl/net/store_client.h"
#include "hccl/net/store_protocol.h"
#include "hccl/net/store_server.h"

namespace npurt::hccl {
namespace {

constexpr uint64_t kMs = 1'000'000;

std::unique_ptr<StoreServer> StartServer() {
  auto server = StoreServer::Start("127.0.0.1", 0, 0);
  EXPECT_TRUE(server.ok()) << server.status().message();
  return server.ok() ? std::move(server.value()) : nullptr;
}

std::unique_ptr<StoreClient> ConnectTo(const StoreServer& server) {
  auto client = StoreClient::Connect("127.0.0.1", server.port(), NowNs() + 5000 * kMs);
  EXPECT_TRUE(client.ok()) << client.status().message();
  return client.ok() ? std::move(client.value()) : nullptr;
}

std::vector<char> Bytes(const std::string& s) { return std::vector<char>(s.begin(), s.end()); }
std::string Text(const std::vector<char>& v) { return std::string(v.begin(), v.end()); }

// A plain TCP connection to the server, for sending what a StoreClient never would.
int RawConnect(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(0, connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)));
  return fd;
}

// Whether the server closed `fd` within `ms` (reading and dropping anything it sent first).
bool ClosedWithin(int fd, int ms) {
  const uint64_t deadline = NowNs() + static_cast<uint64_t>(ms) * kMs;
  char buf[256];
  while (NowNs() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    const ssize_t rv = recv(fd, buf, sizeof(buf), 0);
    if (rv <= 0) return true;
  }
  return false;
}

// A port nothing listens on right now (the kernel's pick, released).
uint16_t FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  socklen_t len = sizeof(a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

TEST(Store, SetGetAddCheckWait) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  EXPECT_EQ("127.0.0.1", server->ip());
  EXPECT_NE(0, server->port());
  auto c = ConnectTo(*server);
  ASSERT_NE(c, nullptr);

  const std::vector<char> binary = {'a', '\0', '\xff', 'b', '\n'};
  ASSERT_TRUE(c->Set("k1", binary).ok());
  auto got = c->Get("k1", NowNs() + 1000 * kMs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(binary, got.value());
  ASSERT_TRUE(c->Set("k1", Bytes("replaced")).ok());
  EXPECT_EQ("replaced", Text(c->Get("k1", NowNs() + 1000 * kMs).value()));
  ASSERT_TRUE(c->Set("empty", {}).ok());
  EXPECT_TRUE(c->Get("empty", NowNs() + 1000 * kMs).value().empty());
  const std::string odd_key("\x01key with \0 inside", 18);
  ASSERT_TRUE(c->Set(odd_key, Bytes("v")).ok());
  EXPECT_EQ("v", Text(c->Get(odd_key, NowNs() + 1000 * kMs).value()));

  EXPECT_EQ(1, c->Add("n", 1).value());
  EXPECT_EQ(6, c->Add("n", 5).value());
  EXPECT_EQ(-4, c->Add("n", -10).value());
  EXPECT_EQ("-4", Text(c->Get("n", NowNs() + 1000 * kMs).value()));
  EXPECT_EQ(-4, c->Add("n", 0).value());
  auto not_counter = c->Add("k1", 1);
  EXPECT_EQ(HCCL_E_PARA, not_counter.status().code()) << not_counter.status().message();
  ASSERT_TRUE(c->Set("big", Bytes(std::to_string(INT64_MAX))).ok());
  EXPECT_EQ(HCCL_E_PARA, c->Add("big", 1).status().code()) << "overflow is refused";

  EXPECT_TRUE(c->Check({"k1", "n"}).value());
  EXPECT_FALSE(c->Check({"k1", "nope"}).value());
  EXPECT_TRUE(c->Check({}).value());
  EXPECT_TRUE(c->Wait({"k1", "n", "empty"}, NowNs() + 1000 * kMs).ok());
  EXPECT_TRUE(c->Wait({"k1"}, NowNs() - 1).ok()) << "a passed deadline still sees keys that exist";
  EXPECT_TRUE(c->Get("k1", 0).ok());
}

TEST(Store, LargeValuesAndLimits) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto c = ConnectTo(*server);
  ASSERT_NE(c, nullptr);
  std::vector<char> big(8 << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131 + 7);
  ASSERT_TRUE(c->Set("big", big).ok());
  auto got = c->Get("big", NowNs() + 5000 * kMs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_TRUE(got.value() == big);

  EXPECT_EQ(HCCL_E_PARA, c->Set(std::string(wire::kMaxKeyBytes + 1, 'k'), Bytes("v")).code());
  EXPECT_TRUE(c->Set(std::string(wire::kMaxKeyBytes, 'k'), Bytes("v")).ok());
  EXPECT_EQ(HCCL_E_PARA, c->Set("huge", std::vector<char>(wire::kMaxValueBytes + 1)).code());
  EXPECT_EQ(HCCL_E_PARA, c->Wait(std::vector<std::string>(wire::kMaxKeysPerRequest + 1, "k"), NowNs()).code());
  EXPECT_TRUE(c->Get("big", NowNs() + 1000 * kMs).ok()) << "refused requests leave the client usable";
}

TEST(Store, GetWaitsUntilAnotherClientSets) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto waiter = ConnectTo(*server);
  auto setter = ConnectTo(*server);
  ASSERT_TRUE(waiter && setter);
  StatusOr<std::vector<char>> got = Status();
  Status waited;
  const uint64_t start = NowNs();
  std::thread t([&] {
    got = waiter->Get("late", NowNs() + 5000 * kMs);
    waited = waiter->Wait({"late", "later"}, NowNs() + 5000 * kMs);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(setter->Set("late", Bytes("here")).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(setter->Add("later", 3).ok());
  t.join();
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ("here", Text(got.value()));
  EXPECT_TRUE(waited.ok()) << waited.message();
  EXPECT_LT(NowNs() - start, 2000 * kMs);
}

TEST(Store, DeadlinesNameTheMissingKeys) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto c = ConnectTo(*server);
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->Set("present", Bytes("x")).ok());

  uint64_t start = NowNs();
  Status s = c->Wait({"present", "absent/1", "absent/2"}, NowNs() + 200 * kMs);
  uint64_t took = NowNs() - start;
  EXPECT_EQ(HCCL_E_TIMEOUT, s.code());
  EXPECT_NE(std::string::npos, s.message().find("'absent/1', 'absent/2'")) << s.message();
  EXPECT_EQ(std::string::npos, s.message().find("'present'")) << s.message();
  EXPECT_GE(took, 190 * kMs);
  EXPECT_LT(took, 1500 * kMs);

  start = NowNs();
  auto got = c->Get("never", NowNs() + 100 * kMs);
  EXPECT_EQ(HCCL_E_TIMEOUT, got.status().code());
  EXPECT_NE(std::string::npos, got.status().message().find("'never'")) << got.status().message();
  EXPECT_LT(NowNs() - start, 1500 * kMs);
  EXPECT_EQ(HCCL_E_TIMEOUT, c->Get("never", 0).status().code()) << "a passed deadline answers at once";

  // The timeouts leave the connection in step: the next answers are the right ones.
  EXPECT_EQ("x", Text(c->Get("present", NowNs() + 1000 * kMs).value()));
  EXPECT_EQ(1, c->Add("after", 1).value());
}

TEST(Store, ManyClientsFromThreads) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  constexpr int kThreads = 8, kAdds = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto c = StoreClient::Connect("127.0.0.1", server->port(), NowNs() + 5000 * kMs);
      if (!c.ok()) {
        ++failures;
        return;
      }
      for (int i = 0; i < kAdds; ++i) {
        if (!c.value()->Add("counter", 1).ok()) ++failures;
      }
      if (!c.value()->Set("done/" + std::to_string(t), Bytes(std::to_string(t))).ok()) ++failures;
      std::vector<std::string> all;
      for (int k = 0; k < kThreads; ++k) all.push_back("done/" + std::to_string(k));
      if (!c.value()->Wait(all, NowNs() + 5000 * kMs).ok()) ++failures;
      auto other = c.value()->Get("done/" + std::to_string((t + 1) % kThreads), NowNs() + 1000 * kMs);
      if (!other.ok() || Text(other.value()) != std::to_string((t + 1) % kThreads)) ++failures;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(0, failures.load());
  auto c = ConnectTo(*server);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(kThreads * kAdds, c->Add("counter", 0).value());
}

TEST(Store, OneClientSharedByThreads) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto c = ConnectTo(*server);
  ASSERT_NE(c, nullptr);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        const std::string key = "t" + std::to_string(t) + "/" + std::to_string(i);
        if (!c->Set(key, Bytes(key)).ok()) ++failures;
        auto v = c->Get(key, NowNs() + 1000 * kMs);
        if (!v.ok() || Text(v.value()) != key) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(0, failures.load());
}

TEST(Store, ConnectRetriesUntilTheServerStarts) {
  const uint16_t port = FreePort();
  StatusOr<std::unique_ptr<StoreClient>> client = Status();
  std::thread t([&] { client = StoreClient::Connect("127.0.0.1", port, NowNs() + 5000 * kMs); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto server = StoreServer::Start("127.0.0.1", port, 1);
  t.join();
  ASSERT_TRUE(server.ok()) << server.status().message();
  ASSERT_TRUE(client.ok()) << client.status().message();
  EXPECT_TRUE(client.value()->Set("k", Bytes("v")).ok());
}

TEST(Store, ConnectGivesUpAtTheDeadline) {
  const uint16_t port = FreePort();
  const uint64_t start = NowNs();
  auto client = StoreClient::Connect("127.0.0.1", port, NowNs() + 300 * kMs);
  EXPECT_EQ(HCCL_E_TCP_CONNECT, client.status().code());
  EXPECT_NE(std::string::npos, client.status().message().find("127.0.0.1:" + std::to_string(port)))
      << client.status().message();
  EXPECT_LT(NowNs() - start, 1500 * kMs);
}

TEST(Store, ConnectRefusesAListenerThatIsNotAStore) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(0, bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)));
  ASSERT_EQ(0, listen(fd, 4));
  socklen_t len = sizeof(a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  // Something that accepts and answers garbage.
  std::thread peer([fd] {
    const int conn = accept(fd, nullptr, nullptr);
    if (conn < 0) return;
    const char junk[] = "\x05\x00\x00\x00HELLO";
    send(conn, junk, sizeof(junk) - 1, MSG_NOSIGNAL);
    ClosedWithin(conn, 2000);
    close(conn);
  });
  auto client = StoreClient::Connect("127.0.0.1", ntohs(a.sin_port), NowNs() + 2000 * kMs);
  EXPECT_EQ(HCCL_E_TCP_CONNECT, client.status().code()) << client.status().message();
  client = Status();
  peer.join();
  close(fd);
}

TEST(Store, BadFramesCloseOnlyTheirConnection) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto good = ConnectTo(*server);
  ASSERT_NE(good, nullptr);
  ASSERT_TRUE(good->Set("k", Bytes("v")).ok());
  // A client parked in a Get across the whole episode must still be answered.
  auto parked = ConnectTo(*server);
  ASSERT_NE(parked, nullptr);
  StatusOr<std::vector<char>> parked_got = Status();
  std::thread t([&] { parked_got = parked->Get("released", NowNs() + 5000 * kMs); });

  // A stalled half frame: must not hold up anyone.
  const int stalled = RawConnect(server->port());
  const char half[] = "\x40\x00\x00\x00\x01";
  ASSERT_EQ(5, send(stalled, half, 5, MSG_NOSIGNAL));

  struct Case {
    const char* what;
    std::string bytes;
  };
  const std::string huge_len("\xff\xff\xff\xff", 4);
  const std::string zero_len("\x00\x00\x00\x00", 4);
  const std::string bad_op = std::string("\x01\x00\x00\x00", 4) + "\x63";
  // kSet whose key length (5000) exceeds the limit.
  const std::string long_key = std::string("\x05\x00\x00\x00\x02\x88\x13\x00\x00", 9);
  // kGet with trailing bytes after its key.
  const std::string trailing = std::string("\x10\x00\x00\x00\x03", 5) + std::string(8, '\0') +
                               std::string("\x01\x00\x00\x00", 4) + "k" + "xx";
  // kWait claiming more keys than present.
  const std::string short_wait = std::string("\x0d\x00\x00\x00\x06", 5) + std::string(8, '\0') +
                                 std::string("\x05\x00\x00\x00", 4);
  for (const Case& c : std::vector<Case>{{"length 2^32-1", huge_len},
                                         {"length 0", zero_len},
                                         {"unknown op", bad_op},
                                         {"key over 4 KiB", long_key},
                                         {"trailing bytes", trailing},
                                         {"short key list", short_wait}}) {
    const int fd = RawConnect(server->port());
    ASSERT_EQ(static_cast<ssize_t>(c.bytes.size()), send(fd, c.bytes.data(), c.bytes.size(), MSG_NOSIGNAL)) << c.what;
    EXPECT_TRUE(ClosedWithin(fd, 2000)) << c.what << ": the server keeps a connection that broke the protocol";
    close(fd);
    const uint64_t start = NowNs();
    auto v = good->Get("k", NowNs() + 1000 * kMs);
    EXPECT_TRUE(v.ok()) << c.what << ": " << v.status().message();
    EXPECT_LT(NowNs() - start, 500 * kMs) << c.what;
  }
  EXPECT_TRUE(good->Set("released", Bytes("yes")).ok());
  t.join();
  ASSERT_TRUE(parked_got.ok()) << parked_got.status().message();
  EXPECT_EQ("yes", Text(parked_got.value()));
  EXPECT_FALSE(ClosedWithin(stalled, 50)) << "a slow client is not a bad one";
  close(stalled);
}

TEST(Store, ClientThatNeverReadsRepliesDoesNotStallOthers) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto good = ConnectTo(*server);
  ASSERT_NE(good, nullptr);
  ASSERT_TRUE(good->Set("big", std::vector<char>(4 << 20, 'x')).ok());
  // Pipelines Gets of a 4 MiB value and reads nothing: the server buffers, then drops it.
  const int greedy = RawConnect(server->port());
  const std::string get =
      std::string("\x10\x00\x00\x00\x03", 5) + std::string(8, '\0') + std::string("\x03\x00\x00\x00", 4) + "big";
  for (int i = 0; i < 64; ++i) {
    pollfd p{greedy, POLLOUT, 0};
    if (poll(&p, 1, 100) <= 0) break;  // the kernel buffers are full: enough
    if (send(greedy, get.data(), get.size(), MSG_NOSIGNAL | MSG_DONTWAIT) <= 0) break;
  }
  const uint64_t start = NowNs();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(good->Add("n", 1).ok());
  EXPECT_LT(NowNs() - start, 1000 * kMs);
  close(greedy);
}

TEST(Store, DestroyingTheServerReleasesBlockedClients) {
  auto server = StartServer();
  ASSERT_NE(server, nullptr);
  auto a = ConnectTo(*server);
  auto b = ConnectTo(*server);
  ASSERT_TRUE(a && b);
  std::atomic<uint64_t> returned_at{0};
  Status get_status, wait_status;
  std::thread ta([&] {
    get_status = a->Get("never", NowNs() + 30'000 * kMs).status();
    returned_at = NowNs();
  });
  std::thread tb([&] { wait_status = b->Wait({"never"}, UINT64_MAX); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const uint64_t start = NowNs();
  server.reset();
  const uint64_t destroyed = NowNs() - start;
  ta.join();
  tb.join();
  EXPECT_LT(destroyed, 500 * kMs);
  EXPECT_LT(returned_at.load() - start, 1000 * kMs);
  EXPECT_EQ(HCCL_E_TCP_TRANSFER, get_status.code()) << get_status.message();
  EXPECT_EQ(HCCL_E_TCP_TRANSFER, wait_status.code()) << wait_status.message();
  // The client is broken for good: later calls fail at once.
  const uint64_t again = NowNs();
  EXPECT_EQ(HCCL_E_TCP_TRANSFER, a->Set("k", Bytes("v")).code());
  EXPECT_LT(NowNs() - again, 100 * kMs);
}

TEST(Store, PortRangeSkipsBusyPorts) {
  // Two adjacent free ports (bounded search), the first held by another listener.
  int holder = -1;
  uint16_t base = 0;
  for (int attempt = 0; attempt < 50 && holder < 0; ++attempt) {
    const uint16_t p = FreePort();
    if (p == 65535) continue;
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(p);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 || listen(fd, 1) != 0) {
      close(fd);
      continue;
    }
    const int probe = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_port = htons(static_cast<uint16_t>(p + 1));
    const bool next_free = bind(probe, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
    close(probe);
    if (!next_free) {
      close(fd);
      continue;
    }
    holder = fd;
    base = p;
  }
  ASSERT_GE(holder, 0) << "no two adjacent free ports found";
  auto server = StoreServer::Start("127.0.0.1", base, 2);
  ASSERT_TRUE(server.ok()) << server.status().message();
  EXPECT_EQ(base + 1, server.value()->port());

  auto none = StoreServer::Start("127.0.0.1", base, 1);
  EXPECT_EQ(HCCL_E_TCP_CONNECT, none.status().code());
  EXPECT_NE(std::string::npos, none.status().message().find(std::to_string(base))) << none.status().message();
  EXPECT_NE(std::string::npos, none.status().message().find("HCCL_IF_BASE_PORT")) << none.status().message();
  EXPECT_NE(std::string::npos, none.status().message().find("HCCL_HOST_SOCKET_PORT_RANGE")) << none.status().message();
  close(holder);
}

TEST(Store, RefusesAddressesThatAreNotNumeric) {
  EXPECT_EQ(HCCL_E_PARA, StoreServer::Start("localhost.invalid", 0, 0).status().code());
  EXPECT_EQ(HCCL_E_PARA, StoreServer::Start("", 0, 0).status().code());
  EXPECT_EQ(HCCL_E_PARA, StoreClient::Connect("300.1.1.1", 1234, NowNs()).status().code());
  EXPECT_EQ(HCCL_E_PARA, StoreClient::Connect("127.0.0.1", 0, NowNs()).status().code());
  auto v6 = StoreServer::Start("::1", 0, 0);
  if (v6.ok()) {  // machines without IPv6 loopback skip this half
    auto c = StoreClient::Connect("::1", v6.value()->port(), NowNs() + 2000 * kMs);
    ASSERT_TRUE(c.ok()) << c.status().message();
    EXPECT_TRUE(c.value()->Set("k", Bytes("v")).ok());
    EXPECT_NE(std::string::npos, c.value()->address().find("[::1]:"));
  }
}

}  // namespace
}  // namespace npurt::hccl
