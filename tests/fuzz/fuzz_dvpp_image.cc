// Fuzz target: picture files through DVPP (acl/ops/acl_dvpp.h): the JPEG and PNG header queries and size
// predictions on host bytes, then, for a picture of at most 512 x 512, a decode in DVPP memory (JPEG to NV12,
// PNG to RGB888) and a VPC resize of the result, as sampleResnetDVPP runs them. A corrupt file must fail with a
// message (the header calls) or fail the stream (the decode), never crash; every failing call is held to the
// message contract (fuzz_util.h).
#include <cstring>

#ifndef ENABLE_DVPP_INTERFACE
#define ENABLE_DVPP_INTERFACE  // what programs define to use DVPP (the header refuses without it)
#endif
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "fuzz_util.h"

namespace {

aclrtStream g_stream = nullptr;
acldvppChannelDesc* g_channel = nullptr;

uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

acldvppPicDesc* Describe(void* data, uint32_t size, acldvppPixelFormat format, uint32_t w, uint32_t h, uint32_t ws,
                         uint32_t hs) {
  acldvppPicDesc* d = acldvppCreatePicDesc();
  acldvppSetPicDescData(d, data);
  acldvppSetPicDescSize(d, size);
  acldvppSetPicDescFormat(d, format);
  acldvppSetPicDescWidth(d, w);
  acldvppSetPicDescHeight(d, h);
  acldvppSetPicDescWidthStride(d, ws);
  acldvppSetPicDescHeightStride(d, hs);
  return d;
}

// Decodes the file (already in DVPP memory) into a w x h picture of `format`, then resizes it to 32 x 32.
void DecodeAndResize(bool png, void* file, uint32_t file_size, uint32_t w, uint32_t h) {
  const acldvppPixelFormat format = png ? PIXEL_FORMAT_RGB_888 : PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  const uint32_t ws = png ? Align(w * 3, 128) : Align(w, 128), hs = Align(h, 16);
  const uint32_t size = png ? ws * hs : ws * hs * 3 / 2;
  void* out = nullptr;
  void* small = nullptr;
  const uint32_t small_size = png ? 96 * 32 : 32 * 32 * 3 / 2;
  if (npurt_fuzz::Check(acldvppMalloc(&out, size), "acldvppMalloc") != ACL_SUCCESS) return;
  npurt_fuzz::Check(acldvppMalloc(&small, small_size), "acldvppMalloc");
  acldvppPicDesc* decoded = Describe(out, size, format, w, h, ws, hs);
  acldvppPicDesc* resized = Describe(small, small_size, format, 32, 32, png ? 96 : 32, 32);
  acldvppResizeConfig* config = acldvppCreateResizeConfig();
  const aclError rc = png ? acldvppPngDecodeAsync(g_channel, file, file_size, decoded, g_stream)
                          : acldvppJpegDecodeAsync(g_channel, file, file_size, decoded, g_stream);
  npurt_fuzz::Check(rc, png ? "acldvppPngDecodeAsync" : "acldvppJpegDecodeAsync");
  if (npurt_fuzz::Check(aclrtSynchronizeStream(g_stream), "aclrtSynchronizeStream") == ACL_SUCCESS && rc == 0) {
    npurt_fuzz::Check(acldvppVpcResizeAsync(g_channel, decoded, resized, config, g_stream), "acldvppVpcResizeAsync");
    npurt_fuzz::Check(aclrtSynchronizeStream(g_stream), "aclrtSynchronizeStream");
  }
  acldvppDestroyResizeConfig(config);
  acldvppDestroyPicDesc(decoded);
  acldvppDestroyPicDesc(resized);
  acldvppFree(out);
  if (small != nullptr) acldvppFree(small);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != 0) {
    __builtin_trap();
  }
  g_channel = acldvppCreateChannelDesc();
  if (acldvppCreateChannel(g_channel) != ACL_SUCCESS) __builtin_trap();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  const uint32_t n = static_cast<uint32_t>(size);
  uint32_t w = 0, h = 0, bytes = 0;
  int32_t components = 0;
  acldvppJpegFormat css = ACL_JPEG_CSS_UNKNOWN;
  const bool jpeg = npurt_fuzz::Check(acldvppJpegGetImageInfoV2(data, n, &w, &h, &components, &css),
                                      "acldvppJpegGetImageInfoV2") == ACL_SUCCESS;
  npurt_fuzz::Check(acldvppJpegPredictDecSize(data, n, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &bytes),
                    "acldvppJpegPredictDecSize");
  uint32_t pw = 0, ph = 0;
  const bool png = npurt_fuzz::Check(acldvppPngGetImageInfo(data, n, &pw, &ph, &components),
                                     "acldvppPngGetImageInfo") == ACL_SUCCESS;
  npurt_fuzz::Check(acldvppPngPredictDecSize(data, n, PIXEL_FORMAT_RGB_888, &bytes), "acldvppPngPredictDecSize");
  if (!jpeg && !png) return 0;
  if (jpeg) {
    if (w == 0 || h == 0 || w > 512 || h > 512) return 0;
  } else if (pw == 0 || ph == 0 || pw > 512 || ph > 512) {
    return 0;
  }
  void* file = nullptr;
  if (npurt_fuzz::Check(acldvppMalloc(&file, size), "acldvppMalloc") != ACL_SUCCESS) return 0;
  npurt_fuzz::Check(aclrtMemcpy(file, size, data, size, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  if (jpeg) DecodeAndResize(false, file, n, w, h);
  if (png) DecodeAndResize(true, file, n, pw, ph);
  acldvppFree(file);
  return 0;
}
