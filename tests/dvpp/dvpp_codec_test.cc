// JPEG and PNG through DVPP: header queries, decoding against TurboJPEG's and libpng's own output, JPEG
// encoding round trips, and files that are not what they claim.
#include <turbojpeg.h>

#include <cmath>
#include <string>

#include "dvpp_test_util.h"

namespace dvpp_test {
namespace {

using DvppCodecTest = DvppTest;

uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

TEST_F(DvppCodecTest, JpegHeaderQueriesReportSizeComponentsAndSubsampling) {
  const auto jpeg = MakeJpeg(333, 257, TJSAMP_420, 1);
  uint32_t w = 0, h = 0;
  int32_t comps = 0;
  acldvppJpegFormat fmt = ACL_JPEG_CSS_UNKNOWN;
  ASSERT_ACL_OK(acldvppJpegGetImageInfoV2(jpeg.data(), static_cast<uint32_t>(jpeg.size()), &w, &h, &comps, &fmt));
  EXPECT_EQ(w, 333u);
  EXPECT_EQ(h, 257u);
  EXPECT_EQ(comps, 3);
  EXPECT_EQ(fmt, ACL_JPEG_CSS_420);
  const auto grey = MakeJpeg(64, 40, TJSAMP_GRAY, 2);
  ASSERT_ACL_OK(acldvppJpegGetImageInfoV2(grey.data(), static_cast<uint32_t>(grey.size()), &w, &h, &comps, &fmt));
  EXPECT_EQ(comps, 1);
  EXPECT_EQ(fmt, ACL_JPEG_CSS_GRAY);
  uint32_t size = 0;
  ASSERT_ACL_OK(acldvppJpegPredictDecSize(jpeg.data(), static_cast<uint32_t>(jpeg.size()),
                                          PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size));
  EXPECT_EQ(size, Align(333, 128) * Align(257, 16) * 3 / 2);

  const auto junk = RandomBytes(500, 3);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegGetImageInfo(junk.data(), 500, &w, &h, &comps));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a JPEG"), std::string::npos);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegGetImageInfo(nullptr, 500, &w, &h, &comps));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegGetImageInfo(jpeg.data(), 0, &w, &h, &comps));
  // A truncated header.
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegGetImageInfo(jpeg.data(), 20, &w, &h, &comps));
}

// Decodes `jpeg` (w x h, subsampling tjsamp) to `format` with the samples' strides; returns the buffer.
std::vector<uint8_t> DecodeThroughDvpp(DvppTest* t, aclrtStream stream, acldvppChannelDesc* channel,
                                       const std::vector<uint8_t>& jpeg, uint32_t w, uint32_t h,
                                       acldvppPixelFormat format, uint32_t* ws_out, uint32_t* hs_out) {
  (void)t;
  DvppBuf file(jpeg.size());
  file.Upload(jpeg);
  const uint32_t ws = Align(w, 128), hs = Align(h, 16);
  const uint32_t size = ws * hs * 3 / 2;
  DvppBuf out(size);
  Pic desc(out.get(), size, format, w, h, ws, hs);
  EXPECT_ACL_OK(acldvppSetPicDescRetCode(desc.get(), 77));
  EXPECT_ACL_OK(acldvppJpegDecodeAsync(channel, file.get(), static_cast<uint32_t>(jpeg.size()), desc.get(), stream));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(acldvppGetPicDescRetCode(desc.get()), 0u);
  *ws_out = ws;
  *hs_out = hs;
  return out.Download(size);
}

TEST_F(DvppCodecTest, Jpeg420DecodesToNv12AndNv21ExactlyAsTurboJpeg) {
  const uint32_t w = 333, h = 257;  // odd: the last chroma sample covers one pixel
  const auto jpeg = MakeJpeg(w, h, TJSAMP_420, 11);
  const auto ref = TurboPlanes(jpeg, w, h, TJSAMP_420);
  const uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  for (acldvppPixelFormat format : {PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420}) {
    uint32_t ws = 0, hs = 0;
    const auto got = DecodeThroughDvpp(this, stream_, channel_, jpeg, w, h, format, &ws, &hs);
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(got[size_t{y} * ws + x], ref[0][size_t{y} * w + x]) << x << "," << y;
    }
    const bool uv = format == PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    const uint8_t* chroma = got.data() + size_t{ws} * hs;
    for (uint32_t y = 0; y < ch; ++y) {
      for (uint32_t x = 0; x < cw; ++x) {
        ASSERT_EQ(chroma[size_t{y} * ws + 2 * x + (uv ? 0 : 1)], ref[1][size_t{y} * cw + x]) << "U " << x << "," << y;
        ASSERT_EQ(chroma[size_t{y} * ws + 2 * x + (uv ? 1 : 0)], ref[2][size_t{y} * cw + x]) << "V " << x << "," << y;
      }
    }
  }
}

