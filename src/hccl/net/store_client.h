// StoreClient: one rank's connection to the rendezvous store (store_server.h) that the root's
// HcclGetRootInfo started, in this process or another, on this machine or another.
//
// Deadlines are absolute CLOCK_MONOTONIC times in ns (base/clock.h; UINT64_MAX = none). Get and Wait send
// the time left to the server, which answers when the keys appear or that time passes; if the server
// does not answer within a grace period after the deadline (it died, the network broke) the call fails
// with HCCL_E_TIMEOUT all the same. Set, Add and Check answer at once; they give the server 30 s.
//
// Errors (HcclResult codes): HCCL_E_TCP_CONNECT when Connect cannot reach the server before its
// deadline; HCCL_E_TIMEOUT when keys are still missing at the deadline (the message names them);
// HCCL_E_TCP_TRANSFER when the connection breaks — the client is then unusable and every later call
// fails at once with that error; HCCL_E_PARA for a key or value over the limits of store_protocol.h,
// or an Add on a value that is not a counter; HCCL_E_MEMORY when the store is full.
//
// Thread safety: every method may be called from any thread; calls on one client run one at a time (a
// Get that waits holds up the client's other calls, so give each waiting thread its own client).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::hccl {

class StoreClient {
 public:
  // Connects to `ip` (numeric IPv4 or IPv6) : `port`, retrying refused or failed attempts until the
  // deadline, since ranks may start before the root's listener is up (HCCL_CONNECT_TIMEOUT bounds it).
  static StatusOr<std::unique_ptr<StoreClient>> Connect(const std::string& ip, uint16_t port, uint64_t deadline_ns);
  ~StoreClient();
  StoreClient(const StoreClient&) = delete;
  StoreClient& operator=(const StoreClient&) = delete;

  // Sets `key` to `value`, replacing any value it had, and wakes the Get/Wait calls waiting for it.
  Status Set(const std::string& key, const std::vector<char>& value);
  // The value of `key`, waiting until some client sets it or the deadline passes.
  StatusOr<std::vector<char>> Get(const std::string& key, uint64_t deadline_ns);
  // Adds `delta` to the counter `key` (a missing key counts as 0) and returns the new value. The value is
  // kept as decimal text, so Get reads it as such.
  StatusOr<int64_t> Add(const std::string& key, int64_t delta);
  // Whether every key exists now.
  StatusOr<bool> Check(const std::vector<std::string>& keys);
  // Waits until every key exists or the deadline passes.
  Status Wait(const std::vector<std::string>& keys, uint64_t deadline_ns);

  // "ip:port", for messages.
  const std::string& address() const { return address_; }

 private:
  StoreClient(int fd, std::string address) : fd_(fd), address_(std::move(address)) {}
  // Sends one request frame and returns the body of its reply; `deadline_ns` bounds the whole exchange.
  // A failure other than the server's kError or kTimeout reply breaks the client.
  StatusOr<std::string> Call(const std::string& frame, uint64_t deadline_ns);
  Status SendAll(const std::string& bytes, uint64_t deadline_ns);
  Status RecvAll(char* p, size_t n, uint64_t deadline_ns);
  Status Break(Status why);

  std::mutex mu_;
  int fd_;
  const std::string address_;
  Status broken_;  // guarded by mu_
};

}  // namespace npurt::hccl
