// The transport of communicators whose ranks sit on several machines with several ranks on each (as
// multi-server HCCL jobs are laid out): AllReduce and Broadcast in three stages, the others over one Gloo
// context.
//
//   AllReduce   1. reduce-scatter among the ranks of each machine, through the machine's own transport (in
//                  process, or shared device memory between its processes): local rank l reduces chunk l;
//               2. the allreduce of chunk l among the ranks that hold chunk l on the other machines (one Gloo
//                  context per local index, one rank per machine), so only 1/L of the data per rank crosses
//                  the network, and every machine's link carries a share;
//               3. all-gather of the chunks within each machine.
//   Broadcast   1. on the root's machine, local rank l copies chunk l from the root;
//               2. chunk l goes from there to local rank l of every other machine (Gloo, same contexts);
//               3. all-gather within each machine.
//   the others  one Gloo context over all ranks (gloo_transport.h), as before.
//
// Built only when every machine has the same number of ranks (at least two, on at least two machines);
// other layouts use Gloo alone. Every rank of a communicator takes the same path for the same operation,
// and a stage that fails on one rank fails every rank of its machine (collective_steps.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hccl/transport.h"

namespace npurt::hccl {

class HierarchicalTransport final : public Transport {
 public:
  // `machine`: the transport among this machine's ranks; `across`: the Gloo context among the ranks with
  // this rank's local index on every machine (its rank there is the machine's index); `flat`: Gloo over all
  // ranks. `machine_of[r]` and `local_of[r]`: rank r's machine index and its index among that machine's
  // ranks; `my_machine`: this rank's machine.
  HierarchicalTransport(std::unique_ptr<Transport> machine, std::unique_ptr<Transport> across,
                        std::unique_ptr<Transport> flat, std::vector<uint32_t> machine_of,
                        std::vector<uint32_t> local_of, uint32_t my_machine);
  Status Run(const OpArgs& op, uint64_t deadline_ns) override;
  void Abort(const std::string& reason) override;
  const char* name() const override { return "hierarchical"; }

 private:
  std::unique_ptr<Transport> machine_;
  std::unique_ptr<Transport> across_;
  std::unique_ptr<Transport> flat_;
  const std::vector<uint32_t> machine_of_, local_of_;
  const uint32_t my_machine_;
};

}  // namespace npurt::hccl
