// HcclGroupStart / HcclGroupEnd: between them, a thread's HcclSend and HcclRecv calls are collected and
// issued at HcclGroupEnd as one HcclBatchSendRecv per (communicator, stream), so that a ring of paired
// sends and receives cannot deadlock (every rank sending first would otherwise wait forever for a
// receive queued behind its own send). Collectives inside a group are issued at once: they never wait
// for a later call of the same thread. Groups nest; the outermost end issues.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "hccl/communicator.h"

namespace npurt::core {
class Stream;
}

namespace npurt::hccl {

Status GroupStart();
Status GroupEnd();
bool InGroup();
// Collects a send or receive (its arguments were checked) for the thread's open group.
void GroupAdd(Communicator* comm, core::Stream* stream, bool send, void* buf, uint64_t count, int32_t dtype, uint32_t peer);

}  // namespace npurt::hccl
