// Entry points: compute groups (aclrtSetGroup ... aclrtGetGroupInfoDetail). The simulated device has one
// compute group, id 0, spanning all of its AI cores; selecting it is accepted, any other id refused.
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_set>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"

using npurt::Err;
using npurt::api::CurrentDevice;

// The storage behind aclrtGroupInfo (opaque to users): the attributes of each group, filled by
// aclrtGetAllGroupInfo.
struct tagRtGroupInfo {
  bool filled = false;
  int32_t values[ACL_GROUP_GROUPID_INT + 1] = {};  // indexed by aclrtGroupAttr
};

namespace {

constexpr uint32_t kGroupCount = 1;

// Live group-info objects: a pointer is used only if this set holds it (plain heap objects, so a stale
// or foreign pointer is refused without being read).
struct GroupInfos {
  std::mutex mu;
  std::unordered_set<const aclrtGroupInfo*> live;
};

GroupInfos& Infos() {
  static GroupInfos* infos = new GroupInfos();
  return *infos;
}

npurt::Status CheckLive(const aclrtGroupInfo* info) {
  if (info == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "groupInfo is a null pointer");
  GroupInfos& g = Infos();
  std::lock_guard<std::mutex> lock(g.mu);
  if (g.live.count(info) == 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "groupInfo {} was not made by aclrtCreateGroupInfo or was destroyed",
               static_cast<const void*>(info));
  }
  return npurt::Status::Ok();
}

}  // namespace

aclError aclrtSetGroup(int32_t groupId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, CurrentDevice());
  (void)dev;
  if (groupId < 0 || static_cast<uint32_t>(groupId) >= kGroupCount) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "group {} does not exist (the simulated "
                                            "device has one group, id 0)", groupId));
  }
  return ACL_SUCCESS;
}

aclError aclrtGetGroupCount(uint32_t* count) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(count);
  NPURT_API_ASSIGN(dev, CurrentDevice());
  (void)dev;
  *count = kGroupCount;
  return ACL_SUCCESS;
}

aclrtGroupInfo* aclrtCreateGroupInfo(void) {
  NPURT_HANDLE_SCOPE();
  auto* info = new (std::nothrow) tagRtGroupInfo[kGroupCount];
  if (info == nullptr) {
    (void)npurt::api::Report(__func__, Err(ACL_ERROR_BAD_ALLOC, "cannot allocate group information"));
    return nullptr;
  }
  GroupInfos& g = Infos();
  std::lock_guard<std::mutex> lock(g.mu);
  g.live.insert(info);
  return info;
}

aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckLive(groupInfo));
  {
    GroupInfos& g = Infos();
    std::lock_guard<std::mutex> lock(g.mu);
    g.live.erase(groupInfo);
  }
  delete[] groupInfo;
  return ACL_SUCCESS;
}

aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckLive(groupInfo));
  NPURT_API_ASSIGN(dev, CurrentDevice());
  const auto cores = static_cast<int32_t>(dev->info().aicore_count);
  tagRtGroupInfo& g = groupInfo[0];
  g.values[ACL_GROUP_AICORE_INT] = cores;
  g.values[ACL_GROUP_AIV_INT] = cores;  // every simulated core runs cube and vector kernels
  g.values[ACL_GROUP_AIC_INT] = cores;
  g.values[ACL_GROUP_SDMANUM_INT] = 1;  // one copy engine per device
  g.values[ACL_GROUP_ASQNUM_INT] = 1;
  g.values[ACL_GROUP_GROUPID_INT] = 0;
  g.filled = true;
  return ACL_SUCCESS;
}

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                 void* attrValue, size_t valueLen, size_t* paramRetSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attrValue);
  NPURT_API_NOT_NULL(paramRetSize);
  NPURT_API_CHECK(CheckLive(groupInfo));
  if (groupIndex < 0 || static_cast<uint32_t>(groupIndex) >= kGroupCount) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "groupIndex {} is not below the group count {}",
                                            groupIndex, kGroupCount));
  }
  if (attr < ACL_GROUP_AICORE_INT || attr > ACL_GROUP_GROUPID_INT) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attr {} is not an aclrtGroupAttr",
                                            static_cast<int>(attr)));
  }
  if (valueLen < sizeof(int32_t)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "valueLen {} is less than {}", valueLen,
                                            sizeof(int32_t)));
  }
  const tagRtGroupInfo& g = groupInfo[groupIndex];
  if (!g.filled) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "groupInfo is empty: call aclrtGetAllGroupInfo "
                                            "first"));
  }
  std::memcpy(attrValue, &g.values[attr], sizeof(int32_t));
  *paramRetSize = sizeof(int32_t);
  return ACL_SUCCESS;
}
