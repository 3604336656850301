// StoreServer: the rendezvous listener that HcclGetRootInfo starts in the root's process (HCCL's "root
// info" socket). It keeps a table of byte-string keys and values for the ranks of every communicator that
// meets through it, in this process or in others; ranks reach it with StoreClient (store_client.h). The
// wire format is net/store_protocol.h.
//
// One background thread serves every connection with epoll and non-blocking sockets, so a client that
// stalls mid-frame or stops reading never delays the others. A malformed or oversized frame closes that
// connection only. A Get or Wait for a key not yet set is parked until the key appears or the client's
// timeout passes (then the reply names the keys still missing).
//
// Limits: keys up to 4 KiB, values up to 64 MiB, 4096 keys per request, 1 GiB of keys and values in all,
// 4096 connections at once. A client that sends requests without reading the replies is not served
// further until it reads (8 MiB of replies wait for it at most).
//
// Thread safety: the object is immutable after Start; destroying it stops the thread and closes every
// socket at once (clients blocked in a Get or Wait see the connection close).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "base/status.h"

namespace npurt::hccl {

class StoreServer {
 public:
  // Listens on `bind_ip` (numeric IPv4 or IPv6; a wildcard address listens on every interface), trying
  // base_port, base_port + 1, ... base_port + port_count - 1 in turn; port_count 0 or base_port 0 takes
  // one port the kernel picks. HCCL_E_TCP_CONNECT names the busy ports when none is free, HCCL_E_PARA
  // an address that is not one.
  static StatusOr<std::unique_ptr<StoreServer>> Start(const std::string& bind_ip, uint16_t base_port,
                                                     uint16_t port_count);
  ~StoreServer();
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  uint16_t port() const { return port_; }
  const std::string& ip() const { return ip_; }

 private:
  class Loop;  // the serving thread's state (store_server.cc)
  StoreServer(std::string ip, uint16_t port, std::unique_ptr<Loop> loop);

  const std::string ip_;
  const uint16_t port_;
  std::unique_ptr<Loop> loop_;
  std::thread thread_;
};

}  // namespace npurt::hccl