TEST_F(DvppCodecTest, GreyAnd444JpegsDecodeToNv12WithNeutralOrAveragedChroma) {
  const uint32_t w = 96, h = 64;
  uint32_t ws = 0, hs = 0;
  const auto grey = MakeJpeg(w, h, TJSAMP_GRAY, 21);
  const auto ref_grey = TurboPlanes(grey, w, h, TJSAMP_GRAY);
  auto got = DecodeThroughDvpp(this, stream_, channel_, grey, w, h, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &ws, &hs);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(got[size_t{y} * ws + x], ref_grey[0][size_t{y} * w + x]);
  }
  for (uint32_t y = 0; y < h / 2; ++y) {
    for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(got[size_t{ws} * hs + size_t{y} * ws + x], 128);
  }
  const auto full = MakeJpeg(w, h, TJSAMP_444, 22);
  const auto ref = TurboPlanes(full, w, h, TJSAMP_444);
  got = DecodeThroughDvpp(this, stream_, channel_, full, w, h, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &ws, &hs);
  for (uint32_t y = 0; y < h / 2; ++y) {
    for (uint32_t x = 0; x < w / 2; ++x) {
      const auto avg = [&](const std::vector<uint8_t>& p) {
        const uint32_t s = p[(2 * y) * w + 2 * x] + p[(2 * y) * w + 2 * x + 1] + p[(2 * y + 1) * w + 2 * x] +
                           p[(2 * y + 1) * w + 2 * x + 1];
        return static_cast<uint8_t>((s + 2) / 4);
      };
      ASSERT_EQ(got[size_t{ws} * hs + size_t{y} * ws + 2 * x], avg(ref[1]));
      ASSERT_EQ(got[size_t{ws} * hs + size_t{y} * ws + 2 * x + 1], avg(ref[2]));
    }
  }
}

