#include "hccl/rendezvous.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "base/clock.h"
#include "base/env.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "dfx/log.h"
#include "hccl/gloo_transport.h"
#include "hccl/group_registry.h"
#include "hccl/hierarchical_transport.h"
#include "hccl/ipc_transport.h"
#include "hccl/local_transport.h"
#include "hccl/net/store_client.h"
#include "hccl/rank_table.h"
#include "hccl/root_info.h"

namespace npurt::hccl {
namespace {

// LocalGroups of this process, by job, so that the ranks of one job that live here share one.
std::shared_ptr<LocalGroup> JoinLocalGroup(const std::string& job, uint32_t size) {
  static auto* groups = new GroupRegistry<LocalGroup>;
  return groups
      ->FindOrMake(
          job, [&](const LocalGroup& g) { return g.size() == size; },
          [&]() -> StatusOr<std::shared_ptr<LocalGroup>> { return std::make_shared<LocalGroup>(size); })
      .value();
}

// Identifies this machine: the boot id (one per running kernel), else the host name.
const std::string& MachineIdentity() {
  static const std::string identity = [] {
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string boot;
    std::getline(in, boot);
    if (boot.empty()) {
      char host[256] = {};
      gethostname(host, sizeof(host) - 1);
      boot = host;
    }
    return boot;
  }();
  return identity;
}

// Identifies this process across machines: the machine and the pid.
std::string ProcessIdentity() { return fmt::format("{}/{}", MachineIdentity(), getpid()); }

// Whether processes of one machine may share device memory (NPURT_HCCL_TRANSPORT).
bool SharedMemoryAllowed() {
  const char* raw = env::Raw(env::Var::kHcclTransport);
  if (raw == nullptr || *raw == '\0' || std::strcmp(raw, "auto") == 0) return true;
  if (std::strcmp(raw, "gloo") != 0) {
    NPURT_LOG_WARNING("HCCL", "NPURT_HCCL_TRANSPORT={} is neither 'auto' nor 'gloo'; using 'auto'", raw);
  }
  return std::strcmp(raw, "gloo") != 0;
}

struct JoinSpec {
  std::string ip;
  uint16_t port = 0;
  std::string job;  // key prefix: the job's id
  uint32_t size = 0;
  uint32_t rank = 0;
  int32_t device = 0;
  std::string name;
  std::string server;  // the rank table's server_id: ranks of different servers are different machines
  CommOptions options;
};

StatusOr<std::unique_ptr<Transport>> GlooOver(uint32_t rank, uint32_t size, StoreClient& store, const std::string& prefix,
                                              uint64_t deadline) {
  auto bind_ip = LocalAddress();
  if (!bind_ip.ok()) return bind_ip.status();
  auto gloo = GlooTransport::Create(rank, size, &store, prefix, bind_ip.value(), deadline);
  if (!gloo.ok()) return gloo.status();
  return std::unique_ptr<Transport>(std::move(gloo.value()));
}

// The transport of the ranks whose processes and machines are `processes[r]` and `machines[r]`: in process,
// shared device memory on one machine, hierarchical over several machines with the same number of ranks
// (at least two) on each, else Gloo alone. Every rank reaches the same choice from the same entries.
StatusOr<std::unique_ptr<Transport>> ChooseTransport(const JoinSpec& spec, StoreClient& store, const std::string& prefix,
                                                     const std::vector<std::string>& processes,
                                                     const std::vector<std::string>& machines, uint64_t deadline) {
  const auto in_my_process = [&](uint32_t r) { return processes[r] == ProcessIdentity(); };
  std::vector<std::string> order;               // the machines, by their lowest rank
  std::map<std::string, std::vector<uint32_t>> members;  // each machine's ranks, ascending
  for (uint32_t r = 0; r < spec.size; ++r) {
    if (members.count(machines[r]) == 0) order.push_back(machines[r]);
    members[machines[r]].push_back(r);
  }
  bool all_here = true;
  for (uint32_t r = 0; r < spec.size; ++r) all_here = all_here && in_my_process(r);
  if (all_here) return std::unique_ptr<Transport>(std::make_unique<LocalTransport>(JoinLocalGroup(spec.job, spec.size), spec.rank));
  if (!SharedMemoryAllowed()) return GlooOver(spec.rank, spec.size, store, prefix + "gloo/", deadline);
  if (order.size() == 1) {
    auto ipc = IpcTransport::Create(spec.rank, spec.size, spec.device, &store, prefix + "ipc/", deadline);
    if (!ipc.ok()) return ipc.status();
    return std::unique_ptr<Transport>(std::move(ipc.value()));
  }
  const uint32_t per_machine = static_cast<uint32_t>(members[order[0]].size());
  bool uniform = per_machine >= 2;
  for (const std::string& m : order) uniform = uniform && members[m].size() == per_machine;
  auto flat = GlooOver(spec.rank, spec.size, store, prefix + "gloo/", deadline);
  if (!flat.ok() || !uniform) return flat;
  const std::string& mine = machines[spec.rank];
  const uint32_t machine = static_cast<uint32_t>(std::find(order.begin(), order.end(), mine) - order.begin());
  const std::vector<uint32_t>& locals = members[mine];
  const uint32_t local = static_cast<uint32_t>(std::find(locals.begin(), locals.end(), spec.rank) - locals.begin());
  bool machine_here = true;
  for (uint32_t r : locals) machine_here = machine_here && in_my_process(r);
  std::unique_ptr<Transport> within;
  if (machine_here) {
    within = std::make_unique<LocalTransport>(JoinLocalGroup(fmt::format("{}/m{}", spec.job, machine), per_machine), local);
  } else {
    auto ipc = IpcTransport::Create(local, per_machine, spec.device, &store, prefix + fmt::format("m{}/ipc/", machine), deadline);
    if (!ipc.ok()) return ipc.status();
    within = std::move(ipc.value());
  }
  auto across = GlooOver(machine, static_cast<uint32_t>(order.size()), store, prefix + fmt::format("x{}/", local), deadline);
  if (!across.ok()) return across.status();
  std::vector<uint32_t> machine_of(spec.size), local_of(spec.size);
  for (uint32_t m = 0; m < order.size(); ++m) {
    const std::vector<uint32_t>& ranks = members[order[m]];
    for (uint32_t l = 0; l < ranks.size(); ++l) machine_of[ranks[l]] = m, local_of[ranks[l]] = l;
  }
  return std::unique_ptr<Transport>(std::make_unique<HierarchicalTransport>(
      std::move(within), std::move(across.value()), std::move(flat.value()), std::move(machine_of), std::move(local_of),
      machine));
}

StatusOr<Communicator*> Join(const JoinSpec& spec) {
  const uint64_t deadline = NowNs() + spec.options.connect_timeout_ns;
  auto client = StoreClient::Connect(spec.ip, spec.port, deadline);
  if (!client.ok()) {
    return Err(client.status().code(), "rank {} could not reach the root's listener {}:{} (HCCL_CONNECT_TIMEOUT): {}", spec.rank,
               spec.ip, spec.port, client.status().message());
  }
  StoreClient& store = *client.value();
  const std::string prefix = spec.job + "/";
  auto claims = store.Add(prefix + fmt::format("claim/{}", spec.rank), 1);
  if (!claims.ok()) return claims.status();
  if (claims.value() != 1) {
    return Err(HCCL_E_PARA, "rank {} of job {} was claimed before: every rank of a communicator must pass a different "
               "rank, and each communicator needs its own root info (call HcclGetRootInfo again)", spec.rank, spec.job);
  }
  std::string machine = spec.server.empty() ? MachineIdentity() : fmt::format("{}/{}", MachineIdentity(), spec.server);
  std::replace_if(machine.begin(), machine.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }, '_');
  const std::string me = fmt::format("{} {} {} {}", spec.size, ProcessIdentity(), spec.device, machine);
  if (Status s = store.Set(prefix + fmt::format("rank/{}", spec.rank), std::vector<char>(me.begin(), me.end())); !s.ok()) return s;
  std::vector<std::string> keys;
  for (uint32_t r = 0; r < spec.size; ++r) keys.push_back(prefix + fmt::format("rank/{}", r));
  if (Status s = store.Wait(keys, deadline); !s.ok()) {
    return Err(HCCL_E_TIMEOUT, "rank {}: not every one of the {} ranks joined before the timeout (HCCL_CONNECT_TIMEOUT): {}",
               spec.rank, spec.size, s.message());
  }
  std::vector<std::string> processes(spec.size), machines(spec.size);
  for (uint32_t r = 0; r < spec.size; ++r) {
    auto entry = store.Get(keys[r], deadline);
    if (!entry.ok()) return entry.status();
    std::istringstream in(std::string(entry.value().begin(), entry.value().end()));
    uint32_t their_size = 0;
    int32_t their_device = 0;
    in >> their_size >> processes[r] >> their_device >> machines[r];
    if (their_size != spec.size) {
      return Err(HCCL_E_PARA, "rank {} was created with nRanks {}, rank {} with nRanks {}: all ranks must pass the same",
                 spec.rank, spec.size, r, their_size);
    }
  }
  auto transport = ChooseTransport(spec, store, prefix, processes, machines, deadline);
  if (!transport.ok()) return transport.status();
  return Communicator::Create(spec.rank, spec.size, spec.device, spec.options, std::move(transport.value()), spec.name);
}

}  // namespace

