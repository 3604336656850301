#include "aipp_insert.h"

#include <cstdlib>

#include "atc_options.h"

namespace npurt::atc {
namespace {


Status Bad(const std::string& why) {
  return Err(kFail, "E10001: parameter [--insert_op_conf] is invalid. Reason: {}", why);
}

std::string Field(const AippOp& op, const char* name, const char* def) {
  auto it = op.fields.find(name);
  return it == op.fields.end() ? std::string(def) : it->second;
}
int64_t IntField(const AippOp& op, const char* name, int64_t def) {
  auto it = op.fields.find(name);
  return it == op.fields.end() ? def : std::strtoll(it->second.c_str(), nullptr, 10);
}
float FloatField(const AippOp& op, const char* name, float def) {
  auto it = op.fields.find(name);
  return it == op.fields.end() ? def : std::strtof(it->second.c_str(), nullptr);
}
bool BoolField(const AippOp& op, const char* name) {
  const std::string v = Field(op, name, "false");
  return v == "true" || v == "1";
}

}  // namespace

Status CheckAippSupported(const AippConfig& config, bool gears) {
  if (config.ops.empty()) return Status::Ok();
  if (gears) {
    return Bad("AIPP together with --dynamic_batch_size/--dynamic_image_size/--dynamic_dims is not supported yet");
  }
  for (const AippOp& op : config.ops) {
    const std::string mode = Field(op, "aipp_mode", "");
    if (mode != "static") {
      return Bad(fmt::format("{} AIPP is not supported yet (aipp_mode: static is)", mode));
    }
    const std::string format = Field(op, "input_format", "");
    if (format != "RGB888_U8" && format != "XRGB8888_U8" && format != "YUV420SP_U8" && format != "YUV400_U8") {
      return Bad(fmt::format("input_format {} is not supported (RGB888_U8, XRGB8888_U8, YUV420SP_U8, YUV400_U8 are)",
                             format.empty() ? "(not given)" : format));
    }
    for (const char* unsupported : {"resize", "support_rotation", "single_line_mode"}) {
      if (BoolField(op, unsupported)) return Bad(fmt::format("{}: true is not supported", unsupported));
    }
  }
  return Status::Ok();
}

Status InsertStaticAipp(const AippConfig& config, Graph* g) {
  std::vector<bool> taken(g->inputs.size(), false);
  for (const AippOp& op : config.ops) {
    const int64_t rank = IntField(op, "related_input_rank", 0);
    if (rank < 0 || static_cast<size_t>(rank) >= g->inputs.size()) {
      return Bad(fmt::format("related_input_rank {} names no input (the model has {})", rank, g->inputs.size()));
    }
    if (taken[static_cast<size_t>(rank)]) return Bad(fmt::format("input {} has two aipp_op", rank));
    taken[static_cast<size_t>(rank)] = true;
    const int32_t old_id = g->inputs[static_cast<size_t>(rank)];
    const TensorSpec model_in = g->tensors[static_cast<size_t>(old_id)].spec;
    const std::string format = Field(op, "input_format", "");
    const int64_t channels = format == "YUV400_U8" ? 1 : 3;
    if (model_in.rank() != 4 || model_in.dims[1] != channels || (model_in.dtype != 0 && model_in.dtype != 1)) {
      return Bad(fmt::format("input {} is {}; AIPP feeds a float NCHW input with {} channel(s)", rank,
                             Describe(model_in), channels));
    }
    const int64_t n = model_in.dims[0], h = model_in.dims[2], w = model_in.dims[3];
    int64_t pt = 0, pb = 0, pl = 0, pr = 0;
    if (BoolField(op, "padding")) {
      pt = IntField(op, "top_padding_size", 0);
      pb = IntField(op, "bottom_padding_size", 0);
      pl = IntField(op, "left_padding_size", 0);
      pr = IntField(op, "right_padding_size", 0);
    }
    const int64_t inner_h = h - pt - pb, inner_w = w - pl - pr;
    const bool crop = BoolField(op, "crop");
    int64_t src_w = IntField(op, "src_image_size_w", 0), src_h = IntField(op, "src_image_size_h", 0);
    if (src_w == 0) src_w = crop ? 0 : inner_w;
    if (src_h == 0) src_h = crop ? 0 : inner_h;
    if (src_w <= 0 || src_h <= 0) return Bad("crop: true needs src_image_size_w and src_image_size_h");
    const int64_t cx = crop ? IntField(op, "load_start_pos_w", 0) : 0, cy = crop ? IntField(op, "load_start_pos_h", 0) : 0;
    int64_t cw = crop ? IntField(op, "crop_size_w", 0) : src_w, ch = crop ? IntField(op, "crop_size_h", 0) : src_h;
    if (cw == 0) cw = inner_w;
    if (ch == 0) ch = inner_h;
    if (ch + pt + pb != h || cw + pl + pr != w) {
      return Bad(fmt::format("the AIPP output is {}x{} (crop {}x{} plus padding), input {} of the model is {}x{} "
                             "(H x W)", ch + pt + pb, cw + pl + pr, ch, cw, rank, h, w));
    }
    AttrMap attrs;
    attrs["input_format"] = format;
    attrs["src_image_size_w"] = src_w;
    attrs["src_image_size_h"] = src_h;
    attrs["crop"] = std::vector<int64_t>{cx, cy, cw, ch};
    attrs["csc_switch"] = BoolField(op, "csc_switch");
    attrs["rbuv_swap_switch"] = BoolField(op, "rbuv_swap_switch");
    attrs["ax_swap_switch"] = BoolField(op, "ax_swap_switch");
    std::vector<int64_t> matrix;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        matrix.push_back(IntField(op, ("matrix_r" + std::to_string(r) + "c" + std::to_string(c)).c_str(), 0));
      }
    }
    attrs["csc_matrix"] = matrix;
    std::vector<int64_t> in_bias, out_bias, mean;
    std::vector<float> min, var;
    for (int i = 0; i < 3; ++i) {
      const std::string k = std::to_string(i);
      in_bias.push_back(IntField(op, ("input_bias_" + k).c_str(), 0));
      out_bias.push_back(IntField(op, ("output_bias_" + k).c_str(), 0));
      mean.push_back(IntField(op, ("mean_chn_" + k).c_str(), 0));
      min.push_back(FloatField(op, ("min_chn_" + k).c_str(), 0.0f));
      var.push_back(FloatField(op, ("var_reci_chn_" + k).c_str(), 1.0f));
    }
    attrs["input_bias"] = in_bias;
    attrs["output_bias"] = out_bias;
    attrs["mean_chn"] = mean;
    attrs["min_chn"] = min;
    attrs["var_reci_chn"] = var;
    attrs["padding"] = std::vector<int64_t>{pt, pb, pl, pr};
    attrs["padding_value"] = FloatField(op, "padding_value", 0.0f);

