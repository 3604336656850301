#include "hccl/root_info.h"

#include <ifaddrs.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "base/env.h"
#include "base/parse_uint.h"
#include "dfx/log.h"
#include "hccl/net/store_server.h"

namespace npurt::hccl {
namespace {

constexpr char kRootInfoMagic[8] = {'N', 'P', 'U', 'R', 'T', 'R', 'I', '1'};
constexpr uint32_t kVersion = 1;
constexpr uint16_t kDefaultBasePort = 60000;
constexpr uint16_t kPortsTried = 32;  // HCCL uses base .. base + 31

// The blob's layout (little-endian host order; ranks of one job run on one architecture).
struct Blob {
  char magic[8];
  uint32_t version;
  uint16_t port;
  uint16_t reserved;
  uint64_t job_id;
  char ip[64];
  char identifier[256];
};
static_assert(sizeof(Blob) <= HCCL_ROOT_INFO_BYTES);

// Listeners started by this process: they serve ranks in other processes too, so they live until exit.
struct Listeners {
  std::mutex mu;
  std::vector<std::unique_ptr<StoreServer>> servers;
};
Listeners& AllListeners() {
  static auto* listeners = new Listeners;  // never destroyed: ranks may still connect during static destruction
  return *listeners;
}

// The address to publish: HCCL_IF_IP, else HCCL_SOCKET_IFNAME's IPv4 address, else loopback. (HCCL picks the
// first non-loopback interface by default; npurt stays on loopback unless told, so that nothing listens on a
// network a test machine shares. Jobs across machines set HCCL_IF_IP.)
StatusOr<std::string> ListenAddress() {
  if (const char* ip = env::Raw(env::Var::kHcclIfIp); ip != nullptr && *ip != '\0') {
    in_addr a{};
    if (inet_pton(AF_INET, ip, &a) != 1) return Err(HCCL_E_PARA, "HCCL_IF_IP={} is not an IPv4 address", ip);
    return std::string(ip);
  }
  const char* ifname = env::Raw(env::Var::kHcclSocketIfname);
  if (ifname == nullptr || *ifname == '\0') return std::string("127.0.0.1");
  std::string wanted = ifname;
  if (wanted.rfind("=", 0) == 0) wanted = wanted.substr(1);
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return Err(HCCL_E_SYSCALL, "getifaddrs failed: {}", std::strerror(errno));
  std::string found;
  for (ifaddrs* it = list; it != nullptr && found.empty(); it = it->ifa_next) {
    if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_INET) continue;
    if (std::string(it->ifa_name).rfind(wanted, 0) != 0) continue;
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(it->ifa_addr)->sin_addr, buf, sizeof(buf));
    found = buf;
  }
  freeifaddrs(list);
  if (found.empty()) return Err(HCCL_E_PARA, "HCCL_SOCKET_IFNAME={}: no interface with an IPv4 address matches", ifname);
  return found;
}

// The ports to try: HCCL_HOST_SOCKET_PORT_RANGE ("auto" or "first-last"), else HCCL_IF_BASE_PORT.. + 31.
Status ListenPorts(uint16_t* base, uint16_t* count) {
  if (const char* range = env::Raw(env::Var::kHcclHostSocketPortRange); range != nullptr && *range != '\0') {
    std::string r = range;
    if (r == "auto") {
      *base = 0;
      *count = 0;
      return Status();
    }
    const size_t dash = r.find('-');
    uint64_t first = 0, last = 0;
    if (!ParseDecimalUint(r.substr(0, dash), &first)) first = 0;
    if (dash == std::string::npos) {
      last = first;
    } else if (!ParseDecimalUint(r.substr(dash + 1), &last)) {
      last = 0;
    }
    if (first < 1024 || last > 65535 || last < first) {
      return Err(HCCL_E_PARA, "HCCL_HOST_SOCKET_PORT_RANGE={} is neither 'auto' nor a range first-last within 1024-65535", range);
    }
    *base = static_cast<uint16_t>(first);
    *count = static_cast<uint16_t>(last - first + 1);
    return Status();
  }
  uint64_t b = kDefaultBasePort;
  if (const char* raw = env::Raw(env::Var::kHcclIfBasePort); raw != nullptr && *raw != '\0') {
    if (!ParseDecimalUint(raw, &b) || b < 1024 || b > 65520) {
      return Err(HCCL_E_PARA, "HCCL_IF_BASE_PORT={} is not a port within 1024-65520", raw);
    }
  }
  *base = static_cast<uint16_t>(b);
  *count = kPortsTried;
  return Status();
}

