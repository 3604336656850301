// acl.media: DVPP V1 (acl/ops/acl_dvpp.h, docs/dvpp.md) with pyACL's names and conventions: handles and
// pointers are ints, out-parameters come back before the return code, and the batch operations take Python
// lists and return the destination batch with the code. Video (vdec_*, venc_*) is not simulated: those names
// raise NotImplementedError saying so (module.cc).
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "pyacl.h"

namespace pyacl {
namespace {

using Pic = acldvppPicDesc;
using Roi = acldvppRoiConfig;
using Resize = acldvppResizeConfig;
using Channel = acldvppChannelDesc;
using Batch = acldvppBatchPicDesc;

// The regions of a batch operation, as the C call takes them.
std::vector<Roi*> Rois(const std::vector<Addr>& list) {
  std::vector<Roi*> rois;
  for (Addr a : list) rois.push_back(As<Roi>(a));
  return rois;
}

void DefineDescriptions(py::module_& m) {
  m.def("dvpp_malloc", [](size_t size) {
    void* p = nullptr;
    const aclError ret = acldvppMalloc(&p, size);
    return WithRet(ret, ToInt(p));
  });
  m.def("dvpp_free", [](Addr p) { return acldvppFree(As<void>(p)); });
  m.def("dvpp_create_channel_desc", [] { return ToInt(acldvppCreateChannelDesc()); });
  m.def("dvpp_destroy_channel_desc", [](Addr h) { return acldvppDestroyChannelDesc(As<Channel>(h)); });
  m.def("dvpp_get_channel_desc_channel_id", [](Addr h) { return acldvppGetChannelDescChannelId(As<Channel>(h)); });
  m.def("dvpp_set_channel_desc_mode", [](Addr h, uint32_t mode) { return acldvppSetChannelDescMode(As<Channel>(h), mode); });
  m.def("dvpp_create_channel", [](Addr h) { return acldvppCreateChannel(As<Channel>(h)); });
  m.def("dvpp_destroy_channel", [](Addr h) { return acldvppDestroyChannel(As<Channel>(h)); });

  m.def("dvpp_create_pic_desc", [] { return ToInt(acldvppCreatePicDesc()); });
  m.def("dvpp_destroy_pic_desc", [](Addr h) { return acldvppDestroyPicDesc(As<Pic>(h)); });
  m.def("dvpp_set_pic_desc_data", [](Addr h, Addr data) { return acldvppSetPicDescData(As<Pic>(h), As<void>(data)); });
  m.def("dvpp_set_pic_desc_size", [](Addr h, uint32_t v) { return acldvppSetPicDescSize(As<Pic>(h), v); });
  m.def("dvpp_set_pic_desc_format", [](Addr h, uint32_t v) {
    return acldvppSetPicDescFormat(As<Pic>(h), static_cast<acldvppPixelFormat>(v));
  });
  m.def("dvpp_set_pic_desc_width", [](Addr h, uint32_t v) { return acldvppSetPicDescWidth(As<Pic>(h), v); });
  m.def("dvpp_set_pic_desc_height", [](Addr h, uint32_t v) { return acldvppSetPicDescHeight(As<Pic>(h), v); });
  m.def("dvpp_set_pic_desc_width_stride", [](Addr h, uint32_t v) { return acldvppSetPicDescWidthStride(As<Pic>(h), v); });
  m.def("dvpp_set_pic_desc_height_stride",
        [](Addr h, uint32_t v) { return acldvppSetPicDescHeightStride(As<Pic>(h), v); });
  m.def("dvpp_set_pic_desc_ret_code", [](Addr h, uint32_t v) { return acldvppSetPicDescRetCode(As<Pic>(h), v); });
  m.def("dvpp_get_pic_desc_data", [](Addr h) { return ToInt(acldvppGetPicDescData(As<Pic>(h))); });
  m.def("dvpp_get_pic_desc_size", [](Addr h) { return acldvppGetPicDescSize(As<Pic>(h)); });
  m.def("dvpp_get_pic_desc_format", [](Addr h) { return static_cast<uint32_t>(acldvppGetPicDescFormat(As<Pic>(h))); });
  m.def("dvpp_get_pic_desc_width", [](Addr h) { return acldvppGetPicDescWidth(As<Pic>(h)); });
  m.def("dvpp_get_pic_desc_height", [](Addr h) { return acldvppGetPicDescHeight(As<Pic>(h)); });
  m.def("dvpp_get_pic_desc_width_stride", [](Addr h) { return acldvppGetPicDescWidthStride(As<Pic>(h)); });
  m.def("dvpp_get_pic_desc_height_stride", [](Addr h) { return acldvppGetPicDescHeightStride(As<Pic>(h)); });
  m.def("dvpp_get_pic_desc_ret_code", [](Addr h) { return acldvppGetPicDescRetCode(As<Pic>(h)); });
  m.def("dvpp_create_batch_pic_desc", [](uint32_t n) { return ToInt(acldvppCreateBatchPicDesc(n)); });
  m.def("dvpp_get_pic_desc", [](Addr b, uint32_t i) { return ToInt(acldvppGetPicDesc(As<Batch>(b), i)); });
  m.def("dvpp_destroy_batch_pic_desc", [](Addr b) { return acldvppDestroyBatchPicDesc(As<Batch>(b)); });

  m.def("dvpp_create_roi_config", [](uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return ToInt(acldvppCreateRoiConfig(l, r, t, b));
  });
  m.def("dvpp_destroy_roi_config", [](Addr h) { return acldvppDestroyRoiConfig(As<Roi>(h)); });
  m.def("dvpp_set_roi_config_left", [](Addr h, uint32_t v) { return acldvppSetRoiConfigLeft(As<Roi>(h), v); });
  m.def("dvpp_set_roi_config_right", [](Addr h, uint32_t v) { return acldvppSetRoiConfigRight(As<Roi>(h), v); });
  m.def("dvpp_set_roi_config_top", [](Addr h, uint32_t v) { return acldvppSetRoiConfigTop(As<Roi>(h), v); });
  m.def("dvpp_set_roi_config_bottom", [](Addr h, uint32_t v) { return acldvppSetRoiConfigBottom(As<Roi>(h), v); });
  m.def("dvpp_set_roi_config", [](Addr h, uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return acldvppSetRoiConfig(As<Roi>(h), l, r, t, b);
  });
  m.def("dvpp_create_resize_config", [] { return ToInt(acldvppCreateResizeConfig()); });
  m.def("dvpp_destroy_resize_config", [](Addr h) { return acldvppDestroyResizeConfig(As<Resize>(h)); });
  m.def("dvpp_set_resize_config_interpolation",
        [](Addr h, uint32_t v) { return acldvppSetResizeConfigInterpolation(As<Resize>(h), v); });
  m.def("dvpp_get_resize_config_interpolation",
        [](Addr h) { return acldvppGetResizeConfigInterpolation(As<Resize>(h)); });
  m.def("dvpp_create_jpege_config", [] { return ToInt(acldvppCreateJpegeConfig()); });
  m.def("dvpp_destroy_jpege_config", [](Addr h) { return acldvppDestroyJpegeConfig(As<acldvppJpegeConfig>(h)); });
  m.def("dvpp_set_jpege_config_level",
        [](Addr h, uint32_t v) { return acldvppSetJpegeConfigLevel(As<acldvppJpegeConfig>(h), v); });
  m.def("dvpp_get_jpege_config_level", [](Addr h) { return acldvppGetJpegeConfigLevel(As<acldvppJpegeConfig>(h)); });
}

void DefineCodecs(py::module_& m) {
  m.def("dvpp_jpeg_get_image_info", [](Addr data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    const aclError ret = acldvppJpegGetImageInfo(As<void>(data), size, &w, &h, &c);
    return WithRet(ret, w, h, c);
  });
  m.def("dvpp_jpeg_get_image_info_v2", [](Addr data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    acldvppJpegFormat f = ACL_JPEG_CSS_UNKNOWN;
    const aclError ret = acldvppJpegGetImageInfoV2(As<void>(data), size, &w, &h, &c, &f);
    return WithRet(ret, w, h, c, static_cast<int>(f));
  });
  m.def("dvpp_jpeg_predict_dec_size", [](Addr data, uint32_t size, uint32_t format) {
    uint32_t out = 0;
    const aclError ret = acldvppJpegPredictDecSize(As<void>(data), size, static_cast<acldvppPixelFormat>(format), &out);
    return WithRet(ret, out);
  });
  m.def("dvpp_jpeg_predict_enc_size", [](Addr desc, Addr config) {
    uint32_t out = 0;
    const aclError ret = acldvppJpegPredictEncSize(As<Pic>(desc), As<acldvppJpegeConfig>(config), &out);
    return WithRet(ret, out);
  });
  m.def("dvpp_png_get_image_info", [](Addr data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    const aclError ret = acldvppPngGetImageInfo(As<void>(data), size, &w, &h, &c);
    return WithRet(ret, w, h, c);
  });
  m.def("dvpp_png_predict_dec_size", [](Addr data, uint32_t size, uint32_t format) {
    uint32_t out = 0;
    const aclError ret = acldvppPngPredictDecSize(As<void>(data), size, static_cast<acldvppPixelFormat>(format), &out);
    return WithRet(ret, out);
  });
  m.def("dvpp_jpeg_decode_async", [](Addr ch, Addr data, uint32_t size, Addr out, Addr stream) {
    return acldvppJpegDecodeAsync(As<Channel>(ch), As<void>(data), size, As<Pic>(out), As<void>(stream));
  });
  m.def("dvpp_png_decode_async", [](Addr ch, Addr data, uint32_t size, Addr out, Addr stream) {
    return acldvppPngDecodeAsync(As<Channel>(ch), As<void>(data), size, As<Pic>(out), As<void>(stream));
  });
  // `size`: the address of a uint32 in host memory: the buffer's capacity, then the encoded length.
  m.def("dvpp_jpeg_encode_async", [](Addr ch, Addr in, Addr data, Addr size, Addr config, Addr stream) {
    return acldvppJpegEncodeAsync(As<Channel>(ch), As<Pic>(in), As<void>(data), As<uint32_t>(size),
                                  As<acldvppJpegeConfig>(config), As<void>(stream));
  });
}

void DefineVpc(py::module_& m) {
  m.def("dvpp_vpc_resize_async", [](Addr ch, Addr in, Addr out, Addr config, Addr stream) {
    return acldvppVpcResizeAsync(As<Channel>(ch), As<Pic>(in), As<Pic>(out), As<Resize>(config), As<void>(stream));
  });
  m.def("dvpp_vpc_crop_async", [](Addr ch, Addr in, Addr out, Addr crop, Addr stream) {
    return acldvppVpcCropAsync(As<Channel>(ch), As<Pic>(in), As<Pic>(out), As<Roi>(crop), As<void>(stream));
  });
  m.def("dvpp_vpc_crop_resize_async", [](Addr ch, Addr in, Addr out, Addr crop, Addr config, Addr stream) {
    return acldvppVpcCropResizeAsync(As<Channel>(ch), As<Pic>(in), As<Pic>(out), As<Roi>(crop), As<Resize>(config),
                                     As<void>(stream));
  });
  m.def("dvpp_vpc_crop_and_paste_async", [](Addr ch, Addr in, Addr out, Addr crop, Addr paste, Addr stream) {
    return acldvppVpcCropAndPasteAsync(As<Channel>(ch), As<Pic>(in), As<Pic>(out), As<Roi>(crop), As<Roi>(paste),
                                       As<void>(stream));
  });
  m.def("dvpp_vpc_crop_resize_paste_async",
        [](Addr ch, Addr in, Addr out, Addr crop, Addr paste, Addr config, Addr stream) {
          return acldvppVpcCropResizePasteAsync(As<Channel>(ch), As<Pic>(in), As<Pic>(out), As<Roi>(crop),
                                                As<Roi>(paste), As<Resize>(config), As<void>(stream));
        });
  m.def("dvpp_vpc_convert_color_async", [](Addr ch, Addr in, Addr out, Addr stream) {
    return acldvppVpcConvertColorAsync(As<Channel>(ch), As<Pic>(in), As<Pic>(out), As<void>(stream));
  });
  // The batches: roi_nums per source picture, one region (and paste region) per destination picture.
  m.def("dvpp_vpc_batch_crop_async", [](Addr ch, Addr src, std::vector<uint32_t> nums, Addr dst,
                                         const std::vector<Addr>& crops, Addr stream) {
    std::vector<Roi*> c = Rois(crops);
    const aclError ret = acldvppVpcBatchCropAsync(As<Channel>(ch), As<Batch>(src), nums.data(),
                                                  static_cast<uint32_t>(nums.size()), As<Batch>(dst), c.data(),
                                                  As<void>(stream));
    return WithRet(ret, dst);
  });
  m.def("dvpp_vpc_batch_crop_resize_async", [](Addr ch, Addr src, std::vector<uint32_t> nums, Addr dst,
                                                const std::vector<Addr>& crops, Addr config, Addr stream) {
    std::vector<Roi*> c = Rois(crops);
    const aclError ret = acldvppVpcBatchCropResizeAsync(As<Channel>(ch), As<Batch>(src), nums.data(),
                                                        static_cast<uint32_t>(nums.size()), As<Batch>(dst), c.data(),
                                                        As<Resize>(config), As<void>(stream));
    return WithRet(ret, dst);
  });
  m.def("dvpp_vpc_batch_crop_and_paste_async",
        [](Addr ch, Addr src, std::vector<uint32_t> nums, Addr dst, const std::vector<Addr>& crops,
           const std::vector<Addr>& pastes, Addr stream) {
          std::vector<Roi*> c = Rois(crops), p = Rois(pastes);
          const aclError ret = acldvppVpcBatchCropAndPasteAsync(As<Channel>(ch), As<Batch>(src), nums.data(),
                                                                static_cast<uint32_t>(nums.size()), As<Batch>(dst),
                                                                c.data(), p.data(), As<void>(stream));
          return WithRet(ret, dst);
        });
  m.def("dvpp_vpc_batch_crop_resize_paste_async",
        [](Addr ch, Addr src, std::vector<uint32_t> nums, Addr dst, const std::vector<Addr>& crops,
           const std::vector<Addr>& pastes, Addr config, Addr stream) {
          std::vector<Roi*> c = Rois(crops), p = Rois(pastes);
          const aclError ret = acldvppVpcBatchCropResizePasteAsync(
              As<Channel>(ch), As<Batch>(src), nums.data(), static_cast<uint32_t>(nums.size()), As<Batch>(dst),
              c.data(), p.data(), As<Resize>(config), As<void>(stream));
          return WithRet(ret, dst);
        });
}

}  // namespace

void DefineMedia(py::module_& media) {
  DefineDescriptions(media);
  DefineCodecs(media);
  DefineVpc(media);
}

}  // namespace pyacl
