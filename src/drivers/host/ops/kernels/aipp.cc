// Aipp: static AI pre-processing (atc --insert_op_conf, aipp_mode: static), the image stage CANN puts in
// front of a model input: 8-bit images in one of four layouts become the model's normalised NCHW tensor.
// The steps run in the order CANN's hardware runs them (shared reference models.md §3.5):
//   channel swaps (R/B or U/V; X to the end) -> crop -> colour-space conversion -> normalisation -> padding.
//
//   x: uint8, the image buffer as the program fills it:
//        RGB888_U8   [N, H, W, 3]          XRGB8888_U8  [N, H, W, 4] (X first; ax_swap_switch: X last)
//        YUV400_U8   [N, H, W, 1]          YUV420SP_U8  [N, H*3/2, W, 1] (NV12: Y plane, then UV pairs;
//                                                        rbuv_swap_switch: NV21)
//   y: [N, C, crop_h + top + bottom, crop_w + left + right], float32 or float16 (C 3; 1 for YUV400)
//   attrs: input_format, src_image_size_w/_h (W and H of x), crop ([load_start_pos_w, load_start_pos_h,
//   crop_size_w, crop_size_h]; default the whole image), csc_switch, csc_matrix (9, row-major), input_bias,
//   output_bias (3 each), rbuv_swap_switch, ax_swap_switch, mean_chn (ints), min_chn, var_reci_chn (floats,
//   3 each), padding ([top, bottom, left, right]), padding_value.
//   CSC: out_i = clamp(((sum_j m_ij * (in_j - input_bias_j)) >> 8) + output_bias_i, 0, 255);
//   normalisation: (v - mean_chn_i - min_chn_i) * var_reci_chn_i.
#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <variant>

#include "acl/acl_base_rt.h"
#include "base/dtype.h"
#include "drivers/host/ops/host_op.h"
#include "drivers/host/ops/kernels/nn_common.h"

namespace npurt::drivers::host {
namespace {

enum class ImageFormat { kRgb888, kXrgb8888, kYuv400, kYuv420sp };

struct AippParams {
  ImageFormat format = ImageFormat::kRgb888;
  int64_t n = 0, src_h = 0, src_w = 0, channels = 3;
  int64_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  bool csc = false, rbuv_swap = false, ax_swap = false;
  std::array<int64_t, 9> matrix{};
  std::array<int64_t, 3> in_bias{}, out_bias{};
  std::array<float, 3> mean{}, min{}, var_reci{1.0f, 1.0f, 1.0f};
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  float pad_value = 0.0f;
  int32_t out_dtype = ACL_FLOAT;
  int64_t out_h() const { return crop_h + pad_top + pad_bottom; }
  int64_t out_w() const { return crop_w + pad_left + pad_right; }
};

class AippKernel final : public Kernel {
 public:
  explicit AippKernel(const AippParams& p) : p_(p) {}

  Status Run(const OpRunArgs& args) const override {
    const auto* x = static_cast<const uint8_t*>(args.inputs[0]);
    const int64_t oh = p_.out_h(), ow = p_.out_w(), plane = oh * ow;
    const int64_t image_bytes = p_.format == ImageFormat::kYuv420sp ? p_.src_h * p_.src_w * 3 / 2
                                                                   : p_.src_h * p_.src_w * Stride();
    for (int64_t i = 0; i < p_.n; ++i) {
      const uint8_t* img = x + i * image_bytes;
      const int64_t base = i * p_.channels * plane;
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xo = 0; xo < ow; ++xo) {
          const int64_t cy = y - p_.pad_top, cx = xo - p_.pad_left;
          const bool inside = cy >= 0 && cy < p_.crop_h && cx >= 0 && cx < p_.crop_w;
          std::array<float, 3> v{p_.pad_value, p_.pad_value, p_.pad_value};
          if (inside) v = Pixel(img, p_.crop_y + cy, p_.crop_x + cx);
          for (int64_t c = 0; c < p_.channels; ++c) Store(args.outputs[0], base + c * plane + y * ow + xo, v[c]);
        }
      }
    }
    return Status::Ok();
  }

 private:
  int64_t Stride() const {
    switch (p_.format) {
      case ImageFormat::kRgb888: return 3;
      case ImageFormat::kXrgb8888: return 4;
      default: return 1;
    }
  }