    // The image input takes the model input's name and index; the old input becomes the Aipp node's output.
    Tensor image;
    Tensor& old = g->tensors[static_cast<size_t>(old_id)];
    image.name = old.name;
    image.kind = TensorKind::kInput;
    image.input_index = old.input_index;
    const int64_t depth = format == "RGB888_U8" ? 3 : format == "XRGB8888_U8" ? 4 : 1;
    const int64_t rows = format == "YUV420SP_U8" ? src_h * 3 / 2 : src_h;
    image.spec = TensorSpec{4 /* ACL_UINT8 */, depth > 1 ? 1 /* ACL_FORMAT_NHWC */ : 2 /* ND */, {n, rows, src_w, depth}};
    old.name += "_aipp";
    old.kind = TensorKind::kIntermediate;
    old.input_index = -1;
    const int32_t image_id = g->AddTensor(std::move(image));
    g->inputs[static_cast<size_t>(rank)] = image_id;
    Node node;
    node.name = "aipp_" + std::to_string(rank);
    node.source_type = "Aipp";
    node.op_type = "Aipp";
    node.attrs = std::move(attrs);
    node.inputs = {image_id};
    node.outputs = {old_id};
    g->nodes.insert(g->nodes.begin(), std::move(node));
  }
  return Status::Ok();
}

}  // namespace npurt::atc
