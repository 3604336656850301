#include "dvpp/codecs.h"

#include <png.h>
#include <turbojpeg.h>

#include <cstring>
#include <memory>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "dvpp/picture.h"

namespace npurt::dvpp {
namespace {

struct TjCloser {
  void operator()(void* h) const { tjDestroy(h); }
};
using TjHandle = std::unique_ptr<void, TjCloser>;

// Chroma subsampling of a TurboJPEG subsampling (TJSAMP_*, also acldvppJpegFormat's order).
void SubsamplingFactors(int tjsamp, int* sx, int* sy) {
  switch (tjsamp) {
    case TJSAMP_444: *sx = 1; *sy = 1; return;
    case TJSAMP_422: *sx = 2; *sy = 1; return;
    case TJSAMP_420: *sx = 2; *sy = 2; return;
    case TJSAMP_440: *sx = 1; *sy = 2; return;
    case TJSAMP_411: *sx = 4; *sy = 1; return;
    default: *sx = 0; *sy = 0; return;  // grey
  }
}

Status NotJpeg(const char* why) { return Err(ACL_ERROR_INVALID_PARAM, "the data is not a JPEG DVPP decodes: {}", why); }

}  // namespace

StatusOr<JpegInfo> ReadJpegInfo(const uint8_t* data, size_t size) {
  if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return NotJpeg("it does not start with a JPEG SOI marker");
  TjHandle h(tjInitDecompress());
  if (!h) return Err(ACL_ERROR_RT_INTERNAL_ERROR, "TurboJPEG: {}", tjGetErrorStr2(nullptr));
  int w = 0, ht = 0, samp = 0, cs = 0;
  if (tjDecompressHeader3(h.get(), data, static_cast<unsigned long>(size), &w, &ht, &samp, &cs) != 0) {
    return NotJpeg(tjGetErrorStr2(h.get()));
  }
  if (w <= 0 || ht <= 0) return NotJpeg("its header ends before the frame header (SOF)");
  JpegInfo info;
  info.width = static_cast<uint32_t>(w);
  info.height = static_cast<uint32_t>(ht);
  info.components = cs == TJCS_GRAY ? 1 : (cs == TJCS_CMYK || cs == TJCS_YCCK) ? 4 : 3;
  info.subsampling = samp >= 0 && samp <= TJSAMP_411 ? static_cast<uint32_t>(samp) : 1000;
  return info;
}

StatusOr<Image> DecodeJpeg(const uint8_t* data, size_t size) {
  auto header = ReadJpegInfo(data, size);
  if (!header.ok()) return header.status();
  const JpegInfo& info = header.value();
  if (info.components == 4) return NotJpeg("CMYK and YCCK JPEGs are not decoded (JPEGD takes YCbCr and grey)");
  if (info.width > kMaxSide || info.height > kMaxSide) {
    return Err(ACL_ERROR_INVALID_PARAM, "the JPEG is {}x{}; JPEGD decodes up to {}x{}", info.width, info.height,
               kMaxSide, kMaxSide);
  }
  TjHandle h(tjInitDecompress());
  if (!h) return Err(ACL_ERROR_RT_INTERNAL_ERROR, "TurboJPEG: {}", tjGetErrorStr2(nullptr));
  const int samp = static_cast<int>(info.subsampling);
  const int w = static_cast<int>(info.width), ht = static_cast<int>(info.height);
  Image img;
  img.width = info.width;
  img.height = info.height;
  img.yuv = true;
  SubsamplingFactors(samp, &img.sx, &img.sy);
  const int planes = samp == TJSAMP_GRAY ? 1 : 3;
  unsigned char* dst[3] = {};
  int strides[3] = {};
  for (int c = 0; c < planes; ++c) {
    const int pw = tjPlaneWidth(c, w, samp), ph = tjPlaneHeight(c, ht, samp);
    img.planes.emplace_back(static_cast<uint32_t>(pw), static_cast<uint32_t>(ph));
    strides[c] = pw;
  }
  for (int c = 0; c < planes; ++c) dst[c] = img.planes[static_cast<size_t>(c)].px.data();
  if (tjDecompressToYUVPlanes(h.get(), data, static_cast<unsigned long>(size), dst, w, strides, ht, 0) != 0 &&
      tjGetErrorCode(h.get()) == TJERR_FATAL) {
    return Err(ACL_ERROR_INVALID_PARAM, "the JPEG data is corrupt: {}", tjGetErrorStr2(h.get()));
  }
  // TurboJPEG pads chroma planes of odd sizes to whole MCUs; keep the samples the picture covers.
  for (size_t c = 1; c < img.planes.size(); ++c) {
    Plane& p = img.planes[c];
    const uint32_t cw = ChromaSide(img.width, img.sx), ch = ChromaSide(img.height, img.sy);
    if (p.width == cw && p.height == ch) continue;
    for (uint32_t y = 0; y < ch; ++y) std::memmove(p.px.data() + size_t{y} * cw, &p.at(0, y), cw);  // rows move down
    p.px.resize(size_t{cw} * ch);
    p.width = cw;
    p.height = ch;
  }
  return img;
}

uint64_t JpegEncodeBound(uint32_t width, uint32_t height, int sx, int sy) {
  const int samp = sx == 0 ? TJSAMP_GRAY : sx == 1 ? TJSAMP_444 : sy == 2 ? TJSAMP_420 : TJSAMP_422;
  return tjBufSize(static_cast<int>(width), static_cast<int>(height), samp);
}

StatusOr<std::vector<uint8_t>> EncodeJpeg(const Image& yuv, int quality) {
  int samp = TJSAMP_GRAY;
  if (yuv.has_chroma()) {
    if (yuv.sx == 1 && yuv.sy == 1) samp = TJSAMP_444;
    else if (yuv.sx == 2 && yuv.sy == 1) samp = TJSAMP_422;
    else if (yuv.sx == 2 && yuv.sy == 2) samp = TJSAMP_420;
    else return Err(ACL_ERROR_INVALID_PARAM, "JPEGE encodes 4:4:4, 4:2:2, 4:2:0 and grey pictures");
  }
  TjHandle h(tjInitCompress());
  if (!h) return Err(ACL_ERROR_RT_INTERNAL_ERROR, "TurboJPEG: {}", tjGetErrorStr2(nullptr));
  const int w = static_cast<int>(yuv.width), ht = static_cast<int>(yuv.height);
  const unsigned char* src[3] = {};
  int strides[3] = {};
  // TurboJPEG reads whole MCUs of chroma: give it planes of the sizes it expects, edges replicated.
  std::vector<Plane> padded;
  for (size_t c = 0; c < yuv.planes.size(); ++c) {
    const int id = static_cast<int>(c);
    const uint32_t pw = static_cast<uint32_t>(tjPlaneWidth(id, w, samp));
    const uint32_t ph = static_cast<uint32_t>(tjPlaneHeight(id, ht, samp));
    const Plane& p = yuv.planes[c];
    Plane q(pw, ph);
    for (uint32_t y = 0; y < ph; ++y) {
      for (uint32_t x = 0; x < pw; ++x) q.at(x, y) = p.at(std::min(x, p.width - 1), std::min(y, p.height - 1));
    }
    padded.push_back(std::move(q));
  }
  for (size_t c = 0; c < padded.size(); ++c) {
    src[c] = padded[c].px.data();
    strides[c] = static_cast<int>(padded[c].width);
  }
  unsigned char* out = nullptr;
  unsigned long out_size = 0;
  if (tjCompressFromYUVPlanes(h.get(), src, w, strides, ht, samp, &out, &out_size, quality, 0) != 0) {
    const std::string why = tjGetErrorStr2(h.get());
    tjFree(out);
    return Err(ACL_ERROR_RT_INTERNAL_ERROR, "JPEG encoding failed: {}", why);
  }
  std::vector<uint8_t> bytes(out, out + out_size);
  tjFree(out);
  return bytes;
}

namespace {

Status NotPng(const std::string& why) {
  return Err(ACL_ERROR_INVALID_PARAM, "the data is not a PNG DVPP decodes: {}", why);
}

struct PngImage {
  png_image image{};
  PngImage() {
    std::memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
  }
  ~PngImage() { png_image_free(&image); }
};

}  // namespace

StatusOr<PngInfo> ReadPngInfo(const uint8_t* data, size_t size) {
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return NotPng("it does not start with the PNG signature");
  PngImage png;
  if (png_image_begin_read_from_memory(&png.image, data, size) == 0) return NotPng(png.image.message);
  PngInfo info;
  info.width = png.image.width;
  info.height = png.image.height;
  const bool colour = (png.image.format & PNG_FORMAT_FLAG_COLOR) != 0;
  const bool alpha = (png.image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
  info.components = (colour ? 3 : 1) + (alpha ? 1 : 0);
  return info;
}

StatusOr<Image> DecodePng(const uint8_t* data, size_t size, bool alpha) {
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return NotPng("it does not start with the PNG signature");
  PngImage png;
  if (png_image_begin_read_from_memory(&png.image, data, size) == 0) return NotPng(png.image.message);
  if (png.image.width > kMaxSide || png.image.height > kMaxSide) {
    return Err(ACL_ERROR_INVALID_PARAM, "the PNG is {}x{}; PNGD decodes up to {}x{}", png.image.width,
               png.image.height, kMaxSide, kMaxSide);
  }
  // Read as RGBA whatever is wanted: libpng would composite the alpha onto black for RGB, and PNGD drops it.
  png.image.format = PNG_FORMAT_RGBA;
  const uint32_t w = png.image.width, h = png.image.height, channels = alpha ? 4 : 3;
  std::vector<uint8_t> pixels(size_t{w} * h * 4);
  if (png_image_finish_read(&png.image, nullptr, pixels.data(), 0, nullptr) == 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "the PNG data is corrupt: {}", png.image.message);
  }
  Image img;
  img.width = w;
  img.height = h;
  img.yuv = false;
  for (uint32_t c = 0; c < channels; ++c) {
    Plane p(w, h);
    for (size_t i = 0; i < p.px.size(); ++i) p.px[i] = pixels[i * 4 + c];
    img.planes.push_back(std::move(p));
  }
  return img;
}

}  // namespace npurt::dvpp
