// The VPC's working form of a picture: separate 8-bit planes, each at its own resolution. DVPP operations
// unpack a region of a picture into an Image, resize and convert it, and pack it into a region of another.
#pragma once

#include <cstdint>
#include <vector>

#include "dvpp/picture.h"

namespace npurt::dvpp {

struct Plane {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> px;  // row-major, width x height

  Plane() = default;
  Plane(uint32_t w, uint32_t h, uint8_t fill = 0) : width(w), height(h), px(size_t{w} * h, fill) {}
  uint8_t at(uint32_t x, uint32_t y) const { return px[size_t{y} * width + x]; }
  uint8_t& at(uint32_t x, uint32_t y) { return px[size_t{y} * width + x]; }
};

struct Image {
  uint32_t width = 0;   // of the full-resolution planes
  uint32_t height = 0;
  bool yuv = true;      // planes Y[, U, V] (U, V subsampled by sx x sy); else R, G, B[, A]
  int sx = 0, sy = 0;   // chroma subsampling of a YUV image with chroma
  std::vector<Plane> planes;

  bool has_chroma() const { return yuv && planes.size() == 3; }
  bool has_alpha() const { return !yuv && planes.size() == 4; }
};

// The side of a chroma plane for a luma side of `n` pixels subsampled by `s`.
inline uint32_t ChromaSide(uint32_t n, int s) { return (n + static_cast<uint32_t>(s) - 1) / static_cast<uint32_t>(s); }

// Reads region `r` of `pic`, whose buffer (from its first byte) is `bytes`.
Image Unpack(const Picture& pic, const uint8_t* bytes, const Region& r);
// Writes `img` (already of the region's size and of the picture's colour family and subsampling, ConvertTo)
// into region `r` of `pic`, whose buffer is `bytes`; the rest of the buffer is left as it is.
void Pack(const Image& img, const Picture& pic, uint8_t* bytes, const Region& r);

enum class Interpolation { kBilinear, kNearest };
// Each plane resized to `width` x `height` (chroma planes to their subsampled share): bilinear with pixel
// centres aligned (OpenCV's INTER_LINEAR), or nearest (INTER_NEAREST).
Image Resize(const Image& in, uint32_t width, uint32_t height, Interpolation how);

// `in` in the colour family and chroma subsampling of `target`: chroma resampled (replicated up, averaged
// down), YUV <-> RGB with the full-range BT.601 matrix of JPEG files, grey chroma 128 added or dropped.
Image ConvertTo(Image in, const FormatInfo& target);

}  // namespace npurt::dvpp
