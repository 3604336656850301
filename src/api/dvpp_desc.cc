// Entry points: DVPP memory, channels, picture descriptions and the operations' configurations
// (docs/dvpp.md). Getters answer 0 (or null, or PIXEL_FORMAT_YUV_400) on a bad handle and record why.
#include <atomic>

#include "api/api_common.h"
#include "api/dvpp_common.h"
#include "core/context.h"

using npurt::Err;
using npurt::Status;
using npurt::api::Report;
using npurt::api::dvpp::BatchPicDesc;
using npurt::api::dvpp::ChannelDesc;
using npurt::api::dvpp::JpegeConfig;
using npurt::api::dvpp::PicDesc;
using npurt::api::dvpp::ResizeConfig;
using npurt::api::dvpp::RoiConfig;

namespace npurt::api::dvpp {

BatchPicDesc::~BatchPicDesc() {
  for (PicDesc* p : pics) {
    if (p->Invalidate()) p->Release();
  }
}

StatusOr<PicDesc*> ResolvePic(const acldvppPicDesc* desc, const char* what) {
  if (desc == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  PicDesc* p = PicDesc::From(desc);
  if (p == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is not a live picture description", what);
  return p;
}

StatusOr<ChannelDesc*> ResolveChannel(const acldvppChannelDesc* desc, uint32_t needs_mode, const char* op) {
  if (desc == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "channelDesc is a null pointer");
  ChannelDesc* c = ChannelDesc::From(desc);
  if (c == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "channelDesc is not a live DVPP channel description");
  if (!c->created.load(std::memory_order_acquire)) {
    return Err(ACL_ERROR_INVALID_PARAM, "the DVPP channel was not created (acldvppCreateChannel) or was destroyed");
  }
  if (c->mode != 0 && (c->mode & needs_mode) == 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} needs a channel with mode {} (acldvppSetChannelDescMode); this one has {}",
               op, needs_mode, c->mode);
  }
  return c;
}

}  // namespace npurt::api::dvpp

namespace {

using npurt::api::dvpp::ResolvePic;

template <typename T>
aclError Destroy(const char* fn, void* handle, const char* what) {
  if (handle == nullptr) return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what));
  T* obj = T::From(handle);
  if (obj == nullptr || !obj->Invalidate()) {
    return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live DVPP object (destroyed twice?)", what));
  }
  obj->Release();
  return ACL_SUCCESS;
}

template <typename T>
T* Create(const char* fn) {
  T* obj = npurt::NewHandle<T>();
  if (obj == nullptr) Report(fn, Err(ACL_ERROR_BAD_ALLOC, "no room for another DVPP object"));
  return obj;
}

// Sets one field of a picture description.
template <typename F>
aclError SetPic(const char* fn, acldvppPicDesc* desc, F&& set) {
  auto p = ResolvePic(desc, "picDesc");
  if (!p.ok()) return Report(fn, p.status());
  set(p.value()->pic);
  return ACL_SUCCESS;
}

// Reads one field of a picture description (0 on a bad handle).
template <typename R, typename F>
R GetPic(const char* fn, const acldvppPicDesc* desc, F&& get) {
  auto p = ResolvePic(desc, "picDesc");
  if (!p.ok()) {
    Report(fn, p.status());
    return R{};
  }
  return get(*p.value());
}

std::atomic<uint64_t> g_next_channel_id{0};

}  // namespace

aclError acldvppMalloc(void** devPtr, size_t size) {
  NPURT_HANDLE_SCOPE();
  if (size == 0) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  if (size > (size_t{1} << 40)) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size {} is too large", size));
  // CANN's DVPP allocations: the size rounded up to 32 bytes, plus 32 (the engines read ahead).
  const size_t padded = (size + 31) / 32 * 32 + 32;
  return npurt::api::Allocate(__func__, devPtr, padded, ACL_MEM_MALLOC_HUGE_FIRST, /*pad=*/false);
}

aclError acldvppFree(void* devPtr) {
  NPURT_HANDLE_SCOPE();
  return npurt::api::FreeDevice(__func__, devPtr, false);
}

acldvppChannelDesc* acldvppCreateChannelDesc(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<acldvppChannelDesc*>(Create<ChannelDesc>(__func__));
}

aclError acldvppDestroyChannelDesc(acldvppChannelDesc* channelDesc) {
  NPURT_HANDLE_SCOPE();
  return Destroy<ChannelDesc>(__func__, channelDesc, "channelDesc");
}

uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc* channelDesc) {
  NPURT_HANDLE_SCOPE();
  ChannelDesc* c = ChannelDesc::From(channelDesc);
  if (c == nullptr) {
    Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "channelDesc is not a live DVPP channel description"));
    return 0;
  }
  return c->channel_id;
}

aclError acldvppSetChannelDescMode(acldvppChannelDesc* channelDesc, uint32_t mode) {
  NPURT_HANDLE_SCOPE();
  ChannelDesc* c = ChannelDesc::From(channelDesc);
  if (c == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "channelDesc is not a live channel description"));
  if ((mode & ~uint32_t{DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE}) != 0) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "mode {} is not a combination of DVPP_CHNMODE_VPC (1), "
                                "_JPEGD (2) and _JPEGE (4)", mode));
  }
  if (c->created.load()) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the channel was created already: set its mode before"));
  }
  c->mode = mode;
  return ACL_SUCCESS;
}

