// The Aipp operator (static AI pre-processing, src/drivers/host/ops/kernels/aipp.cc) against a reference
// written from CANN's documented pipeline: swaps -> crop -> colour-space conversion -> normalisation ->
// padding, for every supported image format, on seeded random images; and its refusals.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "run_op.h"

namespace npurt::ops {
namespace {

struct Case {
  std::string format;
  int64_t n = 1, w = 8, h = 6;
  std::array<int64_t, 4> crop{0, 0, 8, 6};  // x, y, w, h
  std::array<int64_t, 4> pad{0, 0, 0, 0};   // top, bottom, left, right
  bool csc = false, rbuv = false, ax = false;
  std::array<int64_t, 9> matrix{256, 0, 0, 0, 256, 0, 0, 0, 256};
  std::array<int64_t, 3> in_bias{0, 0, 0}, out_bias{0, 0, 0}, mean{0, 0, 0};
  std::array<float, 3> min{0, 0, 0}, var{1, 1, 1};
  float pad_value = 0;
  aclDataType out = ACL_FLOAT;

  int64_t depth() const { return format == "RGB888_U8" ? 3 : format == "XRGB8888_U8" ? 4 : 1; }
  int64_t rows() const { return format == "YUV420SP_U8" ? h * 3 / 2 : h; }
  int64_t channels() const { return format == "YUV400_U8" ? 1 : 3; }
  AttrMap Attrs() const {
    AttrMap a;
    a["input_format"] = format;
    a["src_image_size_w"] = w;
    a["src_image_size_h"] = h;
    a["crop"] = std::vector<int64_t>(crop.begin(), crop.end());
    a["padding"] = std::vector<int64_t>(pad.begin(), pad.end());
    a["csc_switch"] = csc;
    a["rbuv_swap_switch"] = rbuv;
    a["ax_swap_switch"] = ax;
    a["csc_matrix"] = std::vector<int64_t>(matrix.begin(), matrix.end());
    a["input_bias"] = std::vector<int64_t>(in_bias.begin(), in_bias.end());
    a["output_bias"] = std::vector<int64_t>(out_bias.begin(), out_bias.end());
    a["mean_chn"] = std::vector<int64_t>(mean.begin(), mean.end());
    a["min_chn"] = std::vector<float>(min.begin(), min.end());
    a["var_reci_chn"] = std::vector<float>(var.begin(), var.end());
    a["padding_value"] = pad_value;
    return a;
  }

