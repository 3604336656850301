#include "hccl/hierarchical_transport.h"

namespace npurt::hccl {

HierarchicalTransport::HierarchicalTransport(std::unique_ptr<Transport> machine, std::unique_ptr<Transport> across,
                                             std::unique_ptr<Transport> flat)
    : machine_(std::move(machine)), across_(std::move(across)), flat_(std::move(flat)) {}

Status HierarchicalTransport::Run(const OpArgs& op, uint64_t deadline_ns) {
  if (op.kind != OpKind::kAllReduce) return flat_->Run(op, deadline_ns);
  // Stage 2 on this rank's chunk, reduced in place by the machine's ranks in stage 1.
  const ChunkStage across = [&](void* chunk, uint64_t count) {
    OpArgs part;
    part.kind = OpKind::kAllReduce;
    part.seq = op.seq;
    part.send = chunk;
    part.recv = chunk;
    part.count = count;
    part.dtype = op.dtype;
    part.op = op.op;
    return across_->Run(part, deadline_ns);
  };
  return machine_->RunStagedAllReduce(op, deadline_ns, across);
}

void HierarchicalTransport::Abort(const std::string& reason) {
  machine_->Abort(reason);
  across_->Abort(reason);
  flat_->Abort(reason);
}

}  // namespace npurt::hccl