TEST_F(DvppCodecTest, ACorruptFileFailsTheStreamAndMarksTheOutput) {
  const uint32_t w = 64, h = 48, ws = 128, hs = 48, size = ws * hs * 3 / 2;
  auto junk = RandomBytes(2000, 31);
  DvppBuf file(junk.size()), out(size);
  file.Upload(junk);
  Pic desc(out.get(), size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
  // The data is read when the stream reaches the task: the call itself succeeds.
  ASSERT_ACL_OK(acldvppJpegDecodeAsync(channel_, file.get(), 2000, desc.get(), stream_));
  EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(stream_));
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("acldvppJpegDecodeAsync"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a JPEG"), std::string::npos) << msg;
  EXPECT_NE(acldvppGetPicDescRetCode(desc.get()), 0u);
  // The stream goes on.
  const auto jpeg = MakeJpeg(w, h, TJSAMP_420, 32);
  DvppBuf good(jpeg.size());
  good.Upload(jpeg);
  ASSERT_ACL_OK(acldvppJpegDecodeAsync(channel_, good.get(), static_cast<uint32_t>(jpeg.size()), desc.get(), stream_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(acldvppGetPicDescRetCode(desc.get()), 0u);
}

TEST_F(DvppCodecTest, DecodeRefusesBadArgumentsBeforeQueueing) {
  const auto jpeg = MakeJpeg(64, 48, TJSAMP_420, 41);
  DvppBuf file(jpeg.size()), out(128 * 48 * 3 / 2);
  file.Upload(jpeg);
  const uint32_t n = static_cast<uint32_t>(jpeg.size());
  {
    Pic small(out.get(), 1000, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 48, 128, 48);  // size too small
    EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(channel_, file.get(), n, small.get(), stream_));
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("size 1000"), std::string::npos);
  }
  Pic ok(out.get(), 128 * 48 * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 48, 128, 48);
  std::vector<uint8_t> host(jpeg);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(channel_, host.data(), n, ok.get(), stream_));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("host memory"), std::string::npos);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(nullptr, file.get(), n, ok.get(), stream_));
  acldvppChannelDesc* idle = acldvppCreateChannelDesc();
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(idle, file.get(), n, ok.get(), stream_));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not created"), std::string::npos);
  EXPECT_ACL_OK(acldvppDestroyChannelDesc(idle));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(channel_, file.get(), n,
                                                            reinterpret_cast<acldvppPicDesc*>(host.data()), stream_));
  {
    Pic rgb(out.get(), 128 * 48 * 3 / 2, PIXEL_FORMAT_RGB_888, 32, 48, 128, 48);
    EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(channel_, file.get(), n, rgb.get(), stream_));
  }
  // A channel for VPC only does not decode.
  acldvppChannelDesc* vpc = acldvppCreateChannelDesc();
  ASSERT_ACL_OK(acldvppSetChannelDescMode(vpc, DVPP_CHNMODE_VPC));
  ASSERT_ACL_OK(acldvppCreateChannel(vpc));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppJpegDecodeAsync(vpc, file.get(), n, ok.get(), stream_));
  EXPECT_ACL_OK(acldvppDestroyChannel(vpc));
  EXPECT_ACL_OK(acldvppDestroyChannelDesc(vpc));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(DvppCodecTest, JpegEncodeRoundTripsAnNv12Picture) {
  const uint32_t w = 160, h = 120, ws = 160, hs = 120, size = ws * hs * 3 / 2;
  std::vector<uint8_t> nv12 = SmoothPlane(w, h, 51);
  const auto u = SmoothPlane(w / 2, h / 2, 52), v = SmoothPlane(w / 2, h / 2, 53);
  for (size_t i = 0; i < u.size(); ++i) {
    nv12.push_back(u[i]);
    nv12.push_back(v[i]);
  }
  DvppBuf in(size);
  in.Upload(nv12);
  Pic desc(in.get(), size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
  acldvppJpegeConfig* config = acldvppCreateJpegeConfig();
  ASSERT_ACL_OK(acldvppSetJpegeConfigLevel(config, 95));
  EXPECT_EQ(acldvppGetJpegeConfigLevel(config), 95u);
  uint32_t bound = 0;
  ASSERT_ACL_OK(acldvppJpegPredictEncSize(desc.get(), config, &bound));
  DvppBuf out(bound);
  uint32_t written = bound;
  ASSERT_ACL_OK(acldvppJpegEncodeAsync(channel_, desc.get(), out.get(), &written, config, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_GT(written, 100u);
  ASSERT_LE(written, bound);
  const auto jpeg = out.Download(written);
  const auto planes = TurboPlanes(jpeg, w, h, TJSAMP_420);
  double err = 0;
  for (size_t i = 0; i < size_t{w} * h; ++i) err += std::pow(planes[0][i] - nv12[i], 2);
  const double psnr = 10 * std::log10(255.0 * 255.0 / (err / (w * h)));
  EXPECT_GT(psnr, 35.0);
  // Too small an output buffer fails the task, not the call.
  uint32_t tiny = 64;
  ASSERT_ACL_OK(acldvppJpegEncodeAsync(channel_, desc.get(), out.get(), &tiny, config, stream_));
  EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(stream_));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("more than the 64 "), std::string::npos);
  EXPECT_ACL_OK(acldvppDestroyJpegeConfig(config));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppDestroyJpegeConfig(config));  // twice
}

TEST_F(DvppCodecTest, PngDecodesToRgbAndRgbaExactly) {
  const uint32_t w = 70, h = 45;
  const auto rgba = RandomBytes(size_t{w} * h * 4, 61);
  const auto png = MakePng(rgba, w, h);
  uint32_t pw = 0, ph = 0;
  int32_t comps = 0;
  ASSERT_ACL_OK(acldvppPngGetImageInfo(png.data(), static_cast<uint32_t>(png.size()), &pw, &ph, &comps));
  EXPECT_EQ(pw, w);
  EXPECT_EQ(ph, h);
  EXPECT_EQ(comps, 4);
  DvppBuf file(png.size());
  file.Upload(png);
  for (acldvppPixelFormat format : {PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_RGBA_8888}) {
    const uint32_t bpp = format == PIXEL_FORMAT_RGB_888 ? 3 : 4;
    uint32_t size = 0;
    ASSERT_ACL_OK(acldvppPngPredictDecSize(png.data(), static_cast<uint32_t>(png.size()), format, &size));
    const uint32_t ws = Align(w * bpp, 128), hs = Align(h, 16);
    EXPECT_EQ(size, ws * hs);
    DvppBuf out(size);
    Pic desc(out.get(), size, format, w, h, ws, hs);
    ASSERT_ACL_OK(acldvppPngDecodeAsync(channel_, file.get(), static_cast<uint32_t>(png.size()), desc.get(), stream_));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
    const auto got = out.Download(size);
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        for (uint32_t c = 0; c < bpp; ++c) {
          ASSERT_EQ(got[size_t{y} * ws + x * bpp + c], rgba[(size_t{y} * w + x) * 4 + c]) << x << "," << y << "," << c;
        }
      }
    }
  }
  const auto junk = RandomBytes(300, 62);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppPngGetImageInfo(junk.data(), 300, &pw, &ph, &comps));
}

}  // namespace
}  // namespace dvpp_test