  // The reference, pixel by pixel in double.
  std::vector<double> Reference(const std::vector<uint8_t>& img) const {
    const int64_t oh = crop[3] + pad[0] + pad[1], ow = crop[2] + pad[2] + pad[3], c_out = channels();
    const int64_t frame = rows() * w * depth();
    std::vector<double> y(static_cast<size_t>(n * c_out * oh * ow));
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* f = img.data() + i * frame;
      for (int64_t oy = 0; oy < oh; ++oy) {
        for (int64_t ox = 0; ox < ow; ++ox) {
          double v[3] = {pad_value, pad_value, pad_value};
          const int64_t sy = oy - pad[0] + crop[1], sx = ox - pad[2] + crop[0];
          if (oy >= pad[0] && oy < pad[0] + crop[3] && ox >= pad[2] && ox < pad[2] + crop[2]) {
            int64_t px[3] = {0, 0, 0};
            if (format == "YUV420SP_U8") {
              const int64_t uv = h * w + (sy / 2) * w + (sx / 2) * 2;
              px[0] = f[sy * w + sx];
              px[1] = f[rbuv ? uv + 1 : uv];
              px[2] = f[rbuv ? uv : uv + 1];
            } else if (format == "YUV400_U8") {
              px[0] = f[sy * w + sx];
            } else {
              const int64_t at = (sy * w + sx) * depth() + (format == "XRGB8888_U8" && !ax ? 1 : 0);
              px[0] = f[at];
              px[1] = f[at + 1];
              px[2] = f[at + 2];
              if (rbuv) std::swap(px[0], px[2]);
            }
            int64_t q[3] = {px[0], px[1], px[2]};
            if (csc) {
              for (int r = 0; r < 3; ++r) {
                int64_t acc = 0;
                for (int k = 0; k < 3; ++k) acc += matrix[static_cast<size_t>(r * 3 + k)] * (px[k] - in_bias[static_cast<size_t>(k)]);
                const int64_t shifted = static_cast<int64_t>(std::floor(static_cast<double>(acc) / 256.0));
                q[r] = std::clamp<int64_t>(shifted + out_bias[static_cast<size_t>(r)], 0, 255);
              }
            }
            for (int k = 0; k < 3; ++k) {
              v[k] = (static_cast<double>(q[k]) - static_cast<double>(mean[static_cast<size_t>(k)]) -
                      min[static_cast<size_t>(k)]) * var[static_cast<size_t>(k)];
            }
          }
          for (int64_t c = 0; c < c_out; ++c) y[static_cast<size_t>(((i * c_out + c) * oh + oy) * ow + ox)] = v[c];
        }
      }
    }
    return y;
  }
};

void Check(const Case& c, uint32_t seed) {
  std::mt19937 rng(seed);
  HostTensor x(ACL_UINT8, {c.n, c.rows(), c.w, c.depth()});
  for (auto& b : x.bytes) b = static_cast<uint8_t>(rng());
  const int64_t oh = c.crop[3] + c.pad[0] + c.pad[1], ow = c.crop[2] + c.pad[2] + c.pad[3];
  auto r = RunOp("Aipp", {&x}, {HostTensor(c.out, {c.n, c.channels(), oh, ow})}, c.Attrs());
  ASSERT_TRUE(r.status.ok()) << c.format << ": " << r.status.message();
  ASSERT_EQ(r.outputs[0].dims, (std::vector<int64_t>{c.n, c.channels(), oh, ow}));
  const std::vector<double> want = c.Reference(x.bytes);
  for (size_t i = 0; i < want.size(); ++i) {
    const double got = npurt_test::Get(r.outputs[0].bytes.data(), c.out, i);
    const double tol = (c.out == ACL_FLOAT16 ? 2e-3 : 1e-6) * (1.0 + std::fabs(want[i]));
    ASSERT_NEAR(got, want[i], tol) << c.format << " at " << i;
  }
}

TEST(Aipp, Rgb888NormalisesCropsAndPads) {
  Case c;
  c.format = "RGB888_U8";
  c.n = 2;
  c.w = 10;
  c.h = 7;
  c.crop = {2, 1, 6, 5};
  c.pad = {1, 2, 3, 0};
  c.pad_value = -0.5f;
  c.min = {123.675f, 116.28f, 103.53f};
  c.var = {0.0171247538f, 0.0175070028f, 0.0174291939f};
  Check(c, 1);
  c.rbuv = true;  // BGR images
  c.mean = {104, 117, 123};
  c.min = {0, 0, 0};
  Check(c, 2);
  c.out = ACL_FLOAT16;
  Check(c, 3);
}

TEST(Aipp, Xrgb8888WithAndWithoutAxSwap) {
  Case c;
  c.format = "XRGB8888_U8";
  c.w = 5;
  c.h = 4;
  c.crop = {0, 0, 5, 4};
  c.var = {0.5f, 0.25f, 2.0f};
  Check(c, 4);
  c.ax = true;
  Check(c, 5);
}

TEST(Aipp, Yuv400OneChannel) {
  Case c;
  c.format = "YUV400_U8";
  c.n = 3;
  c.mean = {128, 0, 0};
  c.var = {1.0f / 128, 1, 1};
  Check(c, 6);
}

TEST(Aipp, Yuv420spToRgbThroughTheCscMatrix) {
  Case c;
  c.format = "YUV420SP_U8";
  c.w = 8;
  c.h = 6;
  c.crop = {2, 2, 4, 4};
  c.csc = true;
  // BT.601 YUV (full range) to RGB, as CANN's AIPP samples configure it.
  c.matrix = {256, 0, 359, 256, -88, -183, 256, 454, 0};
  c.in_bias = {0, 128, 128};
  Check(c, 7);
  c.rbuv = true;  // NV21
  c.out_bias = {16, 0, 8};
  Check(c, 8);
}

TEST(Aipp, Refusals) {
  Case ok;
  ok.format = "RGB888_U8";
  HostTensor x(ACL_UINT8, {1, 6, 8, 3});
  HostTensor y(ACL_FLOAT, {1, 3, 6, 8});
  auto refuse = [&](AttrMap a, const HostTensor& in, const char* expect) {
    HostTensor copy = in;
    auto r = RunOp("Aipp", {&copy}, {y}, a);
    ASSERT_FALSE(r.status.ok()) << expect;
    EXPECT_NE(r.status.message().find(expect), std::string::npos) << r.status.message();
  };
  AttrMap a = ok.Attrs();
  a["input_format"] = std::string("YUYV_U8");
  refuse(a, x, "not supported");
  a = ok.Attrs();
  a["crop"] = std::vector<int64_t>{4, 0, 8, 6};
  refuse(a, x, "does not lie in");
  a = ok.Attrs();
  a["csc_matrix"] = std::vector<int64_t>{70000, 0, 0, 0, 256, 0, 0, 0, 256};
  refuse(a, x, "int16");
  a = ok.Attrs();
  a["mean_chn"] = std::vector<int64_t>{1, 2};
  refuse(a, x, "needs 3 values");
  a = ok.Attrs();
  a["padding"] = std::vector<int64_t>{-1, 0, 0, 0};
  refuse(a, x, "padding");
  refuse(ok.Attrs(), HostTensor(ACL_UINT8, {1, 6, 8, 4}), "must be [N, 6, 8, 3]");
  refuse(ok.Attrs(), HostTensor(ACL_FLOAT, {1, 6, 8, 3}), "");
  a = ok.Attrs();
  a["input_format"] = std::string("YUV420SP_U8");
  a["src_image_size_w"] = int64_t{7};
  refuse(a, HostTensor(ACL_UINT8, {1, 9, 7, 1}), "even sizes");
}

}  // namespace
}  // namespace npurt::ops
