// Entry points: DVPP's header queries and its operations, queued on a stream (docs/dvpp.md). Every picture,
// region and buffer is checked before anything is queued; the descriptions are copied, so the program may
// change them once the call returned.
#include <algorithm>
#include <string>

#include "api/api_common.h"
#include "api/dvpp_common.h"
#include "core/memory/memory_ops.h"
#include "dvpp/codecs.h"
#include "dvpp/dvpp_tasks.h"

using npurt::Err;
using npurt::Status;
using npurt::StatusOr;
using npurt::api::Report;
using npurt::api::dvpp::BatchPicDesc;
using npurt::api::dvpp::PicDesc;
using npurt::api::dvpp::ResizeConfig;
using npurt::api::dvpp::RoiConfig;
namespace dv = npurt::dvpp;

namespace {

Status CheckHostFile(const void* data, uint32_t size) {
  if (data == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "data is a null pointer");
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "size is 0");
  return Status::Ok();
}

uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// A file's header, from its bytes in host memory.
StatusOr<dv::JpegInfo> JpegHeader(const void* data, uint32_t size) {
  NPURT_RETURN_IF_ERROR(CheckHostFile(data, size));
  return dv::ReadJpegInfo(static_cast<const uint8_t*>(data), size);
}
StatusOr<dv::PngInfo> PngHeader(const void* data, uint32_t size) {
  NPURT_RETURN_IF_ERROR(CheckHostFile(data, size));
  return dv::ReadPngInfo(static_cast<const uint8_t*>(data), size);
}

// The header's answers, into whichever of the outputs the program passed.
template <typename Info>
void WriteInfo(const Info& info, uint32_t* width, uint32_t* height, int32_t* components) {
  if (width != nullptr) *width = info.width;
  if (height != nullptr) *height = info.height;
  if (components != nullptr) *components = info.components;
}

// The bytes a decoded picture of `w` x `h` takes in `format` with the strides DVPP's decoders use on
// Ascend 310 (width aligned to 128 bytes, height to 16 rows).
StatusOr<uint32_t> DecodedSize(uint32_t w, uint32_t h, uint32_t format) {
  const dv::FormatInfo* f = dv::FindFormat(format);
  if (f == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "outputPixelFormat {} is not one DVPP decodes to", format);
  const uint64_t bytes = dv::PictureBytes(*f, AlignUp(w * static_cast<uint32_t>(f->bytes_per_pixel), 128),
                                          AlignUp(h, 16));
  if (bytes > UINT32_MAX) return Err(ACL_ERROR_INVALID_PARAM, "a {}x{} picture does not fit a uint32_t size", w, h);
  return static_cast<uint32_t>(bytes);
}

// Whether the picture description `desc` (named `what`) is complete and lies in device memory: its copy.
StatusOr<dv::Picture> CheckedPicture(const acldvppPicDesc* desc, const char* what) {
  auto p = npurt::api::dvpp::ResolvePic(desc, what);
  if (!p.ok()) return p.status();
  const dv::Picture pic = p.value()->pic;
  NPURT_RETURN_IF_ERROR(dv::CheckPicture(pic, what));
  return pic;
}

// The file's bytes: inside one live device allocation.
Status CheckDeviceFile(const void* data, uint32_t size) {
  NPURT_RETURN_IF_ERROR(CheckHostFile(data, size));
  auto span = npurt::core::ResolveSpan(data, size, "data");
  if (!span.ok()) return span.status();
  if (span.value().device == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "data {} is host memory: copy the file to DVPP memory (acldvppMalloc) first",
               data);
  }
  return Status::Ok();
}

dv::Interpolation InterpolationOf(const acldvppResizeConfig* config) {
  const ResizeConfig* r = ResizeConfig::From(config);
  return r != nullptr && r->interpolation == 2 ? dv::Interpolation::kNearest : dv::Interpolation::kBilinear;
}

