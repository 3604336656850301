#include "hccl/communicator.h"

#include <map>
#include <mutex>

#include <fmt/format.h>

#include "dfx/log.h"
#include "hccl/handle_tags.h"
#include "hccl/result.h"

namespace npurt::hccl {
namespace {

// Live communicators by name and rank. The ranks of one communicator share its name, and several of them
// live in one process when they are simulated devices of it; two communicators may not share a name.
struct NameRegistry {
  std::mutex mu;
  std::map<std::pair<std::string, uint32_t>, Communicator*> by_name;
};
NameRegistry& Names() {
  static auto* registry = new NameRegistry;  // never destroyed: communicators may outlive static destruction
  return *registry;
}

}  // namespace

Communicator::Communicator(uint32_t rank, uint32_t size, int32_t device, const CommOptions& options, std::string name)
    : HandleObject(handle_tags::kHcclComm), rank_(rank), size_(size), device_(device), options_(options),
      name_(std::move(name)) {}

// The engine goes with the last reference, not at HcclCommDestroy: an operation that another thread issued
// while this one destroyed the communicator (a program error HCCL forbids) still finds its engine.
Communicator::~Communicator() = default;

StatusOr<Communicator*> Communicator::Create(uint32_t rank, uint32_t size, int32_t device, const CommOptions& options,
                                             std::unique_ptr<Transport> transport, const std::string& name) {
  NameRegistry& names = Names();
  std::lock_guard<std::mutex> lock(names.mu);
  if (names.by_name.count({name, rank}) != 0) {
    return Err(HCCL_E_PARA, "rank {} of a communicator named '{}' exists already in this process; names must be unique",
               rank, name);
  }
  Communicator* comm = NewHandle<Communicator>(rank, size, device, options, name);
  if (comm == nullptr) return Err(HCCL_E_MEMORY, "no handle slot left for a communicator");
  const char* transport_name = transport->name();
  comm->engine_ = std::make_unique<CommEngine>(std::move(transport), fmt::format("communicator '{}' rank {}", name, rank),
                                               options.exec_timeout_ns);
  names.by_name[{name, rank}] = comm;
  NPURT_LOG_INFO("HCCL", "communicator '{}': rank {} of {} on device {} ({} transport)", name, rank, size, device,
                 transport_name);
  return comm;
}

Status Communicator::Destroy() {
  if (const uint64_t n = in_flight(); n != 0) {
    return Err(HCCL_E_AGAIN, "communicator '{}' is in use: {} operation(s) are still queued or running on their streams; "
               "synchronize them, then destroy it", name_, n);
  }
  {
    NameRegistry& names = Names();
    std::lock_guard<std::mutex> lock(names.mu);
    auto it = names.by_name.find({name_, rank_});
    if (it != names.by_name.end() && it->second == this) names.by_name.erase(it);
  }
  if (!Invalidate()) return Err(HCCL_E_PARA, "communicator '{}' was destroyed already", name_);
  Release();  // the user's reference: with no operation in flight, the last one (the engine stops now)
  return Status();
}

StatusOr<Communicator*> LookupComm(const void* handle) {
  if (handle == nullptr) return Err(HCCL_E_PTR, "comm is a null pointer");
  Communicator* comm = LookupHandle<Communicator>(handle, handle_tags::kHcclComm);
  if (comm == nullptr) return Err(HCCL_E_PARA, "comm {} is not a live communicator (destroyed, or not an HcclComm)", handle);
  return comm;
}

StatusOr<Communicator*> FindCommByName(const std::string& name) {
  NameRegistry& names = Names();
  std::lock_guard<std::mutex> lock(names.mu);
  // The lowest rank of that name that lives in this process.
  auto it = names.by_name.lower_bound({name, 0});
  if (it == names.by_name.end() || it->first.first != name) {
    return Err(HCCL_E_NOT_FOUND, "no live communicator is named '{}'", name);
  }
  return it->second;
}

}  // namespace npurt::hccl
