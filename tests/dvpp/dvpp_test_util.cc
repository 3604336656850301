#include "dvpp_test_util.h"

#include <png.h>
#include <turbojpeg.h>

#include <cmath>
#include <cstring>
#include <random>

namespace dvpp_test {

void DvppTest::SetUpTestSuite() {
  static const bool initialized = [] {
    const aclError r = aclInit(nullptr);
    return r == ACL_SUCCESS || r == ACL_ERROR_REPEAT_INITIALIZE;
  }();
  ASSERT_TRUE(initialized);
}

void DvppTest::SetUp() {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  channel_ = acldvppCreateChannelDesc();
  ASSERT_NE(channel_, nullptr);
  ASSERT_ACL_OK(acldvppCreateChannel(channel_));
}

void DvppTest::TearDown() {
  if (channel_ != nullptr) {
    EXPECT_ACL_OK(acldvppDestroyChannel(channel_));
    EXPECT_ACL_OK(acldvppDestroyChannelDesc(channel_));
  }
  if (stream_ != nullptr) {
    EXPECT_ACL_OK(aclrtDestroyStream(stream_));
  }
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

DvppBuf::DvppBuf(size_t size) : size_(size) {
  EXPECT_EQ(ACL_SUCCESS, acldvppMalloc(&ptr_, size)) << aclGetRecentErrMsg();
}

DvppBuf::~DvppBuf() {
  if (ptr_ != nullptr) {
    EXPECT_EQ(ACL_SUCCESS, acldvppFree(ptr_)) << aclGetRecentErrMsg();
  }
}

void DvppBuf::Upload(const std::vector<uint8_t>& bytes) {
  ASSERT_LE(bytes.size(), size_);
  ASSERT_ACL_OK(aclrtMemcpy(ptr_, size_, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE));
}

std::vector<uint8_t> DvppBuf::Download(size_t n) const {
  std::vector<uint8_t> out(n);
  EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(out.data(), n, ptr_, n, ACL_MEMCPY_DEVICE_TO_HOST)) << aclGetRecentErrMsg();
  return out;
}

Pic::Pic(void* data, uint32_t size, acldvppPixelFormat format, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs)
    : desc_(acldvppCreatePicDesc()) {
  EXPECT_NE(desc_, nullptr);
  EXPECT_ACL_OK(acldvppSetPicDescData(desc_, data));
  EXPECT_ACL_OK(acldvppSetPicDescSize(desc_, size));
  EXPECT_ACL_OK(acldvppSetPicDescFormat(desc_, format));
  EXPECT_ACL_OK(acldvppSetPicDescWidth(desc_, w));
  EXPECT_ACL_OK(acldvppSetPicDescHeight(desc_, h));
  EXPECT_ACL_OK(acldvppSetPicDescWidthStride(desc_, ws));
  EXPECT_ACL_OK(acldvppSetPicDescHeightStride(desc_, hs));
}

Pic::~Pic() { EXPECT_ACL_OK(acldvppDestroyPicDesc(desc_)); }

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::vector<uint8_t> SmoothPlane(uint32_t w, uint32_t h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double a = u(rng) * 0.2, b = u(rng) * 0.2, c = u(rng) * 6.28, d = 40 + u(rng) * 150;
  std::vector<uint8_t> v(size_t{w} * h);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      v[size_t{y} * w + x] = static_cast<uint8_t>(d + 50 * std::sin(a * x + b * y + c));
    }
  }
  return v;
}

std::vector<uint8_t> MakeJpeg(uint32_t w, uint32_t h, int tjsamp, uint32_t seed) {
  tjhandle tj = tjInitCompress();
  const int iw = static_cast<int>(w), ih = static_cast<int>(h);
  const int planes = tjsamp == TJSAMP_GRAY ? 1 : 3;
  std::vector<std::vector<uint8_t>> data;
  const unsigned char* src[3] = {};
  int strides[3] = {};
  for (int c = 0; c < planes; ++c) {
    const int pw = tjPlaneWidth(c, iw, tjsamp), ph = tjPlaneHeight(c, ih, tjsamp);
    data.push_back(SmoothPlane(static_cast<uint32_t>(pw), static_cast<uint32_t>(ph), seed + static_cast<uint32_t>(c)));
    strides[c] = pw;
  }
  for (int c = 0; c < planes; ++c) src[c] = data[static_cast<size_t>(c)].data();
  unsigned char* out = nullptr;
  unsigned long size = 0;
  EXPECT_EQ(0, tjCompressFromYUVPlanes(tj, src, iw, strides, ih, tjsamp, &out, &size, 92, 0)) << tjGetErrorStr2(tj);
  std::vector<uint8_t> jpeg(out, out + size);
  tjFree(out);
  tjDestroy(tj);
  return jpeg;
}

std::vector<std::vector<uint8_t>> TurboPlanes(const std::vector<uint8_t>& jpeg, uint32_t w, uint32_t h, int tjsamp) {
  tjhandle tj = tjInitDecompress();
  const int iw = static_cast<int>(w), ih = static_cast<int>(h);
  const int planes = tjsamp == TJSAMP_GRAY ? 1 : 3;
  std::vector<std::vector<uint8_t>> out;
  unsigned char* dst[3] = {};
  int strides[3] = {};
  for (int c = 0; c < planes; ++c) {
    const int pw = tjPlaneWidth(c, iw, tjsamp), ph = tjPlaneHeight(c, ih, tjsamp);
    out.emplace_back(static_cast<size_t>(pw) * static_cast<size_t>(ph));
    strides[c] = pw;
  }
  for (int c = 0; c < planes; ++c) dst[c] = out[static_cast<size_t>(c)].data();
  EXPECT_EQ(0, tjDecompressToYUVPlanes(tj, jpeg.data(), jpeg.size(), dst, iw, strides, ih, 0)) << tjGetErrorStr2(tj);
  tjDestroy(tj);
  return out;
}

std::vector<uint8_t> MakePng(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h) {
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  image.width = w;
  image.height = h;
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = 0;
  EXPECT_NE(0, png_image_write_to_memory(&image, nullptr, &size, 0, rgba.data(), 0, nullptr));
  std::vector<uint8_t> png(size);
  EXPECT_NE(0, png_image_write_to_memory(&image, png.data(), &size, 0, rgba.data(), 0, nullptr)) << image.message;
  png.resize(size);
  return png;
}

}  // namespace dvpp_test