aclError acldvppCreateChannel(acldvppChannelDesc* channelDesc) {
  NPURT_HANDLE_SCOPE();
  ChannelDesc* c = ChannelDesc::From(channelDesc);
  if (c == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "channelDesc is not a live channel description"));
  auto ctx = npurt::core::RequireContext();
  if (!ctx.ok()) return Report(__func__, ctx.status());
  bool expected = false;
  if (!c->created.compare_exchange_strong(expected, true)) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the channel was created already"));
  }
  c->channel_id = g_next_channel_id.fetch_add(1);
  return ACL_SUCCESS;
}

aclError acldvppDestroyChannel(acldvppChannelDesc* channelDesc) {
  NPURT_HANDLE_SCOPE();
  ChannelDesc* c = ChannelDesc::From(channelDesc);
  if (c == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "channelDesc is not a live channel description"));
  bool expected = true;
  if (!c->created.compare_exchange_strong(expected, false)) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the channel was not created, or was destroyed already"));
  }
  return ACL_SUCCESS;
}

acldvppPicDesc* acldvppCreatePicDesc(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<acldvppPicDesc*>(Create<PicDesc>(__func__));
}

aclError acldvppDestroyPicDesc(acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  if (PicDesc* p = PicDesc::From(picDesc); p != nullptr && p->in_batch) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "picDesc belongs to a batch picture description: "
                                "acldvppDestroyBatchPicDesc destroys it"));
  }
  return Destroy<PicDesc>(__func__, picDesc, "picDesc");
}

aclError acldvppSetPicDescData(acldvppPicDesc* picDesc, void* dataDev) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.data = reinterpret_cast<uint64_t>(dataDev); });
}
aclError acldvppSetPicDescSize(acldvppPicDesc* picDesc, uint32_t size) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.size = size; });
}
aclError acldvppSetPicDescFormat(acldvppPicDesc* picDesc, acldvppPixelFormat format) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.format = static_cast<uint32_t>(format); });
}
aclError acldvppSetPicDescWidth(acldvppPicDesc* picDesc, uint32_t width) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.width = width; });
}
aclError acldvppSetPicDescHeight(acldvppPicDesc* picDesc, uint32_t height) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.height = height; });
}
aclError acldvppSetPicDescWidthStride(acldvppPicDesc* picDesc, uint32_t widthStride) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.width_stride = widthStride; });
}
aclError acldvppSetPicDescHeightStride(acldvppPicDesc* picDesc, uint32_t heightStride) {
  NPURT_HANDLE_SCOPE();
  return SetPic(__func__, picDesc, [&](auto& p) { p.height_stride = heightStride; });
}
aclError acldvppSetPicDescRetCode(acldvppPicDesc* picDesc, uint32_t retCode) {
  NPURT_HANDLE_SCOPE();
  auto p = ResolvePic(picDesc, "picDesc");
  if (!p.ok()) return Report(__func__, p.status());
  p.value()->ret_code.store(retCode);
  return ACL_SUCCESS;
}

void* acldvppGetPicDescData(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<void*>(__func__, picDesc, [](const PicDesc& d) { return reinterpret_cast<void*>(d.pic.data); });
}
uint32_t acldvppGetPicDescSize(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<uint32_t>(__func__, picDesc, [](const PicDesc& d) { return d.pic.size; });
}
acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<acldvppPixelFormat>(__func__, picDesc,
                                    [](const PicDesc& d) { return static_cast<acldvppPixelFormat>(d.pic.format); });
}
uint32_t acldvppGetPicDescWidth(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<uint32_t>(__func__, picDesc, [](const PicDesc& d) { return d.pic.width; });
}
uint32_t acldvppGetPicDescHeight(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<uint32_t>(__func__, picDesc, [](const PicDesc& d) { return d.pic.height; });
}
uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<uint32_t>(__func__, picDesc, [](const PicDesc& d) { return d.pic.width_stride; });
}
uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<uint32_t>(__func__, picDesc, [](const PicDesc& d) { return d.pic.height_stride; });
}
uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc* picDesc) {
  NPURT_HANDLE_SCOPE();
  return GetPic<uint32_t>(__func__, picDesc, [](const PicDesc& d) { return d.ret_code.load(); });
}

acldvppBatchPicDesc* acldvppCreateBatchPicDesc(uint32_t batchSize) {
  NPURT_HANDLE_SCOPE();
  if (batchSize == 0 || batchSize > 256) {
    Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "batchSize {} is not in 1..256", batchSize));
    return nullptr;
  }
  BatchPicDesc* b = Create<BatchPicDesc>(__func__);
  if (b == nullptr) return nullptr;
  for (uint32_t i = 0; i < batchSize; ++i) {
    PicDesc* p = Create<PicDesc>(__func__);
    if (p == nullptr) {
      b->Invalidate();
      b->Release();
      return nullptr;
    }
    p->in_batch = true;
    b->pics.push_back(p);
  }
  return reinterpret_cast<acldvppBatchPicDesc*>(b);
}