StatusOr<int32_t> CurrentDevice() {
  core::Context* ctx = core::CurrentContext();
  if (ctx == nullptr) {
    return Err(HCCL_E_RUNTIME, "the calling thread has no current device: call aclrtSetDevice (or set a context) first");
  }
  return ctx->device()->id();
}

StatusOr<Communicator*> CreateFromRootInfo(uint32_t nranks, const HcclRootInfo* root_info, uint32_t rank,
                                           const HcclCommConfig* config) {
  if (nranks == 0) return Err(HCCL_E_PARA, "nRanks is 0");
  if (rank >= nranks) return Err(HCCL_E_PARA, "rank {} is not below nRanks {}", rank, nranks);
  auto options = ResolveOptions(config);
  if (!options.ok()) return options.status();
  auto device = CurrentDevice();
  if (!device.ok()) return device.status();
  auto data = DecodeRootInfo(root_info);
  if (!data.ok()) return data.status();
  JoinSpec spec;
  spec.ip = data.value().ip;
  spec.port = data.value().port;
  spec.job = fmt::format("{:016x}", data.value().job_id);
  spec.size = nranks;
  spec.rank = rank;
  spec.device = device.value();
  spec.options = options.value();
  spec.name = options.value().name.empty() ? data.value().identifier : options.value().name;
  return Join(spec);
}

