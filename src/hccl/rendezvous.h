// Communicator creation: how the ranks find each other and which transport joins them.
//   - Root info (HcclCommInitRootInfo[Config]): every rank connects to the root's listener (root_info.h),
//     claims its rank and publishes where it runs (process, device, machine), then reads everyone's entry.
//     When all ranks live in this process they share a LocalGroup (local_transport.h); when they all live
//     on this machine, a shared control block and each other's device memory (ipc_transport.h); on several
//     machines with the same number of ranks (two or more) on each, the hierarchical transport
//     (hierarchical_transport.h); otherwise one Gloo context through the same store (gloo_transport.h).
//     NPURT_HCCL_TRANSPORT=gloo makes every multi-process communicator use Gloo alone.
//   - Rank table (HcclCommInitClusterInfo[Config]): the JSON file names the ranks; rank 0's process starts
//     the listener at the first server's host_ip (loopback when none) and rank 0's host_port (else
//     HCCL_IF_BASE_PORT), and the ranks meet there as above. Ranks of different server_ids are on
//     different machines even when they share a kernel (test clusters on loopback).
//   - HcclCommInitAll: one process, one rank per listed device, a LocalGroup without any listener.
// Every wait is bounded by the connect timeout (HCCL_CONNECT_TIMEOUT + 20 s, or the config's).
#pragma once

#include <cstdint>

#include "base/status.h"
#include "hccl/communicator.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {

// The calling thread's device (the communicator binds to it); HCCL_E_RUNTIME when none was set.
StatusOr<int32_t> CurrentDevice();

StatusOr<Communicator*> CreateFromRootInfo(uint32_t nranks, const HcclRootInfo* root_info, uint32_t rank,
                                           const HcclCommConfig* config);
StatusOr<Communicator*> CreateFromRankTable(const char* path, uint32_t rank, const HcclCommConfig* config);
// HcclCreateSubCommConfig: every member calls it with the same rankIds and subCommId; the caller's rank in
// the sub-communicator is subCommRankId (rankIds[subCommRankId] must be its rank in `parent`). Communicators
// whose ranks all live in this process split without a rendezvous; others are refused (HCCL_E_NOT_SUPPORT).
StatusOr<Communicator*> CreateSubComm(Communicator* parent, uint32_t rank_count, const uint32_t* rank_ids,
                                      uint64_t sub_comm_id, uint32_t sub_rank, const HcclCommConfig* config);

// comms[i] is the rank on devices[i]; on failure none is left created.
Status CreateAll(uint32_t ndev, const int32_t* devices, HcclComm* comms);

}  // namespace npurt::hccl