StatusOr<dv::Region> RegionOf(const acldvppRoiConfig* config, const char* what) {
  if (config == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  const RoiConfig* r = RoiConfig::From(config);
  if (r == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is not a live ROI configuration", what);
  return r->region;
}

dv::Region Whole(const dv::Picture& p) { return dv::Region{0, p.width - 1, 0, p.height - 1}; }

// After an operation: the output descriptions' return codes (0, or 1 when it failed).
std::function<void(const Status&)> SetRetCodes(std::vector<PicDesc*> outs) {
  for (PicDesc* p : outs) p->Retain();
  return [outs](const Status& st) {
    for (PicDesc* p : outs) {
      p->ret_code.store(st.ok() ? 0 : 1);
      p->Release();
    }
  };
}

// One VPC picture: crop of input, resized into paste of output (whole pictures where the operation takes no
// region).
struct VpcArgs {
  const acldvppPicDesc* in;
  acldvppPicDesc* out;
  const acldvppRoiConfig* crop;
  const acldvppRoiConfig* paste;
};

// The regions an operation takes (a null one is then an error).
enum Regions : unsigned { kNoRegion = 0, kCrop = 1, kPaste = 2 };

StatusOr<dv::VpcItem> VpcItemOf(const VpcArgs& a, unsigned regions, std::vector<PicDesc*>* outs) {
  dv::VpcItem item;
  auto in = CheckedPicture(a.in, "inputDesc");
  if (!in.ok()) return in.status();
  auto out = CheckedPicture(a.out, "outputDesc");
  if (!out.ok()) return out.status();
  item.in = in.value();
  item.out = out.value();
  item.crop = Whole(item.in);
  item.paste = Whole(item.out);
  if ((regions & kCrop) != 0) {
    auto r = RegionOf(a.crop, "cropArea");
    if (!r.ok()) return r.status();
    item.crop = r.value();
  }
  if ((regions & kPaste) != 0) {
    auto r = RegionOf(a.paste, "pasteArea");
    if (!r.ok()) return r.status();
    item.paste = r.value();
  }
  NPURT_RETURN_IF_ERROR(dv::CheckRegion(item.crop, item.in, "cropArea"));
  NPURT_RETURN_IF_ERROR(dv::CheckRegion(item.paste, item.out, "pasteArea"));
  const uint64_t in_lo = item.in.data, in_hi = in_lo + item.in.size;
  const uint64_t out_lo = item.out.data, out_hi = out_lo + item.out.size;
  if (in_lo < out_hi && out_lo < in_hi) {
    return Err(ACL_ERROR_INVALID_PARAM, "the input and output pictures overlap in memory; VPC needs separate buffers");
  }
  outs->push_back(npurt::api::dvpp::ResolvePic(a.out, "outputDesc").value());
  return item;
}

aclError SubmitVpc(const char* fn, acldvppChannelDesc* channel, const std::vector<VpcArgs>& args, unsigned regions,
                   const acldvppResizeConfig* resize, aclrtStream stream) {
  auto c = npurt::api::dvpp::ResolveChannel(channel, DVPP_CHNMODE_VPC, fn);
  if (!c.ok()) return Report(fn, c.status());
  if (resize != nullptr && ResizeConfig::From(resize) == nullptr) {
    return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "resizeConfig is not a live resize configuration"));
  }
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return Report(fn, s.status());
  dv::VpcJob job;
  job.how = InterpolationOf(resize);
  std::vector<PicDesc*> outs;
  for (const VpcArgs& a : args) {
    auto item = VpcItemOf(a, regions, &outs);
    if (!item.ok()) return Report(fn, item.status());
    job.items.push_back(item.value());
  }
  const Status st = dv::SubmitDvppTask(s.value(), fn, [job] { return dv::RunVpc(job); }, SetRetCodes(outs));
  return st.ok() ? ACL_SUCCESS : Report(fn, st);
}

