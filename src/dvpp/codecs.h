// The JPEG and PNG codecs of the simulated DVPP: libjpeg-turbo (TurboJPEG) and libpng, on host buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "dvpp/image.h"

namespace npurt::dvpp {

struct JpegInfo {
  uint32_t width = 0;
  uint32_t height = 0;
  int32_t components = 0;
  uint32_t subsampling = 0;  // acldvppJpegFormat: 444, 422, 420, GRAY, 440, 411
};

// The header of a JPEG file; ACL_ERROR_INVALID_PARAM naming the defect when it is not one.
StatusOr<JpegInfo> ReadJpegInfo(const uint8_t* data, size_t size);
// The file's Y, Cb, Cr planes at its own chroma subsampling (Y alone for a grey JPEG).
StatusOr<Image> DecodeJpeg(const uint8_t* data, size_t size);
// A baseline JPEG of a YUV image (chroma subsampled 2x2, 2x1 or not at all, or grey) at `quality` 1..100.
StatusOr<std::vector<uint8_t>> EncodeJpeg(const Image& yuv, int quality);
// An upper bound of EncodeJpeg's output for a picture of this size and subsampling.
uint64_t JpegEncodeBound(uint32_t width, uint32_t height, int sx, int sy);

struct PngInfo {
  uint32_t width = 0;
  uint32_t height = 0;
  int32_t components = 0;  // 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA
};

StatusOr<PngInfo> ReadPngInfo(const uint8_t* data, size_t size);
// R, G, B planes, and A when `alpha`.
StatusOr<Image> DecodePng(const uint8_t* data, size_t size, bool alpha);

}  // namespace npurt::dvpp