StatusOr<Communicator*> CreateFromRankTable(const char* path, uint32_t rank, const HcclCommConfig* config) {
  auto table = ReadRankTable(path);
  if (!table.ok()) return table.status();
  const RankTable& t = table.value();
  if (rank >= t.ranks.size()) {
    return Err(HCCL_E_PARA, "rank {} is not in the rank table {}, which has ranks 0..{}", rank, path, t.ranks.size() - 1);
  }
  auto options = ResolveOptions(config);
  if (!options.ok()) return options.status();
  auto device = CurrentDevice();
  if (!device.ok()) return device.status();
  if (device.value() != t.ranks[rank].device) {
    return Err(HCCL_E_PARA, "the rank table gives rank {} device {}, but the calling thread's device is {} (call aclrtSetDevice({}) "
               "first)", rank, t.ranks[rank].device, device.value(), t.ranks[rank].device);
  }
  JoinSpec spec;
  spec.ip = t.ranks[0].host_ip.empty() ? "127.0.0.1" : t.ranks[0].host_ip;
  spec.port = t.ranks[0].host_port;
  if (spec.port == 0) {
    auto root = LocalAddress();  // validates the environment's address settings as a side effect
    if (!root.ok()) return root.status();
    spec.port = 60000;
  }
  if (rank == 0) {
    if (Status s = StartListenerAt(spec.ip, spec.port); !s.ok()) return s;
  }
  spec.job = fmt::format("table-{:016x}", t.digest);
  spec.server = t.ranks[rank].server_id;
  spec.size = static_cast<uint32_t>(t.ranks.size());
  spec.rank = rank;
  spec.device = device.value();
  spec.options = options.value();
  spec.name = options.value().name.empty() ? fmt::format("{}_{:016x}", spec.ip, t.digest) : options.value().name;
  return Join(spec);
}