// The VPC pictures of a batch call: roiNums[i] regions of source i, one destination picture per region.
aclError SubmitBatchVpc(const char* fn, acldvppChannelDesc* channel, acldvppBatchPicDesc* src, const uint32_t* roiNums,
                        uint32_t size, acldvppBatchPicDesc* dst, acldvppRoiConfig* crops[], acldvppRoiConfig* pastes[],
                        const acldvppResizeConfig* resize, aclrtStream stream) {
  BatchPicDesc* s = BatchPicDesc::From(src);
  BatchPicDesc* d = BatchPicDesc::From(dst);
  if (s == nullptr || d == nullptr) {
    return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live batch picture description",
                          s == nullptr ? "srcBatchPicDescs" : "dstBatchPicDescs"));
  }
  if (roiNums == nullptr || crops == nullptr) {
    return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", roiNums == nullptr ? "roiNums" : "cropAreas"));
  }
  if (size == 0 || size > s->pics.size()) {
    return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "size {} is not in 1..{} (the source batch's pictures)", size,
                          s->pics.size()));
  }
  std::vector<VpcArgs> args;
  for (uint32_t i = 0; i < size; ++i) {
    for (uint32_t k = 0; k < roiNums[i]; ++k) {
      const size_t n = args.size();
      if (n >= d->pics.size()) {
        return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "roiNums asks for more regions than the {} pictures of "
                              "dstBatchPicDescs", d->pics.size()));
      }
      args.push_back(VpcArgs{reinterpret_cast<acldvppPicDesc*>(s->pics[i]), reinterpret_cast<acldvppPicDesc*>(d->pics[n]),
                             crops[n], pastes != nullptr ? pastes[n] : nullptr});
    }
  }
  if (args.empty()) return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "roiNums asks for no region"));
  return SubmitVpc(fn, channel, args, pastes != nullptr ? kCrop | kPaste : kCrop, resize, stream);
}

}  // namespace

aclError acldvppJpegGetImageInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                 int32_t* components) {
  NPURT_HANDLE_SCOPE();
  return acldvppJpegGetImageInfoV2(data, size, width, height, components, nullptr);
}

aclError acldvppJpegGetImageInfoV2(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                   int32_t* components, acldvppJpegFormat* format) {
  NPURT_HANDLE_SCOPE();
  auto info = JpegHeader(data, size);
  if (!info.ok()) return Report(__func__, info.status());
  WriteInfo(info.value(), width, height, components);
  if (format != nullptr) *format = static_cast<acldvppJpegFormat>(info.value().subsampling);
  return ACL_SUCCESS;
}

aclError acldvppJpegPredictDecSize(const void* data, uint32_t dataSize, acldvppPixelFormat outputPixelFormat,
                                   uint32_t* decSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(decSize);
  auto info = JpegHeader(data, dataSize);
  if (!info.ok()) return Report(__func__, info.status());
  const dv::FormatInfo* f = dv::FindFormat(outputPixelFormat);
  if (f == nullptr || !f->semiplanar) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "JPEGD decodes to the YUV/YVU 420, 422 and 444 "
                                "semi-planar formats, not {}", dv::FormatName(outputPixelFormat)));
  }
  auto bytes = DecodedSize(info.value().width, info.value().height, outputPixelFormat);
  if (!bytes.ok()) return Report(__func__, bytes.status());
  *decSize = bytes.value();
  return ACL_SUCCESS;
}

aclError acldvppPngGetImageInfo(const void* data, uint32_t dataSize, uint32_t* width, uint32_t* height,
                                int32_t* components) {
  NPURT_HANDLE_SCOPE();
  auto info = PngHeader(data, dataSize);
  if (!info.ok()) return Report(__func__, info.status());
  WriteInfo(info.value(), width, height, components);
  return ACL_SUCCESS;
}

