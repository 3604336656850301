// The DVPP objects the C API hands out (acldvppPicDesc, ...), shared by src/api/dvpp_*.cc.
#pragma once

#include <atomic>
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "api/handle_tags.h"
#include "base/handle.h"
#include "base/status.h"
#include "dvpp/picture.h"

namespace npurt::api::dvpp {

struct PicDesc final : public HandleObject {
  PicDesc() : HandleObject(handle_tags::kDvppPic) {}
  static PicDesc* From(const void* p) { return LookupHandle<PicDesc>(p, handle_tags::kDvppPic); }
  npurt::dvpp::Picture pic;
  std::atomic<uint32_t> ret_code{0};  // set by the engine when an operation that writes this picture ran
  bool in_batch = false;              // a picture of a batch description: destroyed with it
};

struct BatchPicDesc final : public HandleObject {
  BatchPicDesc() : HandleObject(handle_tags::kDvppBatch) {}
  ~BatchPicDesc() override;
  static BatchPicDesc* From(const void* p) { return LookupHandle<BatchPicDesc>(p, handle_tags::kDvppBatch); }
  std::vector<PicDesc*> pics;
};

struct RoiConfig final : public HandleObject {
  RoiConfig() : HandleObject(handle_tags::kDvppRoi) {}
  static RoiConfig* From(const void* p) { return LookupHandle<RoiConfig>(p, handle_tags::kDvppRoi); }
  npurt::dvpp::Region region;
};

struct ResizeConfig final : public HandleObject {
  ResizeConfig() : HandleObject(handle_tags::kDvppResize) {}
  static ResizeConfig* From(const void* p) { return LookupHandle<ResizeConfig>(p, handle_tags::kDvppResize); }
  uint32_t interpolation = 0;
};

struct JpegeConfig final : public HandleObject {
  JpegeConfig() : HandleObject(handle_tags::kDvppJpege) {}
  static JpegeConfig* From(const void* p) { return LookupHandle<JpegeConfig>(p, handle_tags::kDvppJpege); }
  uint32_t level = 100;
};

struct ChannelDesc final : public HandleObject {
  ChannelDesc() : HandleObject(handle_tags::kDvppChannel) {}
  static ChannelDesc* From(const void* p) { return LookupHandle<ChannelDesc>(p, handle_tags::kDvppChannel); }
  uint32_t mode = 0;  // acldvppChannelMode bits; 0: every engine
  uint64_t channel_id = 0;
  std::atomic<bool> created{false};
};

// Resolves a handle argument, or the reason it is not one (`what` names the parameter).
StatusOr<PicDesc*> ResolvePic(const acldvppPicDesc* desc, const char* what);
StatusOr<ChannelDesc*> ResolveChannel(const acldvppChannelDesc* desc, uint32_t needs_mode, const char* op);

}  // namespace npurt::api::dvpp
