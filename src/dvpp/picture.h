// A DVPP picture as its descriptor states it (acldvppPicDesc): where it lies, its format and its geometry, and
// the layout of its planes in memory. Every DVPP operation checks its pictures with CheckPicture before it is
// queued, so the engine only ever reads and writes inside the buffer the program described.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace npurt::dvpp {

// The pixel formats DVPP processes (acldvppPixelFormat values).
enum PixelFormat : uint32_t {
  kYuv400 = 0,
  kYuv420Sp = 1,
  kYvu420Sp = 2,
  kYuv422Sp = 3,
  kYvu422Sp = 4,
  kYuv444Sp = 5,
  kYvu444Sp = 6,
  kYuyv422 = 7,
  kUyvy422 = 8,
  kYvyu422 = 9,
  kVyuy422 = 10,
  kYuv444Packed = 11,
  kRgb888 = 12,
  kBgr888 = 13,
  kArgb8888 = 14,
  kAbgr8888 = 15,
  kRgba8888 = 16,
  kBgra8888 = 17,
};

// How a supported format lies in memory.
struct FormatInfo {
  const char* name;
  bool yuv;          // YUV (or Y only) rather than RGB
  bool semiplanar;   // a Y plane, then interleaved chroma
  bool uv_order;     // chroma U before V (UV) rather than V before U
  int chroma_sx;     // horizontal and vertical chroma subsampling (1 or 2); 0 for YUV400 (no chroma)
  int chroma_sy;
  int bytes_per_pixel;  // of the first plane (packed formats: every byte of a pixel)
};

// The format's layout, or null when DVPP does not process it.
const FormatInfo* FindFormat(uint32_t format);
std::string FormatName(uint32_t format);

struct Picture {
  uint64_t data = 0;  // device address
  uint32_t size = 0;  // bytes of the buffer
  uint32_t format = 0;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t width_stride = 0;   // bytes per row of the first plane
  uint32_t height_stride = 0;  // rows of the first plane
};

// Bytes the picture's planes span with its strides (the Y plane, then the chroma plane of a semi-planar format).
uint64_t PictureBytes(const FormatInfo& f, uint32_t width_stride, uint32_t height_stride);

// The limits of the simulated DVPP: sides of 1..kMaxSide pixels.
inline constexpr uint32_t kMaxSide = 8192;

// Checks `pic` (named `what` in the message) against its format: a supported format, sides in range, strides
// that hold a row and the rows, a size that holds the planes, and a buffer that lies in live device memory.
Status CheckPicture(const Picture& pic, const char* what);

// A region [left, right] x [top, bottom] of a picture, both ends included.
struct Region {
  uint32_t left = 0, right = 0, top = 0, bottom = 0;
  uint32_t width() const { return right - left + 1; }
  uint32_t height() const { return bottom - top + 1; }
};

// Checks that `r` lies inside `pic` and, for subsampled chroma, starts and ends on whole chroma samples.
Status CheckRegion(const Region& r, const Picture& pic, const char* what);

}  // namespace npurt::dvpp