aclError acldvppPngPredictDecSize(const void* data, uint32_t dataSize, acldvppPixelFormat outputPixelFormat,
                                  uint32_t* decSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(decSize);
  auto info = PngHeader(data, dataSize);
  if (!info.ok()) return Report(__func__, info.status());
  if (outputPixelFormat != PIXEL_FORMAT_RGB_888 && outputPixelFormat != PIXEL_FORMAT_RGBA_8888) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "PNGD decodes to RGB888 or RGBA8888, not {}",
                                dv::FormatName(outputPixelFormat)));
  }
  auto bytes = DecodedSize(info.value().width, info.value().height, outputPixelFormat);
  if (!bytes.ok()) return Report(__func__, bytes.status());
  *decSize = bytes.value();
  return ACL_SUCCESS;
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc* inputDesc, const acldvppJpegeConfig* config, uint32_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(size);
  auto p = npurt::api::dvpp::ResolvePic(inputDesc, "inputDesc");
  if (!p.ok()) return Report(__func__, p.status());
  if (npurt::api::dvpp::JpegeConfig::From(config) == nullptr) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "config is not a live JPEGE configuration"));
  }
  const dv::Picture& pic = p.value()->pic;
  const dv::FormatInfo* f = dv::FindFormat(pic.format);
  if (f == nullptr || pic.width == 0 || pic.height == 0 || pic.width > dv::kMaxSide || pic.height > dv::kMaxSide) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "inputDesc: a {}x{} {} picture is not one JPEGE encodes",
                                pic.width, pic.height, dv::FormatName(pic.format)));
  }
  const int sx = f->yuv ? f->chroma_sx : 2, sy = f->yuv ? f->chroma_sy : 2;
  *size = static_cast<uint32_t>(std::min<uint64_t>(dv::JpegEncodeBound(pic.width, pic.height, sx, sy), UINT32_MAX));
  return ACL_SUCCESS;
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                                acldvppPicDesc* outputDesc, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  auto c = npurt::api::dvpp::ResolveChannel(channelDesc, DVPP_CHNMODE_JPEGD, __func__);
  if (!c.ok()) return Report(__func__, c.status());
  NPURT_API_CHECK(CheckDeviceFile(data, size));
  auto out = CheckedPicture(outputDesc, "outputDesc");
  if (!out.ok()) return Report(__func__, out.status());
  if (!dv::FindFormat(out.value().format)->semiplanar && out.value().format != dv::kYuv400) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "outputDesc: JPEGD decodes to YUV400 or the YUV/YVU 420, "
                                "422 and 444 semi-planar formats, not {}", dv::FormatName(out.value().format)));
  }
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return Report(__func__, s.status());
  dv::JpegDecodeJob job{reinterpret_cast<uint64_t>(data), size, out.value()};
  const Status st = dv::SubmitDvppTask(s.value(), __func__, [job] { return dv::RunJpegDecode(job); },
                                       SetRetCodes({npurt::api::dvpp::PicDesc::From(outputDesc)}));
  return st.ok() ? ACL_SUCCESS : Report(__func__, st);
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                               acldvppPicDesc* outputDesc, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  auto c = npurt::api::dvpp::ResolveChannel(channelDesc, DVPP_CHNMODE_JPEGD, __func__);
  if (!c.ok()) return Report(__func__, c.status());
  NPURT_API_CHECK(CheckDeviceFile(data, size));
  auto out = CheckedPicture(outputDesc, "outputDesc");
  if (!out.ok()) return Report(__func__, out.status());
  if (out.value().format != dv::kRgb888 && out.value().format != dv::kRgba8888) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "outputDesc: PNGD decodes to RGB888 or RGBA8888, not {}",
                                dv::FormatName(out.value().format)));
  }
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return Report(__func__, s.status());
  dv::PngDecodeJob job{reinterpret_cast<uint64_t>(data), size, out.value()};
  const Status st = dv::SubmitDvppTask(s.value(), __func__, [job] { return dv::RunPngDecode(job); },
                                       SetRetCodes({npurt::api::dvpp::PicDesc::From(outputDesc)}));
  return st.ok() ? ACL_SUCCESS : Report(__func__, st);
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, const void* data,
                                uint32_t* size, acldvppJpegeConfig* config, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  auto c = npurt::api::dvpp::ResolveChannel(channelDesc, DVPP_CHNMODE_JPEGE, __func__);
  if (!c.ok()) return Report(__func__, c.status());
  NPURT_API_NOT_NULL(size);
  const npurt::api::dvpp::JpegeConfig* j = npurt::api::dvpp::JpegeConfig::From(config);
  if (j == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "config is not a live JPEGE configuration"));
  auto in = CheckedPicture(inputDesc, "inputDesc");
  if (!in.ok()) return Report(__func__, in.status());
  NPURT_API_CHECK(CheckDeviceFile(data, *size));
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return Report(__func__, s.status());
  dv::JpegEncodeJob job;
  job.in = in.value();
  job.data = reinterpret_cast<uint64_t>(data);
  job.capacity = *size;
  job.size_out = size;
  job.quality = j->level == 0 ? 100 : static_cast<int>(j->level);  // level 0 encodes like 100
  const Status st = dv::SubmitDvppTask(s.value(), __func__, [job] { return dv::RunJpegEncode(job); }, nullptr);
  return st.ok() ? ACL_SUCCESS : Report(__func__, st);
}

