#include "dvpp/picture.h"

#include <fmt/format.h>

#include "acl/acl_base_rt.h"
#include "core/memory/memory_ops.h"

namespace npurt::dvpp {
namespace {

// name, yuv, semi-planar, UV order, chroma sx, sy, bytes per pixel of the first plane
constexpr FormatInfo kYuv400Info{"YUV400", true, false, true, 0, 0, 1};
constexpr FormatInfo kFormats[] = {
    {"YUV420SP (NV12)", true, true, true, 2, 2, 1},  {"YVU420SP (NV21)", true, true, false, 2, 2, 1},
    {"YUV422SP", true, true, true, 2, 1, 1},         {"YVU422SP", true, true, false, 2, 1, 1},
    {"YUV444SP", true, true, true, 1, 1, 1},         {"YVU444SP", true, true, false, 1, 1, 1},
    {"YUYV422 packed", true, false, true, 2, 1, 2},  {"UYVY422 packed", true, false, true, 2, 1, 2},
    {"YVYU422 packed", true, false, false, 2, 1, 2}, {"VYUY422 packed", true, false, false, 2, 1, 2},
    {"YUV444 packed", true, false, true, 1, 1, 3},   {"RGB888", false, false, true, 0, 0, 3},
    {"BGR888", false, false, true, 0, 0, 3},         {"ARGB8888", false, false, true, 0, 0, 4},
    {"ABGR8888", false, false, true, 0, 0, 4},       {"RGBA8888", false, false, true, 0, 0, 4},
    {"BGRA8888", false, false, true, 0, 0, 4},
};

}  // namespace

const FormatInfo* FindFormat(uint32_t format) {
  if (format == kYuv400) return &kYuv400Info;
  if (format >= kYuv420Sp && format <= kBgra8888) return &kFormats[format - kYuv420Sp];
  return nullptr;
}

std::string FormatName(uint32_t format) {
  const FormatInfo* f = FindFormat(format);
  return f != nullptr ? f->name : fmt::format("pixel format {}", format);
}

uint64_t PictureBytes(const FormatInfo& f, uint32_t width_stride, uint32_t height_stride) {
  const uint64_t luma = uint64_t{width_stride} * height_stride;
  if (!f.semiplanar) return luma;
  // Interleaved chroma: two samples per chroma pixel, 1/sx of the row's pixels, 1/sy of the rows.
  const uint64_t chroma_row = uint64_t{width_stride} * 2 / static_cast<uint64_t>(f.chroma_sx);
  const uint64_t chroma_rows = (uint64_t{height_stride} + f.chroma_sy - 1) / f.chroma_sy;
  return luma + chroma_row * chroma_rows;
}

Status CheckPicture(const Picture& pic, const char* what) {
  const FormatInfo* f = FindFormat(pic.format);
  if (f == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: {} is not a format the simulated DVPP processes (YUV400, YUV/YVU "
               "420/422/444 semi-planar, packed YUV422/YUV444, RGB/BGR888, xRGB8888 orders)", what,
               FormatName(pic.format));
  }
  if (pic.width == 0 || pic.height == 0 || pic.width > kMaxSide || pic.height > kMaxSide) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: {}x{} is not a picture size DVPP takes (1..{} on each side)", what,
               pic.width, pic.height, kMaxSide);
  }
  // Chroma shared by pixel pairs covers an odd width's last pixel with a whole pair.
  const uint64_t covered = f->chroma_sx == 2 ? (uint64_t{pic.width} + 1) / 2 * 2 : pic.width;
  const uint64_t row = covered * f->bytes_per_pixel;
  if (pic.width_stride < row) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: widthStride {} is shorter than a row of {} {} pixels ({} bytes)", what,
               pic.width_stride, covered, f->name, row);
  }
  if (pic.height_stride < pic.height) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: heightStride {} is less than the height {}", what, pic.height_stride,
               pic.height);
  }
  const uint64_t need = PictureBytes(*f, pic.width_stride, pic.height_stride);
  if (pic.size < need) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: size {} is less than the {} bytes a {} picture of stride {}x{} spans",
               what, pic.size, need, f->name, pic.width_stride, pic.height_stride);
  }
  if (pic.data == 0) return Err(ACL_ERROR_INVALID_PARAM, "{}: its data is not set (acldvppSetPicDescData)", what);
  auto span = core::ResolveSpan(reinterpret_cast<const void*>(pic.data), need, what);
  if (!span.ok()) return span.status();
  if (span.value().device == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: its data {:#x} is host memory; DVPP reads and writes device memory "
               "(acldvppMalloc)", what, pic.data);
  }
  return Status::Ok();
}

Status CheckRegion(const Region& r, const Picture& pic, const char* what) {
  if (r.left > r.right || r.top > r.bottom) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} [{}, {}] x [{}, {}] is empty: left must not exceed right, top not bottom",
               what, r.left, r.right, r.top, r.bottom);
  }
  if (r.right >= pic.width || r.bottom >= pic.height) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} [{}, {}] x [{}, {}] does not lie inside the {}x{} picture", what, r.left,
               r.right, r.top, r.bottom, pic.width, pic.height);
  }
  // A region ends on an odd pixel, or at the picture's edge (an odd-sized picture's last chroma sample covers
  // one pixel).
  const FormatInfo* f = FindFormat(pic.format);
  const bool right_ok = r.right % 2 == 1 || r.right == pic.width - 1;
  const bool bottom_ok = r.bottom % 2 == 1 || r.bottom == pic.height - 1;
  if (f != nullptr && f->chroma_sx == 2 && (r.left % 2 != 0 || !right_ok)) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: left {} must be even and right {} odd in a {} picture (its chroma covers "
               "pixel pairs)", what, r.left, r.right, f->name);
  }
  if (f != nullptr && f->chroma_sy == 2 && (r.top % 2 != 0 || !bottom_ok)) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: top {} must be even and bottom {} odd in a {} picture (its chroma covers "
               "row pairs)", what, r.top, r.bottom, f->name);
  }
  return Status::Ok();
}

}  // namespace npurt::dvpp
