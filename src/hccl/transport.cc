#include "hccl/transport.h"

#include "hccl/result.h"

namespace npurt::hccl {

Status Transport::RunStaged(const OpArgs& /*op*/, uint64_t /*deadline_ns*/, const ChunkStage& /*stage*/) {
  return Err(HCCL_E_NOT_SUPPORT, "the {} transport cannot run an operation in stages", name());
}

}  // namespace npurt::hccl
