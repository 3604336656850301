#include "hccl/group.h"

#include <map>
#include <vector>

#include "hccl/collectives.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {
namespace {

struct Collected {
  Ref<Communicator> comm;
  core::Stream* stream;  // kept alive by the program until the group ends (HCCL's contract)
  std::vector<HcclSendRecvItem> items;
};

struct GroupState {
  uint32_t depth = 0;
  std::vector<Collected> batches;  // in the order their first item came
};
thread_local GroupState t_group;

}  // namespace

Status GroupStart() {
  if (t_group.depth >= 64) return Err(HCCL_E_PARA, "HcclGroupStart nested more than 64 deep");
  ++t_group.depth;
  return Status();
}

bool InGroup() { return t_group.depth > 0; }

void GroupAdd(Communicator* comm, core::Stream* stream, bool send, void* buf, uint64_t count, int32_t dtype, uint32_t peer) {
  HcclSendRecvItem item{send ? HCCL_SEND : HCCL_RECV, buf, count, static_cast<HcclDataType>(dtype), peer};
  for (Collected& c : t_group.batches) {
    if (c.comm.get() == comm && c.stream == stream) {
      c.items.push_back(item);
      return;
    }
  }
  t_group.batches.push_back(Collected{Ref<Communicator>(comm), stream, {item}});
}

Status GroupEnd() {
  if (t_group.depth == 0) return Err(HCCL_E_PARA, "HcclGroupEnd without a matching HcclGroupStart");
  if (--t_group.depth > 0) return Status();
  std::vector<Collected> batches = std::move(t_group.batches);
  t_group.batches.clear();
  Status first;
  for (Collected& c : batches) {
    if (!c.comm->alive()) {
      if (first.ok()) first = Err(HCCL_E_PARA, "a communicator of the group was destroyed before HcclGroupEnd");
      continue;
    }
    Status s = BatchSendRecv(c.comm.get(), c.stream, c.items.data(), static_cast<uint32_t>(c.items.size()));
    if (!s.ok() && first.ok()) first = s;
  }
  return first;
}

}  // namespace npurt::hccl