StatusOr<Communicator*> CreateSubComm(Communicator* parent, uint32_t rank_count, const uint32_t* rank_ids,
                                      uint64_t sub_comm_id, uint32_t sub_rank, const HcclCommConfig* config) {
  if (rank_count == 0 || rank_count > parent->size()) {
    return Err(HCCL_E_PARA, "rankNum is {}; it must be 1..{} (the parent's size)", rank_count, parent->size());
  }
  if (sub_rank >= rank_count) return Err(HCCL_E_PARA, "subCommRankId {} is not below rankNum {}", sub_rank, rank_count);
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < rank_count; ++i) {
    if (rank_ids[i] >= parent->size()) {
      return Err(HCCL_E_PARA, "rankIds[{}] is {}, not a rank of the parent (0..{})", i, rank_ids[i], parent->size() - 1);
    }
    if (!seen.insert(rank_ids[i]).second) return Err(HCCL_E_PARA, "rank {} is listed twice in rankIds", rank_ids[i]);
  }
  if (rank_ids[sub_rank] != parent->rank()) {
    return Err(HCCL_E_PARA, "rankIds[subCommRankId {}] is {}, but the calling communicator is rank {} of its parent",
               sub_rank, rank_ids[sub_rank], parent->rank());
  }
  const void* identity = parent->engine().transport().group_identity();
  if (identity == nullptr) {
    return Err(HCCL_E_NOT_SUPPORT, "communicator '{}' spans processes ({} transport): split it by creating the subgroup "
               "with its own root info", parent->name(), parent->engine().transport().name());
  }
  auto options = ResolveOptions(config);
  if (!options.ok()) return options.status();
  // The members meet in a group named by the parent's group and the split's id (and members, so that two
  // splits with one id but different members cannot meet).
  std::string job = fmt::format("sub-{}-{}", identity, sub_comm_id);
  for (uint32_t i = 0; i < rank_count; ++i) job += fmt::format(",{}", rank_ids[i]);
  const std::string name =
      options.value().name.empty() ? fmt::format("{}_sub{}", parent->name(), sub_comm_id) : options.value().name;
  return Communicator::Create(sub_rank, rank_count, parent->device(), options.value(),
                              std::make_unique<LocalTransport>(JoinLocalGroup(job, rank_count), sub_rank), name);
}

Status CreateAll(uint32_t ndev, const int32_t* devices, HcclComm* comms) {
  if (ndev == 0) return Err(HCCL_E_PARA, "ndev is 0");
  auto count = core::Runtime::Get().DeviceCount();
  if (!count.ok()) return Err(HCCL_E_RUNTIME, "{}", count.status().message());
  std::set<int32_t> seen;
  for (uint32_t i = 0; i < ndev; ++i) {
    if (devices[i] < 0 || static_cast<uint32_t>(devices[i]) >= count.value()) {
      return Err(HCCL_E_PARA, "devices[{}] is {}, not a device of this process (0..{})", i, devices[i], count.value() - 1);
    }
    if (!seen.insert(devices[i]).second) return Err(HCCL_E_PARA, "device {} is listed twice", devices[i]);
  }
  CommOptions options = OptionsFromEnvironment();
  static std::atomic<uint64_t> next_job{0};
  const std::string name = fmt::format("npurt_comm_all_{}_{}", getpid(), ++next_job);
  auto group = std::make_shared<LocalGroup>(ndev);
  for (uint32_t i = 0; i < ndev; ++i) comms[i] = nullptr;
  for (uint32_t i = 0; i < ndev; ++i) {
    auto comm = Communicator::Create(i, ndev, devices[i], options, std::make_unique<LocalTransport>(group, i), name);
    if (!comm.ok()) {
      for (uint32_t k = 0; k < i; ++k) {
        (void)static_cast<Communicator*>(comms[k])->Destroy();
        comms[k] = nullptr;
      }
      return Err(HCCL_E_INTERNAL, "creating rank {} failed: {}", i, comm.status().message());
    }
    comms[i] = comm.value();
  }
  return Status();
}

}  // namespace npurt::hccl
