// The VPC through DVPP: resizing against a reference written here (OpenCV's INTER_LINEAR and INTER_NEAREST
// conventions), crop and paste exactness, colour conversion against the BT.601 full-range matrix, batches, and
// bad regions and descriptions.
#include <algorithm>
#include <cmath>
#include <string>

#include "dvpp_test_util.h"

namespace dvpp_test {
namespace {

using DvppVpcTest = DvppTest;

// A w x h plane resized to dw x dh, as the VPC documents it: bilinear with pixel centres aligned.
std::vector<uint8_t> RefBilinear(const std::vector<uint8_t>& src, uint32_t w, uint32_t h, uint32_t dw, uint32_t dh) {
  std::vector<uint8_t> out(size_t{dw} * dh);
  for (uint32_t y = 0; y < dh; ++y) {
    const double fy = std::clamp((y + 0.5) * h / dh - 0.5, 0.0, h - 1.0);
    const uint32_t y0 = static_cast<uint32_t>(fy), y1 = std::min(y0 + 1, h - 1);
    for (uint32_t x = 0; x < dw; ++x) {
      const double fx = std::clamp((x + 0.5) * w / dw - 0.5, 0.0, w - 1.0);
      const uint32_t x0 = static_cast<uint32_t>(fx), x1 = std::min(x0 + 1, w - 1);
      const double ax = fx - x0, ay = fy - y0;
      const double v = (1 - ay) * ((1 - ax) * src[y0 * w + x0] + ax * src[y0 * w + x1]) +
                       ay * ((1 - ax) * src[y1 * w + x0] + ax * src[y1 * w + x1]);
      out[size_t{y} * dw + x] = static_cast<uint8_t>(std::lround(v));
    }
  }
  return out;
}

// A picture of NV12 bytes (Y rows of `ws`, then `hs / 2` chroma rows) filled with random planes.
struct Nv12 {
  uint32_t w, h, ws, hs;
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> Y() const {
    std::vector<uint8_t> p(size_t{w} * h);
    for (uint32_t y = 0; y < h; ++y) std::copy_n(&bytes[size_t{y} * ws], w, &p[size_t{y} * w]);
    return p;
  }
  std::vector<uint8_t> Chroma(int which) const {  // 0 U, 1 V
    std::vector<uint8_t> p(size_t{w / 2} * (h / 2));
    for (uint32_t y = 0; y < h / 2; ++y) {
      for (uint32_t x = 0; x < w / 2; ++x) p[size_t{y} * (w / 2) + x] = bytes[size_t{ws} * hs + size_t{y} * ws + 2 * x + which];
    }
    return p;
  }
  uint32_t size() const { return ws * hs * 3 / 2; }
};

Nv12 RandomNv12(uint32_t w, uint32_t h, uint32_t ws, uint32_t hs, uint32_t seed) {
  return Nv12{w, h, ws, hs, RandomBytes(size_t{ws} * hs * 3 / 2, seed)};
}

int MaxDiff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  int d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(int{a[i]} - int{b[i]}));
  return d;
}

