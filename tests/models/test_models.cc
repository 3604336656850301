#include "test_models.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

#include "acl/acl_base_rt.h"
#include "models/om/om_writer.h"

namespace npurt::test {

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& f : v) f = d(gen);
  return v;
}

namespace {

// Conv2D 3x3, stride 1, pad 1, NCHW.
om::NodeDef Conv3x3(std::vector<int32_t> inputs, int32_t output) {
  om::NodeDef conv;
  conv.name = "/conv/Conv";
  conv.source_type = "Conv";
  conv.op_type = "Conv2D";
  conv.inputs = std::move(inputs);
  conv.outputs = {output};
  conv.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
  conv.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  conv.attrs["dilations"] = std::vector<int64_t>{1, 1, 1, 1};
  conv.attrs["groups"] = int64_t{1};
  conv.attrs["data_format"] = std::string("NCHW");
  return conv;
}

// Appends a tensor to `d` and returns its index.
int32_t AddTensor(om::ModelDef* d, std::string name, int32_t dtype, int32_t format, std::vector<int64_t> dims,
                  om::Region region, uint64_t offset = 0, uint32_t io = 0) {
  om::TensorDef t;
  t.name = std::move(name);
  t.spec = TensorSpec{dtype, format, std::move(dims)};
  t.bytes = t.spec.bytes();
  t.region = region;
  t.offset = offset;
  t.io_index = io;
  d->tensors.push_back(std::move(t));
  return static_cast<int32_t>(d->tensors.size() - 1);
}

// The weight region (w at 0, b at b_off), the plan's figures, and the serialized file.
std::vector<uint8_t> Finish(om::ModelDef* d, const std::vector<float>& w, const std::vector<float>& b, uint64_t b_off) {
  d->weight_size = b_off + 64;
  d->plan_lower_bound = d->arena_size;
  d->plan_no_reuse = d->arena_size;
  std::vector<uint8_t> weights(d->weight_size, 0);
  std::memcpy(weights.data(), w.data(), w.size() * 4);
  std::memcpy(weights.data() + b_off, b.data(), b.size() * 4);
  auto file = om::SerializeModel(*d, weights);
  if (!file.ok()) throw std::runtime_error(file.status().message());
  return std::move(file).value();
}

}  // namespace

ConvReluAdd MakeConvReluAdd(uint32_t seed) {
  ConvReluAdd m;
  m.w = RandomFloats(4 * 3 * 3 * 3, seed);
  m.b = RandomFloats(4, seed + 1);
  om::ModelDef d;
  d.name = "conv_relu_add";
  d.producer = "npurt tests";
  d.soc_version = "Ascend910B1";
  auto tensor = [&](std::string name, std::vector<int64_t> dims, om::Region region, uint64_t offset, uint32_t io) {
    return AddTensor(&d, std::move(name), ACL_FLOAT, ACL_FORMAT_NCHW, std::move(dims), region, offset, io);
  };
  const int32_t x = tensor("x", {1, 3, 8, 8}, om::Region::kInput, 0, 0);
  const int32_t r = tensor("residual", {1, 4, 8, 8}, om::Region::kInput, 0, 1);
  const int32_t w = tensor("conv.weight", {4, 3, 3, 3}, om::Region::kWeight, 0, 0);
  const uint64_t b_off = (m.w.size() * 4 + 63) / 64 * 64;
  const int32_t b = tensor("conv.bias", {4}, om::Region::kWeight, b_off, 0);
  d.tensors[b].spec.format = ACL_FORMAT_ND;
  const int32_t y = tensor("conv_out", {1, 4, 8, 8}, om::Region::kArena, 0, 0);
  const int32_t out0 = tensor("relu_out", {1, 4, 8, 8}, om::Region::kOutput, 0, 0);
  const int32_t out1 = tensor("sum_out", {1, 4, 8, 8}, om::Region::kOutput, 0, 1);
  d.inputs = {x, r};
  d.outputs = {out0, out1};
  om::NodeDef conv = Conv3x3({x, w, b}, y);
  conv.origin_names = {"/conv/Conv", "/bn/BatchNormalization"};
  om::NodeDef relu;
  relu.name = "/relu/Relu";
  relu.source_type = "Relu";
  relu.op_type = "Relu";
  relu.inputs = {y};
  relu.outputs = {out0};
  om::NodeDef add;
  add.name = "/add/Add";
  add.source_type = "Add";
  add.op_type = "Add";
  add.inputs = {out0, r};
  add.outputs = {out1};
  d.nodes = {conv, relu, add};
  d.arena_size = d.tensors[y].bytes;
  m.file = Finish(&d, m.w, m.b, b_off);
  m.arena = d.arena_size;
  m.weights = d.weight_size;
  return m;
}

