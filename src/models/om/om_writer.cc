// Builds the FlatBuffers model from a ModelDef and lays out the container around it.
#include "models/om/om_writer.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "acl/acl_base_rt.h"
#include "models/om/npurt_om_generated.h"
#include "models/om/om_crc.h"
#include "models/om/om_format.h"

namespace npurt::om {
namespace {

namespace fb = npurt::om::fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<fb::Attr> BuildAttr(FlatBufferBuilder& b, const std::string& name, const AttrValue& value) {
  auto n = b.CreateString(name);
  return std::visit(
      [&](const auto& v) -> Offset<fb::Attr> {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Bool, v ? 1 : 0);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Int, v);
        } else if constexpr (std::is_same_v<T, float>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Float, 0, v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return fb::CreateAttr(b, n, fb::AttrKind::String, 0, 0, b.CreateString(v));
        } else if constexpr (std::is_same_v<T, DataTypeValue>) {
          return fb::CreateAttr(b, n, fb::AttrKind::DataType, v.v);
        } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Bytes, 0, 0, 0, b.CreateVector(v));
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Ints, 0, 0, 0, 0, b.CreateVector(v));
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Floats, 0, 0, 0, 0, 0, b.CreateVector(v));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          return fb::CreateAttr(b, n, fb::AttrKind::Strings, 0, 0, 0, 0, 0, 0, b.CreateVectorOfStrings(v));
        } else if constexpr (std::is_same_v<T, std::vector<int32_t>>) {
          std::vector<int64_t> wide(v.begin(), v.end());
          return fb::CreateAttr(b, n, fb::AttrKind::DataTypes, 0, 0, 0, 0, b.CreateVector(wide));
        } else {
          std::vector<Offset<fb::IntList>> lists;
          for (const auto& l : v) lists.push_back(fb::CreateIntList(b, b.CreateVector(l)));
          return fb::CreateAttr(b, n, fb::AttrKind::IntLists, 0, 0, 0, 0, 0, 0, 0, b.CreateVector(lists));
        }
      },
      value);
}

Offset<flatbuffers::Vector<Offset<fb::Tensor>>> BuildTensors(FlatBufferBuilder& b, const std::vector<TensorDef>& list) {
  std::vector<Offset<fb::Tensor>> tensors;
  tensors.reserve(list.size());
  for (const TensorDef& t : list) {
    tensors.push_back(fb::CreateTensor(b, b.CreateString(t.name), t.spec.dtype, t.spec.format,
                                       b.CreateVector(t.spec.dims), t.bytes, static_cast<fb::Region>(t.region),
                                       t.offset, t.io_index, t.shape_slot, t.varying_dims));
  }
  return b.CreateVector(tensors);
}

Offset<flatbuffers::Vector<Offset<fb::Node>>> BuildNodes(FlatBufferBuilder& b, const std::vector<NodeDef>& list) {
  std::vector<Offset<fb::Node>> nodes;
  nodes.reserve(list.size());
  for (const NodeDef& n : list) {
    std::vector<Offset<fb::Attr>> attrs;
    for (const auto& [name, value] : n.attrs) attrs.push_back(BuildAttr(b, name, value));
    nodes.push_back(fb::CreateNode(b, b.CreateString(n.name), b.CreateString(n.source_type),
                                   b.CreateString(n.op_type), b.CreateVector(n.inputs), b.CreateVector(n.outputs),
                                   b.CreateVector(attrs), n.stream, b.CreateVector(n.waits),
                                   b.CreateVectorOfStrings(n.origin_names)));
  }
  return b.CreateVector(nodes);
}

}  // namespace