TEST_F(DvppVpcTest, ResizeMatchesBilinearAndNearestReferences) {
  const Nv12 in = RandomNv12(100, 60, 112, 60, 1);
  const uint32_t dw = 64, dh = 38, dws = 64, dhs = 38;
  DvppBuf src(in.size()), dst(dws * dhs * 3 / 2);
  src.Upload(in.bytes);
  Pic pin(src.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, in.w, in.h, in.ws, in.hs);
  Pic pout(dst.get(), dws * dhs * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, dw, dh, dws, dhs);
  acldvppResizeConfig* config = acldvppCreateResizeConfig();
  ASSERT_ACL_OK(acldvppVpcResizeAsync(channel_, pin.get(), pout.get(), config, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  Nv12 out{dw, dh, dws, dhs, dst.Download(dws * dhs * 3 / 2)};
  EXPECT_LE(MaxDiff(out.Y(), RefBilinear(in.Y(), in.w, in.h, dw, dh)), 1);
  EXPECT_LE(MaxDiff(out.Chroma(0), RefBilinear(in.Chroma(0), in.w / 2, in.h / 2, dw / 2, dh / 2)), 1);
  EXPECT_LE(MaxDiff(out.Chroma(1), RefBilinear(in.Chroma(1), in.w / 2, in.h / 2, dw / 2, dh / 2)), 1);

  ASSERT_ACL_OK(acldvppSetResizeConfigInterpolation(config, 2));
  EXPECT_EQ(acldvppGetResizeConfigInterpolation(config), 2u);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppSetResizeConfigInterpolation(config, 9));
  ASSERT_ACL_OK(acldvppVpcResizeAsync(channel_, pin.get(), pout.get(), config, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  out.bytes = dst.Download(dws * dhs * 3 / 2);
  const auto y = out.Y(), ref_y = in.Y();
  for (uint32_t r = 0; r < dh; ++r) {
    for (uint32_t c = 0; c < dw; ++c) {
      const uint32_t sx = std::min(static_cast<uint32_t>(std::floor(c * 100.0 / 64)), 99u);
      const uint32_t sy = std::min(static_cast<uint32_t>(std::floor(r * 60.0 / 38)), 59u);
      ASSERT_EQ(y[size_t{r} * dw + c], ref_y[size_t{sy} * in.w + sx]) << c << "," << r;
    }
  }
  EXPECT_ACL_OK(acldvppDestroyResizeConfig(config));
}

// A decoded odd-sized picture (the samples resize 1024 x 683 JPEGs whole): its last chroma row covers one luma
// row, and the whole picture is a valid region.
TEST_F(DvppVpcTest, AnOddSizedPictureResizesWhole) {
  const uint32_t w = 101, h = 75, ws = 128, hs = 80;
  const auto bytes = RandomBytes(size_t{ws} * hs * 3 / 2, 7);
  DvppBuf src(bytes.size()), dst(64 * 48 * 3 / 2);
  src.Upload(bytes);
  Pic pin(src.get(), static_cast<uint32_t>(bytes.size()), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
  Pic pout(dst.get(), 64 * 48 * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 48, 64, 48);
  acldvppResizeConfig* config = acldvppCreateResizeConfig();
  ASSERT_ACL_OK(acldvppVpcResizeAsync(channel_, pin.get(), pout.get(), config, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const auto got = dst.Download(64 * 48 * 3 / 2);
  std::vector<uint8_t> y(size_t{w} * h), v((w + 1) / 2 * size_t{(h + 1) / 2});
  for (uint32_t r = 0; r < h; ++r) std::copy_n(&bytes[size_t{r} * ws], w, &y[size_t{r} * w]);
  for (uint32_t r = 0; r < (h + 1) / 2; ++r) {
    for (uint32_t c = 0; c < (w + 1) / 2; ++c) v[size_t{r} * ((w + 1) / 2) + c] = bytes[size_t{ws} * hs + size_t{r} * ws + 2 * c + 1];
  }
  EXPECT_LE(MaxDiff(std::vector<uint8_t>(got.begin(), got.begin() + 64 * 48), RefBilinear(y, w, h, 64, 48)), 1);
  std::vector<uint8_t> got_v;
  for (size_t i = 0; i < 32 * 24; ++i) got_v.push_back(got[64 * 48 + 2 * i + 1]);
  EXPECT_LE(MaxDiff(got_v, RefBilinear(v, (w + 1) / 2, (h + 1) / 2, 32, 24)), 1);
  EXPECT_ACL_OK(acldvppDestroyResizeConfig(config));
}

TEST_F(DvppVpcTest, CropAndPasteCopiesTheRegionAndKeepsTheRestOfTheOutput) {
  const Nv12 in = RandomNv12(100, 80, 112, 80, 2);
  Nv12 canvas = RandomNv12(80, 64, 80, 64, 3);
  DvppBuf src(in.size()), dst(canvas.size());
  src.Upload(in.bytes);
  dst.Upload(canvas.bytes);
  Pic pin(src.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, in.w, in.h, in.ws, in.hs);
  Pic pout(dst.get(), canvas.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, canvas.w, canvas.h, canvas.ws, canvas.hs);
  acldvppRoiConfig* crop = acldvppCreateRoiConfig(10, 49, 20, 59);  // 40 x 40
  acldvppRoiConfig* paste = acldvppCreateRoiConfig(16, 55, 8, 47);
  ASSERT_ACL_OK(acldvppVpcCropAndPasteAsync(channel_, pin.get(), pout.get(), crop, paste, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const auto got = dst.Download(canvas.size());
  for (uint32_t y = 0; y < canvas.h; ++y) {
    for (uint32_t x = 0; x < canvas.w; ++x) {
      const bool inside = x >= 16 && x <= 55 && y >= 8 && y <= 47;
      const uint8_t want = inside ? in.bytes[size_t{y - 8 + 20} * in.ws + (x - 16 + 10)] : canvas.bytes[size_t{y} * 80 + x];
      ASSERT_EQ(got[size_t{y} * 80 + x], want) << x << "," << y;
    }
  }
  for (uint32_t cy = 0; cy < canvas.h / 2; ++cy) {
    for (uint32_t b = 0; b < canvas.w; ++b) {  // interleaved U, V bytes
      const uint32_t cx = b / 2;
      const bool inside = cx >= 8 && cx <= 27 && cy >= 4 && cy <= 23;
      const size_t at = size_t{80} * 64 + size_t{cy} * 80 + b;
      const uint8_t want = inside ? in.bytes[size_t{in.ws} * in.hs + size_t{cy - 4 + 10} * in.ws + (cx - 8 + 5) * 2 + b % 2]
                                  : canvas.bytes[at];
      ASSERT_EQ(got[at], want) << b << "," << cy;
    }
  }
  // Odd crop starts split a chroma sample: refused with the reason.
  ASSERT_ACL_OK(acldvppSetRoiConfig(crop, 11, 50, 20, 59));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppVpcCropAndPasteAsync(channel_, pin.get(), pout.get(), crop, paste, stream_));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("must be even"), std::string::npos);
  ASSERT_ACL_OK(acldvppSetRoiConfig(crop, 10, 149, 20, 59));  // outside the picture
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppVpcCropAsync(channel_, pin.get(), pout.get(), crop, stream_));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("does not lie inside"), std::string::npos);
  // The same buffer as input and output.
  ASSERT_ACL_OK(acldvppSetRoiConfig(crop, 10, 49, 20, 59));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppVpcCropAsync(channel_, pin.get(), pin.get(), crop, stream_));
  EXPECT_ACL_OK(acldvppDestroyRoiConfig(crop));
  EXPECT_ACL_OK(acldvppDestroyRoiConfig(paste));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(DvppVpcTest, ConvertColorFollowsTheFullRangeBt601Matrix) {
  const Nv12 in = RandomNv12(64, 32, 64, 32, 4);
  const uint32_t ws = 64 * 3, size = ws * 32;
  DvppBuf src(in.size()), dst(size);
  src.Upload(in.bytes);
  Pic pin(src.get(), in.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32, 64, 32);
  Pic pout(dst.get(), size, PIXEL_FORMAT_BGR_888, 64, 32, ws, 32);
  ASSERT_ACL_OK(acldvppVpcConvertColorAsync(channel_, pin.get(), pout.get(), stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const auto got = dst.Download(size);
  const auto Y = in.Y(), U = in.Chroma(0), V = in.Chroma(1);
  for (uint32_t y = 0; y < 32; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      const double yy = Y[y * 64 + x], u = U[(y / 2) * 32 + x / 2] - 128.0, v = V[(y / 2) * 32 + x / 2] - 128.0;
      const auto c8 = [](double d) { return static_cast<int>(std::clamp(std::lround(d), 0L, 255L)); };
      const int r = c8(yy + 1.402 * v), g = c8(yy - 0.344136 * u - 0.714136 * v), b = c8(yy + 1.772 * u);
      ASSERT_NEAR(got[y * ws + x * 3 + 0], b, 1) << x << "," << y;
      ASSERT_NEAR(got[y * ws + x * 3 + 1], g, 1);
      ASSERT_NEAR(got[y * ws + x * 3 + 2], r, 1);
    }
  }
}

TEST_F(DvppVpcTest, BatchCropTakesRoiNumsRegionsOfEachSource) {
  const Nv12 a = RandomNv12(64, 64, 64, 64, 5), b = RandomNv12(64, 64, 64, 64, 6);
  DvppBuf sa(a.size()), sb(b.size());
  sa.Upload(a.bytes);
  sb.Upload(b.bytes);
  acldvppBatchPicDesc* src = acldvppCreateBatchPicDesc(2);
  acldvppBatchPicDesc* dst = acldvppCreateBatchPicDesc(3);
  const struct { DvppBuf* buf; } srcs[2] = {{&sa}, {&sb}};
  for (uint32_t i = 0; i < 2; ++i) {
    acldvppPicDesc* p = acldvppGetPicDesc(src, i);
    ASSERT_NE(p, nullptr);
    ASSERT_ACL_OK(acldvppSetPicDescData(p, srcs[i].buf->get()));
    ASSERT_ACL_OK(acldvppSetPicDescSize(p, a.size()));
    ASSERT_ACL_OK(acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
    ASSERT_ACL_OK(acldvppSetPicDescWidth(p, 64));
    ASSERT_ACL_OK(acldvppSetPicDescHeight(p, 64));
    ASSERT_ACL_OK(acldvppSetPicDescWidthStride(p, 64));
    ASSERT_ACL_OK(acldvppSetPicDescHeightStride(p, 64));
  }
  EXPECT_EQ(acldvppGetPicDesc(src, 2), nullptr);
  // A picture of a batch is destroyed with it.
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppDestroyPicDesc(acldvppGetPicDesc(src, 0)));
  std::vector<std::unique_ptr<DvppBuf>> outs;
  for (uint32_t i = 0; i < 3; ++i) {
    outs.push_back(std::make_unique<DvppBuf>(16 * 16 * 3 / 2));
    acldvppPicDesc* p = acldvppGetPicDesc(dst, i);
    ASSERT_ACL_OK(acldvppSetPicDescData(p, outs.back()->get()));
    ASSERT_ACL_OK(acldvppSetPicDescSize(p, 16 * 16 * 3 / 2));
    ASSERT_ACL_OK(acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
    ASSERT_ACL_OK(acldvppSetPicDescWidth(p, 16));
    ASSERT_ACL_OK(acldvppSetPicDescHeight(p, 16));
    ASSERT_ACL_OK(acldvppSetPicDescWidthStride(p, 16));
    ASSERT_ACL_OK(acldvppSetPicDescHeightStride(p, 16));
  }
  acldvppRoiConfig* rois[3] = {acldvppCreateRoiConfig(0, 15, 0, 15), acldvppCreateRoiConfig(32, 47, 16, 31),
                               acldvppCreateRoiConfig(48, 63, 48, 63)};
  uint32_t nums[2] = {2, 1};
  ASSERT_ACL_OK(acldvppVpcBatchCropAsync(channel_, src, nums, 2, dst, rois, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const struct { const Nv12* from; uint32_t x, y; } want[3] = {{&a, 0, 0}, {&a, 32, 16}, {&b, 48, 48}};
  for (int i = 0; i < 3; ++i) {
    const auto got = outs[static_cast<size_t>(i)]->Download(16 * 16);
    for (uint32_t y = 0; y < 16; ++y) {
      for (uint32_t x = 0; x < 16; ++x) {
        ASSERT_EQ(got[y * 16 + x], want[i].from->bytes[(want[i].y + y) * 64 + want[i].x + x]) << i;
      }
    }
  }
  uint32_t too_many[2] = {2, 2};
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppVpcBatchCropAsync(channel_, src, too_many, 2, dst, rois, stream_));
  for (auto* r : rois) EXPECT_ACL_OK(acldvppDestroyRoiConfig(r));
  EXPECT_ACL_OK(acldvppDestroyBatchPicDesc(src));
  EXPECT_ACL_OK(acldvppDestroyBatchPicDesc(dst));
}

TEST_F(DvppVpcTest, HandlesAreCheckedAndUnsupportedPartsSaySo) {
  acldvppPicDesc* pic = acldvppCreatePicDesc();
  ASSERT_NE(pic, nullptr);
  EXPECT_EQ(acldvppGetPicDescFormat(pic), PIXEL_FORMAT_YUV_400);
  EXPECT_ACL_OK(acldvppDestroyPicDesc(pic));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppDestroyPicDesc(pic));       // twice
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppSetPicDescWidth(pic, 10));  // after destruction
  EXPECT_EQ(acldvppGetPicDescWidth(pic), 0u);
  int not_a_handle[16] = {};
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppSetPicDescWidth(reinterpret_cast<acldvppPicDesc*>(not_a_handle), 10));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppCreateChannel(reinterpret_cast<acldvppChannelDesc*>(not_a_handle)));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppCreateChannel(channel_));  // created already
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppSetChannelDescMode(channel_, 8));
  void* p = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, acldvppMalloc(&p, 0));
  EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclvdecCreateChannel(nullptr));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not simulated"), std::string::npos);
}

}  // namespace
}  // namespace dvpp_test