void ConvReluAdd::Reference(const std::vector<float>& x, const std::vector<float>& r, std::vector<float>* out0,
                            std::vector<float>* out1) const {
  out0->assign(kOut, 0.0f);
  out1->assign(kOut, 0.0f);
  for (int o = 0; o < 4; ++o) {
    for (int h = 0; h < 8; ++h) {
      for (int wi = 0; wi < 8; ++wi) {
        double acc = b[o];
        for (int c = 0; c < 3; ++c) {
          for (int kh = 0; kh < 3; ++kh) {
            for (int kw = 0; kw < 3; ++kw) {
              const int ih = h + kh - 1, iw = wi + kw - 1;
              if (ih < 0 || ih >= 8 || iw < 0 || iw >= 8) continue;
              acc += double(x[(c * 8 + ih) * 8 + iw]) * w[((o * 3 + c) * 3 + kh) * 3 + kw];
            }
          }
        }
        const size_t i = (o * 8 + h) * 8 + wi;
        (*out0)[i] = acc > 0 ? static_cast<float>(acc) : 0.0f;
        (*out1)[i] = (*out0)[i] + r[i];
      }
    }
  }
}

GearConvRelu MakeGearConvRelu(int kind, uint32_t seed) {
  GearConvRelu m;
  m.kind = kind;
  m.w = RandomFloats(4 * 3 * 3 * 3, seed);
  m.b = RandomFloats(4, seed + 1);
  const uint64_t b_off = (m.w.size() * 4 + 63) / 64 * 64;
  std::vector<int64_t> tpl;
  int32_t format = ACL_FORMAT_NCHW;
  switch (kind) {
    case 1:
      tpl = {-1, 3, 8, 8};
      m.values = {{1}, {2}, {4}};
      m.x_dims = {{1, 3, 8, 8}, {2, 3, 8, 8}, {4, 3, 8, 8}};
      m.default_gear = 2;
      break;
    case 2:
      tpl = {1, 3, -1, -1};
      m.values = {{8, 8}, {16, 16}, {4, 12}};
      m.x_dims = {{1, 3, 8, 8}, {1, 3, 16, 16}, {1, 3, 4, 12}};
      m.default_gear = 1;
      break;
    default:
      tpl = {-1, 3, -1, 8};
      m.values = {{1, 8}, {2, 4}, {1, 16}};
      m.x_dims = {{1, 3, 8, 8}, {2, 3, 4, 8}, {1, 3, 16, 8}};
      m.default_gear = 2;
      format = ACL_FORMAT_ND;
      break;
  }
  // One gear's graph: x, W, b, the conv output (arena), y, the selector.
  auto graph = [&](size_t g, om::ModelDef* d, uint64_t* arena) {
    const std::vector<int64_t>& xd = m.x_dims[g];
    auto tensor = [&](std::string name, std::vector<int64_t> dims, int32_t dtype, int32_t fmt, om::Region region,
                      uint64_t offset, uint32_t io) {
      return AddTensor(d, std::move(name), dtype, fmt, std::move(dims), region, offset, io);
    };
    const int32_t x = tensor("x", xd, ACL_FLOAT, format, om::Region::kInput, 0, 0);
    const int32_t w = tensor("conv.weight", {4, 3, 3, 3}, ACL_FLOAT, ACL_FORMAT_NCHW, om::Region::kWeight, 0, 0);
    const int32_t b = tensor("conv.bias", {4}, ACL_FLOAT, ACL_FORMAT_ND, om::Region::kWeight, b_off, 0);
    const std::vector<int64_t> yd = {xd[0], 4, xd[2], xd[3]};
    const int32_t c = tensor("conv_out", yd, ACL_FLOAT, format, om::Region::kArena, 0, 0);
    const int32_t y = tensor("y", yd, ACL_FLOAT, format, om::Region::kOutput, 0, 0);
    const int32_t sel = tensor(om::kDynamicTensorName, {static_cast<int64_t>(m.values[g].size())}, ACL_INT32,
                               ACL_FORMAT_ND, om::Region::kInput, 0, 1);
    d->inputs = {x, sel};
    d->outputs = {y};
    const om::NodeDef conv = Conv3x3({x, w, b}, c);
    om::NodeDef relu;
    relu.name = "/relu/Relu";
    relu.source_type = "Relu";
    relu.op_type = "Relu";
    relu.inputs = {c};
    relu.outputs = {y};
    d->nodes = {conv, relu};
    *arena = d->tensors[static_cast<size_t>(c)].bytes;
  };
  om::ModelDef d;
  d.name = "gear_conv_relu";
  d.producer = "npurt tests";
  d.soc_version = "Ascend910B1";
  d.dynamic_kind = static_cast<om::DynamicKind>(kind);
  d.input_templates = {{"x", tpl, {}, {}}};
  d.default_gear = static_cast<uint32_t>(m.default_gear);
  graph(m.default_gear, &d, &d.arena_size);
  for (size_t g = 0; g < m.values.size(); ++g) {
    om::GearDef gear;
    gear.values = m.values[g];
    if (g == m.default_gear) {
      gear.arena_size = d.arena_size;
    } else {
      om::ModelDef gd;
      graph(g, &gd, &gear.arena_size);
      gear.tensors = gd.tensors;
      gear.nodes = gd.nodes;
      gear.inputs = gd.inputs;
      gear.outputs = gd.outputs;
    }
    d.gears.push_back(gear);
  }
  for (const auto& g : d.gears) d.arena_size = std::max(d.arena_size, g.arena_size);
  m.file = Finish(&d, m.w, m.b, b_off);
  m.arena = d.arena_size;
  return m;
}