StatusOr<std::vector<uint8_t>> SerializeModel(const ModelDef& def, const std::vector<uint8_t>& weights) {
  if (weights.size() != def.weight_size) {
    return Err(ACL_ERROR_INVALID_PARAM, "the weight region has {} bytes, the model says {}", weights.size(),
               def.weight_size);
  }
  FlatBufferBuilder b(1 << 16);
  auto tensors = BuildTensors(b, def.tensors);
  auto nodes = BuildNodes(b, def.nodes);
  std::vector<Offset<fb::InputTemplate>> templates;
  for (const InputTemplate& t : def.input_templates) {
    templates.push_back(fb::CreateInputTemplate(b, b.CreateString(t.name), b.CreateVector(t.dims),
                                                t.range_min.empty() ? 0 : b.CreateVector(t.range_min),
                                                t.range_max.empty() ? 0 : b.CreateVector(t.range_max)));
  }
  std::vector<Offset<fb::Gear>> gears;
  for (size_t g = 0; g < def.gears.size(); ++g) {
    const GearDef& gd = def.gears[g];
    if (g == def.default_gear) {  // its graph is the model's own
      gears.push_back(fb::CreateGear(b, b.CreateVector(gd.values), 0, 0, 0, 0, gd.arena_size));
      continue;
    }
    auto gt = BuildTensors(b, gd.tensors);
    auto gn = BuildNodes(b, gd.nodes);
    gears.push_back(fb::CreateGear(b, b.CreateVector(gd.values), gt, gn, b.CreateVector(gd.inputs),
                                   b.CreateVector(gd.outputs), gd.arena_size));
  }
  auto model = fb::CreateModel(b, b.CreateString(def.name), b.CreateString(def.producer),
                               b.CreateString(def.soc_version), def.framework, def.source_opset,
                               b.CreateString(def.precision_mode), tensors, nodes,
                               b.CreateVector(def.inputs), b.CreateVector(def.outputs), def.arena_size,
                               def.weight_size, def.plan_lower_bound, def.plan_no_reuse, def.stream_count,
                               b.CreateString(def.command_line), static_cast<fb::DynamicKind>(def.dynamic_kind),
                               b.CreateVector(templates), b.CreateVector(gears), def.default_gear, def.single_op,
                               def.shape_options.empty() ? 0 : b.CreateString(def.shape_options),
                               def.shape_weight_size);
  b.Finish(model, fb::ModelIdentifier());

  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  // Static models stay readable by loaders of version 1; gear models need version 2, single-op models 3,
  // dynamic-shape models 4 (an older loader must refuse them rather than run them as models).
  // Shape slots (tensors whose dims depend on the data) need version 5.
  bool slots = false;
  for (const TensorDef& t : def.tensors) slots = slots || t.data_dependent();
  for (const GearDef& g : def.gears) {
    for (const TensorDef& t : g.tensors) slots = slots || t.data_dependent();
  }
  h.format_version = slots                                    ? 5
                     : def.dynamic_kind == DynamicKind::kShape ? 4
                     : def.single_op                         ? 3
                     : def.dynamic_kind == DynamicKind::kNone ? 1
                                                             : 2;
  h.header_size = sizeof(FileHeader);
  h.model_offset = sizeof(FileHeader);
  h.model_size = b.GetSize();
  h.weights_offset = (h.model_offset + h.model_size + kWeightsFileAlign - 1) / kWeightsFileAlign * kWeightsFileAlign;
  h.weights_size = weights.size();
  h.model_crc32 = Crc32(b.GetBufferPointer(), b.GetSize());
  h.weights_crc32 = Crc32(weights.data(), weights.size());
  h.header_crc32 = Crc32(&h, offsetof(FileHeader, header_crc32));

  std::vector<uint8_t> file(h.weights_offset + h.weights_size, 0);
  std::memcpy(file.data(), &h, sizeof(h));
  std::memcpy(file.data() + h.model_offset, b.GetBufferPointer(), b.GetSize());
  if (!weights.empty()) std::memcpy(file.data() + h.weights_offset, weights.data(), weights.size());
  return file;
}

Status WriteModelFile(const ModelDef& def, const std::vector<uint8_t>& weights, const std::string& path) {
  auto file = SerializeModel(def, weights);
  if (!file.ok()) return std::move(file).status();
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return Err(ACL_ERROR_INVALID_FILE, "cannot create {}: {}", tmp, std::strerror(errno));
  const auto& bytes = file.value();
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Err(ACL_ERROR_INVALID_FILE, "cannot write {}: {}", path, std::strerror(errno));
  }
  return Status::Ok();
}

}  // namespace npurt::om
