// The scenarios of the rank processes (hccl_child.cc) that live in files of their own.
#pragma once

#include <hccl/hccl.h>

#include <cstdint>
#include <cstdio>

// Fails the scenario (exit status 10) with the check and the runtime's last message.
#define CHILD_CHECK(cond)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "rank %u: %s failed (line %d): %s\n", rank, #cond, __LINE__, aclGetRecentErrMsg()); \
      return 10;                                                                             \
    }                                                                                        \
  } while (0)

namespace npurt_hccl_test {

// True when this process maps a communicator's shared control block (the transport between processes of
// one machine), which Gloo never creates.
bool MapsSharedControlBlock();

// Every operation, data type and reduction on random data against a host reference, in place where HCCL
// allows it, with buffers freed and allocated again between operations and one of many device pages;
// a disagreement, after which the communicator still works. The ranks are this process's device 0.
int EveryOperation(uint32_t rank, uint32_t n, const HcclRootInfo& root);

// Two communicators over the same processes, each on its own thread and stream, mixing collectives and
// point to point on buffers whose sizes change every round.
int Stress(uint32_t rank, uint32_t n, const HcclRootInfo roots[2]);

// Two "machines" of two ranks each from the rank table `table` (servers node_0 and node_1, ranks 0-1 and
// 2-3, devices 0 and 1 on each): the hierarchical AllReduce and Broadcast against a host reference, the
// other operations,
// and machines that disagree. `per_process` ranks per process (1: four processes; 2: a process per machine).
int TwoByTwo(uint32_t process, uint32_t per_process, const char* table);

// `per_process` ranks in each process (threads on devices 0..per_process-1), `n` ranks in all: collectives
// among ranks of which some share a process and some do not.
int RanksSharingProcesses(uint32_t process, uint32_t processes, uint32_t per_process, const HcclRootInfo& root);

}  // namespace npurt_hccl_test