  // One source pixel through swaps, CSC and normalisation.
  std::array<float, 3> Pixel(const uint8_t* img, int64_t y, int64_t x) const {
    std::array<int64_t, 3> in{};
    switch (p_.format) {
      case ImageFormat::kRgb888: {
        const uint8_t* px = img + (y * p_.src_w + x) * 3;
        in = {px[0], px[1], px[2]};
        if (p_.rbuv_swap) std::swap(in[0], in[2]);
        break;
      }
      case ImageFormat::kXrgb8888: {
        const uint8_t* px = img + (y * p_.src_w + x) * 4 + (p_.ax_swap ? 0 : 1);
        in = {px[0], px[1], px[2]};
        if (p_.rbuv_swap) std::swap(in[0], in[2]);
        break;
      }
      case ImageFormat::kYuv400: in = {img[y * p_.src_w + x], 0, 0}; break;
      case ImageFormat::kYuv420sp: {
        const uint8_t* uv = img + p_.src_h * p_.src_w + (y / 2) * p_.src_w + (x / 2) * 2;
        in = {img[y * p_.src_w + x], uv[0], uv[1]};
        if (p_.rbuv_swap) std::swap(in[1], in[2]);
        break;
      }
    }
    std::array<int64_t, 3> c = in;
    if (p_.csc) {
      for (int r = 0; r < 3; ++r) {
        int64_t acc = 0;
        for (int k = 0; k < 3; ++k) acc += p_.matrix[static_cast<size_t>(r * 3 + k)] * (in[k] - p_.in_bias[k]);
        // An arithmetic shift: the hardware's >> 8 rounds toward minus infinity.
        const int64_t shifted = acc >= 0 ? acc / 256 : -((-acc + 255) / 256);
        c[r] = std::clamp<int64_t>(shifted + p_.out_bias[r], 0, 255);
      }
    }
    std::array<float, 3> out{};
    for (size_t k = 0; k < 3; ++k) out[k] = (static_cast<float>(c[k]) - p_.mean[k] - p_.min[k]) * p_.var_reci[k];
    return out;
  }

  void Store(void* y, int64_t at, float v) const {
    if (p_.out_dtype == ACL_FLOAT16) {
      static_cast<uint16_t*>(y)[at] = FloatToHalf(v);
    } else {
      static_cast<float*>(y)[at] = v;
    }
  }

  AippParams p_;
};

// A list attribute of exactly N values (floats may be given as ints).
template <size_t N, typename T>
Status Fixed(const OpBuild& b, const char* name, std::array<T, N>* out, std::vector<T> def) {
  std::vector<T> v = std::move(def);
  auto it = b.attrs->find(name);
  if (it != b.attrs->end()) {
    const auto* ints = std::get_if<std::vector<int64_t>>(&it->second);
    if constexpr (std::is_same_v<T, float>) {
      const auto* floats = std::get_if<std::vector<float>>(&it->second);
      if (floats == nullptr && ints == nullptr) {
        return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute {} must be a list of floats", b.type, name);
      }
      v = floats != nullptr ? *floats : std::vector<float>(ints->begin(), ints->end());
    } else {
      if (ints == nullptr) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute {} must be a list of ints", b.type, name);
      v = *ints;
    }
  }
  if (v.size() != N) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute {} needs {} values", b.type, name, N);
  std::copy(v.begin(), v.end(), out->begin());
  return Status::Ok();
}