acldvppPicDesc* acldvppGetPicDesc(acldvppBatchPicDesc* batchPicDesc, uint32_t index) {
  NPURT_HANDLE_SCOPE();
  BatchPicDesc* b = BatchPicDesc::From(batchPicDesc);
  if (b == nullptr) {
    Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "batchPicDesc is not a live batch picture description"));
    return nullptr;
  }
  if (index >= b->pics.size()) {
    Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index {} is out of range: the batch holds {} pictures", index,
                         b->pics.size()));
    return nullptr;
  }
  return reinterpret_cast<acldvppPicDesc*>(b->pics[index]);
}

aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc* batchPicDesc) {
  NPURT_HANDLE_SCOPE();
  return Destroy<BatchPicDesc>(__func__, batchPicDesc, "batchPicDesc");
}

acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top, uint32_t bottom) {
  NPURT_HANDLE_SCOPE();
  RoiConfig* r = Create<RoiConfig>(__func__);
  if (r != nullptr) r->region = {left, right, top, bottom};
  return reinterpret_cast<acldvppRoiConfig*>(r);
}

aclError acldvppDestroyRoiConfig(acldvppRoiConfig* roiConfig) {
  NPURT_HANDLE_SCOPE();
  return Destroy<RoiConfig>(__func__, roiConfig, "roiConfig");
}

namespace {

template <typename F>
aclError SetRoi(const char* fn, acldvppRoiConfig* config, F&& set) {
  RoiConfig* r = RoiConfig::From(config);
  if (r == nullptr) return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "config is not a live ROI configuration"));
  set(r->region);
  return ACL_SUCCESS;
}

}  // namespace

aclError acldvppSetRoiConfigLeft(acldvppRoiConfig* config, uint32_t left) {
  NPURT_HANDLE_SCOPE();
  return SetRoi(__func__, config, [&](auto& r) { r.left = left; });
}
aclError acldvppSetRoiConfigRight(acldvppRoiConfig* config, uint32_t right) {
  NPURT_HANDLE_SCOPE();
  return SetRoi(__func__, config, [&](auto& r) { r.right = right; });
}
aclError acldvppSetRoiConfigTop(acldvppRoiConfig* config, uint32_t top) {
  NPURT_HANDLE_SCOPE();
  return SetRoi(__func__, config, [&](auto& r) { r.top = top; });
}
aclError acldvppSetRoiConfigBottom(acldvppRoiConfig* config, uint32_t bottom) {
  NPURT_HANDLE_SCOPE();
  return SetRoi(__func__, config, [&](auto& r) { r.bottom = bottom; });
}
aclError acldvppSetRoiConfig(acldvppRoiConfig* config, uint32_t left, uint32_t right, uint32_t top, uint32_t bottom) {
  NPURT_HANDLE_SCOPE();
  return SetRoi(__func__, config, [&](auto& r) { r = {left, right, top, bottom}; });
}

acldvppResizeConfig* acldvppCreateResizeConfig(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<acldvppResizeConfig*>(Create<ResizeConfig>(__func__));
}

aclError acldvppDestroyResizeConfig(acldvppResizeConfig* resizeConfig) {
  NPURT_HANDLE_SCOPE();
  return Destroy<ResizeConfig>(__func__, resizeConfig, "resizeConfig");
}

aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig* resizeConfig, uint32_t interpolation) {
  NPURT_HANDLE_SCOPE();
  ResizeConfig* r = ResizeConfig::From(resizeConfig);
  if (r == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "resizeConfig is not a live resize configuration"));
  if (interpolation > 2) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "interpolation {} is not supported: 0 (default) and 1 are "
                                "bilinear, 2 nearest neighbour", interpolation));
  }
  r->interpolation = interpolation;
  return ACL_SUCCESS;
}

uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig* resizeConfig) {
  NPURT_HANDLE_SCOPE();
  ResizeConfig* r = ResizeConfig::From(resizeConfig);
  if (r == nullptr) {
    Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "resizeConfig is not a live resize configuration"));
    return 0;
  }
  return r->interpolation;
}

acldvppJpegeConfig* acldvppCreateJpegeConfig(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<acldvppJpegeConfig*>(Create<JpegeConfig>(__func__));
}

aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig* jpegeConfig) {
  NPURT_HANDLE_SCOPE();
  return Destroy<JpegeConfig>(__func__, jpegeConfig, "jpegeConfig");
}

aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig* jpegeConfig, uint32_t level) {
  NPURT_HANDLE_SCOPE();
  JpegeConfig* j = JpegeConfig::From(jpegeConfig);
  if (j == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "jpegeConfig is not a live JPEGE configuration"));
  if (level > 100) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "level {} is not in 0..100", level));
  j->level = level;
  return ACL_SUCCESS;
}

uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig* jpegeConfig) {
  NPURT_HANDLE_SCOPE();
  JpegeConfig* j = JpegeConfig::From(jpegeConfig);
  if (j == nullptr) {
    Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "jpegeConfig is not a live JPEGE configuration"));
    return 0;
  }
  return j->level;
}
