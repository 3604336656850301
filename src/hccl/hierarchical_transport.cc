#include "hccl/hierarchical_transport.h"

namespace npurt::hccl {

HierarchicalTransport::HierarchicalTransport(std::unique_ptr<Transport> machine, std::unique_ptr<Transport> across,
                                             std::unique_ptr<Transport> flat, std::vector<uint32_t> machine_of,
                                             std::vector<uint32_t> local_of, uint32_t my_machine)
    : machine_(std::move(machine)), across_(std::move(across)), flat_(std::move(flat)),
      machine_of_(std::move(machine_of)), local_of_(std::move(local_of)), my_machine_(my_machine) {}

Status HierarchicalTransport::Run(const OpArgs& op, uint64_t deadline_ns) {
  if (op.kind != OpKind::kAllReduce && op.kind != OpKind::kBroadcast) return flat_->Run(op, deadline_ns);
  // The root was checked against the communicator's size when the call was made.
  const bool broadcast = op.kind == OpKind::kBroadcast;
  OpArgs within = op;
  if (broadcast) within.root = machine_of_[op.root] == my_machine_ ? local_of_[op.root] : kNoLocalRoot;
  // Stage 2 on this rank's chunk: reduced (AllReduce) or copied from the root (Broadcast, on the root's
  // machine) by the machine's ranks in stage 1.
  const ChunkStage across = [&](void* chunk, uint64_t count) {
    OpArgs part;
    part.kind = op.kind;
    part.seq = op.seq;
    part.send = chunk;
    part.recv = chunk;
    part.count = count;
    part.dtype = op.dtype;
    part.op = op.op;
    part.root = broadcast ? machine_of_[op.root] : 0;
    return across_->Run(part, deadline_ns);
  };
  return machine_->RunStaged(within, deadline_ns, across);
}

void HierarchicalTransport::Abort(const std::string& reason) {
  machine_->Abort(reason);
  across_->Abort(reason);
  flat_->Abort(reason);
}

}  // namespace npurt::hccl