std::vector<float> GearConvRelu::Reference(const std::vector<float>& x, const std::vector<int64_t>& xd) const {
  const int64_t n = xd[0], hh = xd[2], ww = xd[3];
  std::vector<float> y(static_cast<size_t>(n * 4 * hh * ww));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t o = 0; o < 4; ++o) {
      for (int64_t h = 0; h < hh; ++h) {
        for (int64_t wi = 0; wi < ww; ++wi) {
          double acc = b[o];
          for (int64_t c = 0; c < 3; ++c) {
            for (int64_t kh = 0; kh < 3; ++kh) {
              for (int64_t kw = 0; kw < 3; ++kw) {
                const int64_t ih = h + kh - 1, iw = wi + kw - 1;
                if (ih < 0 || ih >= hh || iw < 0 || iw >= ww) continue;
                acc += double(x[static_cast<size_t>(((i * 3 + c) * hh + ih) * ww + iw)]) *
                       w[static_cast<size_t>(((o * 3 + c) * 3 + kh) * 3 + kw)];
              }
            }
          }
          y[static_cast<size_t>(((i * 4 + o) * hh + h) * ww + wi)] = acc > 0 ? static_cast<float>(acc) : 0.0f;
        }
      }
    }
  }
  return y;
}

std::vector<uint8_t> MakeAippRelu() {
  om::ModelDef d;
  d.name = "aipp_relu";
  d.soc_version = "Ascend310";
  auto tensor = [&](const char* name, int32_t dtype, int32_t format, std::vector<int64_t> dims, om::Region region) {
    return AddTensor(&d, name, dtype, format, std::move(dims), region);
  };
  const int32_t image = tensor("image", ACL_UINT8, ACL_FORMAT_NHWC, {1, 8, 8, 3}, om::Region::kInput);
  const int32_t x = tensor("x", ACL_FLOAT, ACL_FORMAT_NCHW, {1, 3, 8, 8}, om::Region::kArena);
  const int32_t y = tensor("y", ACL_FLOAT, ACL_FORMAT_NCHW, {1, 3, 8, 8}, om::Region::kOutput);
  d.inputs = {image};
  d.outputs = {y};
  om::NodeDef aipp;
  aipp.name = "aipp_0";
  aipp.source_type = "Aipp";
  aipp.op_type = "Aipp";
  aipp.inputs = {image};
  aipp.outputs = {x};
  aipp.attrs["input_format"] = std::string("RGB888_U8");
  aipp.attrs["src_image_size_w"] = int64_t{8};
  aipp.attrs["src_image_size_h"] = int64_t{8};
  aipp.attrs["crop"] = std::vector<int64_t>{1, 0, 6, 8};
  aipp.attrs["padding"] = std::vector<int64_t>{0, 0, 1, 1};
  aipp.attrs["mean_chn"] = std::vector<int64_t>{10, 20, 30};
  aipp.attrs["var_reci_chn"] = std::vector<float>{0.5f, 0.25f, 0.125f};
  om::NodeDef relu;
  relu.name = "relu";
  relu.source_type = "Relu";
  relu.op_type = "Relu";
  relu.inputs = {x};
  relu.outputs = {y};
  d.nodes = {aipp, relu};
  d.arena_size = d.tensors[static_cast<size_t>(x)].bytes;
  d.plan_lower_bound = d.plan_no_reuse = d.arena_size;
  auto file = om::SerializeModel(d, {});
  if (!file.ok()) throw std::runtime_error(file.status().message());
  return std::move(file).value();
}

std::vector<float> AippReluReference(const std::vector<uint8_t>& image) {
  const float mean[3] = {10, 20, 30}, var[3] = {0.5f, 0.25f, 0.125f};
  std::vector<float> y(3 * 8 * 8, 0.0f);
  for (int c = 0; c < 3; ++c) {
    for (int h = 0; h < 8; ++h) {
      for (int w = 1; w < 7; ++w) {  // columns 0 and 7 are padding (0)
        const float v = (static_cast<float>(image[static_cast<size_t>((h * 8 + (w - 1 + 1)) * 3 + c)]) - mean[c]) * var[c];
        y[static_cast<size_t>((c * 8 + h) * 8 + w)] = v > 0 ? v : 0.0f;
      }
    }
  }
  return y;
}

std::string WriteTemp(const std::string& name, const std::vector<uint8_t>& bytes) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/npurt_mdl_" + std::to_string(getpid()) +
                           "_" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  return path;
}

}  // namespace npurt::test