void CopyString(char* dst, size_t cap, const std::string& src) {
  const size_t n = std::min(cap - 1, src.size());
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

std::string BoundedString(const char* src, size_t cap) { return std::string(src, strnlen(src, cap)); }

}  // namespace

void EncodeRootInfo(const RootInfoData& data, HcclRootInfo* out) {
  std::memset(out, 0, sizeof(*out));
  Blob b{};
  std::memcpy(b.magic, kRootInfoMagic, sizeof(kRootInfoMagic));
  b.version = kVersion;
  b.port = data.port;
  b.job_id = data.job_id;
  CopyString(b.ip, sizeof(b.ip), data.ip);
  CopyString(b.identifier, sizeof(b.identifier), data.identifier);
  std::memcpy(out->internal, &b, sizeof(b));
}

StatusOr<RootInfoData> DecodeRootInfo(const HcclRootInfo* in) {
  Blob b{};
  std::memcpy(&b, in->internal, sizeof(b));
  if (std::memcmp(b.magic, kRootInfoMagic, sizeof(kRootInfoMagic)) != 0) {
    return Err(HCCL_E_PARA, "rootInfo is not a root info from npurt's HcclGetRootInfo (zeroed, damaged in transit, or "
               "from another HCCL)");
  }
  if (b.version != kVersion) return Err(HCCL_E_PARA, "rootInfo has version {}, this npurt reads {}", b.version, kVersion);
  RootInfoData d;
  d.ip = BoundedString(b.ip, sizeof(b.ip));
  d.port = b.port;
  d.job_id = b.job_id;
  d.identifier = BoundedString(b.identifier, sizeof(b.identifier));
  in_addr a{};
  if (d.port == 0 || inet_pton(AF_INET, d.ip.c_str(), &a) != 1) {
    return Err(HCCL_E_PARA, "rootInfo names no usable listener ({}:{})", d.ip, d.port);
  }
  return d;
}

StatusOr<std::string> LocalAddress() { return ListenAddress(); }

StatusOr<RootInfoData> StartRootListener(int32_t device) {
  auto ip = ListenAddress();
  if (!ip.ok()) return ip.status();
  uint16_t base = 0, count = 0;
  if (Status s = ListenPorts(&base, &count); !s.ok()) return s;
  auto server = StoreServer::Start(ip.value(), base, count);
  if (!server.ok()) return server.status();
  RootInfoData d;
  d.ip = ip.value();
  d.port = server.value()->port();
  std::random_device rd;
  d.job_id = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(getpid());
  const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  d.identifier = fmt::format("{}%{}_{}_{}_{}", d.ip, d.ip == "127.0.0.1" ? "lo" : "eth", d.port, device, now_us);
  NPURT_LOG_INFO("HCCL", "root info: listener {}:{} for job {:016x} ({})", d.ip, d.port, d.job_id, d.identifier);
  Listeners& all = AllListeners();
  std::lock_guard<std::mutex> lock(all.mu);
  all.servers.push_back(std::move(server.value()));
  return d;
}

Status StartListenerAt(const std::string& ip, uint16_t port) {
  auto server = StoreServer::Start(ip, port, 1);
  if (!server.ok()) return server.status();
  Listeners& all = AllListeners();
  std::lock_guard<std::mutex> lock(all.mu);
  all.servers.push_back(std::move(server.value()));
  return Status();
}

}  // namespace npurt::hccl