aclError acldvppVpcResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                               acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (resizeConfig == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "resizeConfig is a null pointer"));
  return SubmitVpc(__func__, channelDesc, {{inputDesc, outputDesc, nullptr, nullptr}}, kNoRegion, resizeConfig,
                   stream);
}

aclError acldvppVpcCropAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                             acldvppRoiConfig* cropArea, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return SubmitVpc(__func__, channelDesc, {{inputDesc, outputDesc, cropArea, nullptr}}, kCrop, nullptr, stream);
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                   acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                   acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return SubmitVpc(__func__, channelDesc, {{inputDesc, outputDesc, cropArea, nullptr}}, kCrop, resizeConfig, stream);
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                     acldvppRoiConfig* pasteArea, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return SubmitVpc(__func__, channelDesc, {{inputDesc, outputDesc, cropArea, pasteArea}}, kCrop | kPaste, nullptr,
                   stream);
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                        acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                        acldvppRoiConfig* pasteArea, acldvppResizeConfig* resizeConfig,
                                        aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return SubmitVpc(__func__, channelDesc, {{inputDesc, outputDesc, cropArea, pasteArea}}, kCrop | kPaste,
                   resizeConfig, stream);
}

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs,
                                  uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                  acldvppRoiConfig* cropAreas[], aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return SubmitBatchVpc(__func__, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
                        nullptr, stream);
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs,
                                        uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                        acldvppRoiConfig* cropAreas[], acldvppResizeConfig* resizeConfig,
                                        aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return SubmitBatchVpc(__func__, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
                        resizeConfig, stream);
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs,
                                          uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                          acldvppRoiConfig* cropAreas[], acldvppRoiConfig* pasteAreas[],
                                          aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (pasteAreas == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "pasteAreas is a null pointer"));
  return SubmitBatchVpc(__func__, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas,
                        pasteAreas, nullptr, stream);
}

aclError acldvppVpcBatchCropResizePasteAsync(acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs,
                                             uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                             acldvppRoiConfig* cropAreas[], acldvppRoiConfig* pasteAreas[],
                                             acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (pasteAreas == nullptr) return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "pasteAreas is a null pointer"));
  return SubmitBatchVpc(__func__, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas,
                        pasteAreas, resizeConfig, stream);
}

aclError acldvppVpcConvertColorAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  // CANN lets the output's geometry be 0 ("keep the input's"): fill it in from the input first.
  auto in = npurt::api::dvpp::ResolvePic(inputDesc, "inputDesc");
  auto out = npurt::api::dvpp::ResolvePic(outputDesc, "outputDesc");
  if (!in.ok() || !out.ok()) return Report(__func__, !in.ok() ? in.status() : out.status());
  dv::Picture& o = out.value()->pic;
  const dv::Picture& i = in.value()->pic;
  if (o.width == 0) o.width = i.width;
  if (o.height == 0) o.height = i.height;
  const dv::FormatInfo* f = dv::FindFormat(o.format);
  if (o.width_stride == 0 && f != nullptr) o.width_stride = AlignUp(o.width * static_cast<uint32_t>(f->bytes_per_pixel), 16);
  if (o.height_stride == 0) o.height_stride = AlignUp(o.height, 2);
  if (o.width != i.width || o.height != i.height) {
    return Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the output picture is {}x{} and the input {}x{}: colour "
                                "conversion keeps the size (use a resize)", o.width, o.height, i.width, i.height));
  }
  return SubmitVpc(__func__, channelDesc, {{inputDesc, outputDesc, nullptr, nullptr}}, kNoRegion, nullptr, stream);
}
