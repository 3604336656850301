#include "test_models.h"

#include <unistd.h>

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

ConvReluAdd MakeConvReluAdd(uint32_t seed) {
  ConvReluAdd m;
  m.w = RandomFloats(4 * 3 * 3 * 3, seed);
  m.b = RandomFloats(4, seed + 1);
  om::ModelDef d;
  d.name = "conv_relu_add";
  d.producer = "npurt tests";
  d.soc_version = "Ascend910B1";
  auto tensor = [&](std::string name, std::vector<int64_t> dims, om::Region region, uint64_t offset,
                    uint32_t io) {
    om::TensorDef t;
    t.name = std::move(name);
    t.spec = TensorSpec{ACL_FLOAT, ACL_FORMAT_NCHW, std::move(dims)};
    t.bytes = t.spec.bytes();
    t.region = region;
    t.offset = offset;
    t.io_index = io;
    d.tensors.push_back(t);
    return static_cast<int32_t>(d.tensors.size() - 1);
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
  om::NodeDef conv;
  conv.name = "/conv/Conv";
  conv.source_type = "Conv";
  conv.op_type = "Conv2D";
  conv.inputs = {x, w, b};
  conv.outputs = {y};
  conv.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
  conv.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  conv.attrs["dilations"] = std::vector<int64_t>{1, 1, 1, 1};
  conv.attrs["groups"] = int64_t{1};
  conv.attrs["data_format"] = std::string("NCHW");
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
  d.weight_size = b_off + 64;
  d.plan_lower_bound = d.arena_size;
  d.plan_no_reuse = d.arena_size;
  std::vector<uint8_t> weights(d.weight_size, 0);
  std::memcpy(weights.data(), m.w.data(), m.w.size() * 4);
  std::memcpy(weights.data() + b_off, m.b.data(), m.b.size() * 4);
  auto file = om::SerializeModel(d, weights);
  if (!file.ok()) throw std::runtime_error(file.status().message());
  m.file = std::move(file).value();
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
