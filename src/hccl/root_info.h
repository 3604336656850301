// The root info (HcclRootInfo, 4108 opaque bytes the program copies to every rank): where the root's
// rendezvous listener is and which job it belongs to. HcclGetRootInfo starts that listener (a key-value
// store over TCP, net/store_server.h) in the root's process; every rank of the communicator connects to it
// to find the others. The bytes are versioned and checked when read: a blob that is not npurt's (zeroed,
// from CANN, truncated by the program's broadcast) is refused with a message.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {

struct RootInfoData {
  std::string ip;          // the listener's IPv4 address (HCCL_IF_IP; loopback by default)
  uint16_t port = 0;
  uint64_t job_id = 0;     // random: keeps jobs and communicators on one listener apart
  std::string identifier;  // "ip%ifname_port_device_timestamp", HCCL's form: the default communicator name
};

void EncodeRootInfo(const RootInfoData& data, HcclRootInfo* out);
StatusOr<RootInfoData> DecodeRootInfo(const HcclRootInfo* in);

// HcclGetRootInfo: starts a listener for a new job on the address and ports the environment names
// (HCCL_IF_IP, HCCL_IF_BASE_PORT, HCCL_HOST_SOCKET_PORT_RANGE). It lives until the process exits.
StatusOr<RootInfoData> StartRootListener(int32_t device);

// The address this process's ranks bind and publish: HCCL_IF_IP, else HCCL_SOCKET_IFNAME's, else loopback.
StatusOr<std::string> LocalAddress();

// A listener for a rank table's job (HcclCommInitClusterInfo's rank 0 starts it on `ip`:`port`).
Status StartListenerAt(const std::string& ip, uint16_t port);

}  // namespace npurt::hccl