Status BuildAipp(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_UINT8}));
  AippParams p;
  auto fmt = GetString(*b.attrs, "input_format", "");
  if (!fmt.ok()) return fmt.status();
  int64_t channels_in = 3;
  if (fmt.value() == "RGB888_U8") {
    p.format = ImageFormat::kRgb888;
  } else if (fmt.value() == "XRGB8888_U8") {
    p.format = ImageFormat::kXrgb8888;
    channels_in = 4;
  } else if (fmt.value() == "YUV400_U8") {
    p.format = ImageFormat::kYuv400;
    channels_in = 1;
    p.channels = 1;
  } else if (fmt.value() == "YUV420SP_U8") {
    p.format = ImageFormat::kYuv420sp;
    channels_in = 1;
  } else {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: input_format '{}' is not supported (RGB888_U8, XRGB8888_U8, "
               "YUV420SP_U8, YUV400_U8)", b.type, fmt.value());
  }
  auto sw = GetInt(*b.attrs, "src_image_size_w", 0), sh = GetInt(*b.attrs, "src_image_size_h", 0);
  if (!sw.ok()) return sw.status();
  if (!sh.ok()) return sh.status();
  p.src_w = sw.value();
  p.src_h = sh.value();
  constexpr int64_t kMaxSide = 1 << 16;
  if (p.src_w < 1 || p.src_h < 1 || p.src_w > kMaxSide || p.src_h > kMaxSide) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: the source image size {}x{} must be 1 to {} per side", b.type, p.src_w,
               p.src_h, kMaxSide);
  }
  if (p.format == ImageFormat::kYuv420sp && (p.src_w % 2 != 0 || p.src_h % 2 != 0)) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: YUV420SP images have even sizes, not {}x{}", b.type, p.src_w, p.src_h);
  }
  const int64_t rows = p.format == ImageFormat::kYuv420sp ? p.src_h * 3 / 2 : p.src_h;
  if (x.rank() != 4 || x.dims[1] != rows || x.dims[2] != p.src_w || x.dims[3] != channels_in || x.dims[0] < 1) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x {} must be [N, {}, {}, {}] for a {}x{} {} image", b.type,
               Describe(x), rows, p.src_w, channels_in, p.src_w, p.src_h, fmt.value());
  }
  p.n = x.dims[0];
  auto crop = GetInts(*b.attrs, "crop", {0, 0, p.src_w, p.src_h});
  if (!crop.ok()) return crop.status();
  if (crop->size() != 4) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: crop needs [x, y, w, h]", b.type);
  p.crop_x = (*crop)[0];
  p.crop_y = (*crop)[1];
  p.crop_w = (*crop)[2];
  p.crop_h = (*crop)[3];
  if (p.crop_x < 0 || p.crop_y < 0 || p.crop_w < 1 || p.crop_h < 1 || p.crop_x + p.crop_w > p.src_w ||
      p.crop_y + p.crop_h > p.src_h) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: the crop {}x{} at ({}, {}) does not lie in the {}x{} image", b.type,
               p.crop_w, p.crop_h, p.crop_x, p.crop_y, p.src_w, p.src_h);
  }
  auto flag = [&](const char* name, bool* out) -> Status {
    auto v = GetBool(*b.attrs, name, false);
    if (!v.ok()) return v.status();
    *out = v.value();
    return Status::Ok();
  };
  NPURT_RETURN_IF_ERROR(flag("csc_switch", &p.csc));
  NPURT_RETURN_IF_ERROR(flag("rbuv_swap_switch", &p.rbuv_swap));
  NPURT_RETURN_IF_ERROR(flag("ax_swap_switch", &p.ax_swap));
  NPURT_RETURN_IF_ERROR(Fixed(b, "csc_matrix", &p.matrix, {256, 0, 0, 0, 256, 0, 0, 0, 256}));
  NPURT_RETURN_IF_ERROR(Fixed(b, "input_bias", &p.in_bias, {0, 0, 0}));
  NPURT_RETURN_IF_ERROR(Fixed(b, "output_bias", &p.out_bias, {0, 0, 0}));
  std::array<int64_t, 3> mean{};
  NPURT_RETURN_IF_ERROR(Fixed(b, "mean_chn", &mean, {0, 0, 0}));
  for (size_t i = 0; i < 3; ++i) p.mean[i] = static_cast<float>(mean[i]);
  NPURT_RETURN_IF_ERROR(Fixed(b, "min_chn", &p.min, {0, 0, 0}));
  NPURT_RETURN_IF_ERROR(Fixed(b, "var_reci_chn", &p.var_reci, {1, 1, 1}));
  for (int64_t m : p.matrix) {
    if (m < -32768 || m > 32767) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: csc_matrix values are int16", b.type);
  }
  std::array<int64_t, 4> pad{};
  NPURT_RETURN_IF_ERROR(Fixed(b, "padding", &pad, {0, 0, 0, 0}));
  p.pad_top = pad[0];
  p.pad_bottom = pad[1];
  p.pad_left = pad[2];
  p.pad_right = pad[3];
  for (int64_t v : pad) {
    if (v < 0 || v > kMaxSide) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: padding sizes are 0 to {}", b.type, kMaxSide);
  }
  auto pv = GetFloat(*b.attrs, "padding_value", 0.0f);
  if (!pv.ok()) return pv.status();
  p.pad_value = pv.value();
  p.out_dtype = RequestedDType(b, 0, ACL_FLOAT);
  if (p.out_dtype != ACL_FLOAT && p.out_dtype != ACL_FLOAT16) {
    return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: y is float32 or float16", b.type);
  }
  b.outputs = {TensorSpec{p.out_dtype, ACL_FORMAT_NCHW, {p.n, p.channels, p.out_h(), p.out_w()}}};
  if (b.compile) b.kernel = std::make_unique<AippKernel>(p);
  return Status::Ok();
}

}  // namespace

void RegisterAippOps(OpTable& t) {
  t.Add({"Aipp", 1, 1, &BuildAipp, false, "uint8 -> float32, float16",
         "static AI pre-processing (atc --insert_op_conf): x uint8 image [N,H,W,3] RGB888_U8, [N,H,W,4] "
         "XRGB8888_U8, [N,H,W,1] YUV400_U8 or [N,H*3/2,W,1] YUV420SP_U8 -> y [N,C,H',W'] NCHW; channel swaps, "
         "crop, colour-space conversion, (v - mean - min) * var_reci, padding (attrs: input_format, "
         "src_image_size_w/_h, crop, csc_switch, csc_matrix, input_bias, output_bias, rbuv_swap_switch, "
         "ax_swap_switch, mean_chn, min_chn, var_reci_chn, padding, padding_value)"});
}

}  // namespace npurt::drivers::host
