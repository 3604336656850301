// The checks, in order:
//   1. the header: size, magic (naming a CANN OM1/OM2 model or an ONNX file if it is one), version,
//      header CRC, part offsets and sizes inside the file;
//   2. the model part's CRC, then flatbuffers::Verifier (every offset, vector and string in bounds);
//   3. the semantics: every tensor has a known data type, static non-negative dims and the byte size they
//      imply; arena and weight tensors lie inside their regions; model inputs and outputs are the tensors
//      of their regions, one per index; nodes name existing tensors, produce each tensor at most once,
//      never write weights or inputs, and consume only tensors produced before them (so the order is a
//      valid execution order); streams and waits are in range;
//   4. (loading) the weight region's CRC.
#include "models/om/om_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"
#include "models/om/npurt_om_generated.h"
#include "models/om/om_crc.h"

namespace npurt::om {
namespace {

namespace fb = npurt::om::fb;

constexpr uint32_t kMaxStreams = 64;
constexpr size_t kMaxRank = 32;

Status NotAModel(std::string_view source, const std::string& why) {
  return Err(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, "{} is not a valid npurt model: {}", source, why);
}

Status Corrupt(std::string_view source, const std::string& why) {
  return Err(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, "model {} is corrupt: {}", source, why);
}

// What a file that is not ours looks like, for the message.
std::string WhatItLooksLike(const uint8_t* p, size_t size) {
  if (size >= 4 && std::memcmp(p, kCannOm1Magic, 4) == 0) {
    return "it is a CANN OM1 model (magic IMOD), built by Huawei's ATC for Ascend hardware; npurt runs models "
           "that npurt's atc built: convert the source model (ONNX) with npurt's atc";
  }
  if (size >= 4 && std::memcmp(p, kZipMagic, 4) == 0) {
    return "it is a zip archive (a CANN OM2 model?); npurt runs models that npurt's atc built";
  }
  // An ONNX ModelProto starts with field 1 (ir_version, varint: 0x08) and usually holds "onnx" or a
  // producer name early on.
  if (size >= 2 && p[0] == 0x08) {
    const std::string_view head(reinterpret_cast<const char*>(p), size < 256 ? size : 256);
    if (head.find("pytorch") != head.npos || head.find("onnx") != head.npos || head.find("tf2onnx") != head.npos ||
        head.find("keras") != head.npos) {
      return "it looks like an ONNX model; convert it first: atc --model=<file>.onnx --framework=5 "
             "--output=<name> --soc_version=<soc>";
    }
  }
  return "its first bytes are not npurt's magic \"NPURTOM\"";
}

// `p` holds the file's first min(file_size, 64) bytes; the parts are checked against file_size.
Status CheckHeader(const uint8_t* p, uint64_t file_size, std::string_view source, FileHeader* out) {
  const uint64_t size = file_size;
  if (size < sizeof(FileHeader)) {
    if (size >= 4 && std::memcmp(p, kMagic, 4) != 0) return NotAModel(source, WhatItLooksLike(p, size));
    return NotAModel(source, fmt::format("it has {} bytes, fewer than the {}-byte header", size, sizeof(FileHeader)));
  }
  FileHeader h;
  std::memcpy(&h, p, sizeof(h));
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0) return NotAModel(source, WhatItLooksLike(p, sizeof(h)));
  if (h.header_crc32 != Crc32(&h, offsetof(FileHeader, header_crc32))) {
    return NotAModel(source, "its header checksum does not match (the file is damaged)");
  }
  if (h.format_version == 0 || h.format_version > kFormatVersion) {
    return NotAModel(source, fmt::format("it has container format version {}; this npurt reads version {} and "
                                         "older (rebuild it with this npurt's atc)",
                                         h.format_version, kFormatVersion));
  }
  if (h.header_size != sizeof(FileHeader) || h.model_offset < sizeof(FileHeader)) {
    return NotAModel(source, fmt::format("its header size {} / model offset {} are invalid", h.header_size,
                                         h.model_offset));
  }
  const auto fits = [size](uint64_t off, uint64_t len) { return off <= size && len <= size - off; };
  if (!fits(h.model_offset, h.model_size) || !fits(h.weights_offset, h.weights_size)) {
    return NotAModel(source, fmt::format("it is truncated: it has {} bytes, its parts end at {} and {}", size,
                                         h.model_offset + h.model_size, h.weights_offset + h.weights_size));
  }
  if (h.model_size == 0 || h.model_size > std::numeric_limits<uint32_t>::max()) {
    return NotAModel(source, fmt::format("its model part has {} bytes", h.model_size));
  }
  if (h.weights_size != 0 && h.weights_offset < h.model_offset + h.model_size) {
    return NotAModel(source, "its weight region overlaps the model part");
  }
  *out = h;
  return Status::Ok();
}

// A vector's elements, copied as bytes: FlatBuffers' verifier checks a vector's 4-byte alignment only, so a
// vector of 8-byte scalars in a (mutated) file may sit at a 4-byte boundary, where reading an element as an
// int64_t is undefined (UBSan found it). The container is little-endian, as the hosts npurt runs on.
template <typename T>
std::vector<T> Vec(const flatbuffers::Vector<T>* v) {
  if (v == nullptr) return {};
  std::vector<T> out(v->size());
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

StatusOr<AttrValue> ReadAttr(const fb::Attr& a, std::string_view node) {
  auto missing = [&](const char* field) {
    return Err(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, "attribute {} of node {} has no {} value",
               a.name()->str(), node, field);
  };
  switch (a.kind()) {
    case fb::AttrKind::Bool: return AttrValue(a.i() != 0);
    case fb::AttrKind::Int: return AttrValue(static_cast<int64_t>(a.i()));
    case fb::AttrKind::Float: return AttrValue(a.f());
    case fb::AttrKind::String:
      if (a.s() == nullptr) return missing("string");
      return AttrValue(a.s()->str());
    case fb::AttrKind::DataType: return AttrValue(DataTypeValue{static_cast<int32_t>(a.i())});
    case fb::AttrKind::Bytes:
      if (a.bytes() == nullptr) return missing("bytes");
      return AttrValue(std::vector<uint8_t>(a.bytes()->begin(), a.bytes()->end()));
    case fb::AttrKind::Ints:
      if (a.ints() == nullptr) return missing("ints");
      return AttrValue(Vec(a.ints()));
    case fb::AttrKind::Floats:
      if (a.floats() == nullptr) return missing("floats");
      return AttrValue(Vec(a.floats()));
    case fb::AttrKind::Strings: {
      if (a.strings() == nullptr) return missing("strings");
      std::vector<std::string> v;
      for (const auto* s : *a.strings()) v.push_back(s->str());
      return AttrValue(std::move(v));
    }
    case fb::AttrKind::DataTypes: {
      if (a.ints() == nullptr) return missing("data types");
      std::vector<int32_t> v;
      for (int64_t d : Vec(a.ints())) {
        if (d < std::numeric_limits<int32_t>::min() || d > std::numeric_limits<int32_t>::max()) return missing("data type");
        v.push_back(static_cast<int32_t>(d));
      }
      return AttrValue(std::move(v));
    }
    case fb::AttrKind::IntLists: {
      if (a.lists() == nullptr) return missing("int lists");
      std::vector<std::vector<int64_t>> v;
      for (const auto* l : *a.lists()) {
        if (l->values() == nullptr) return missing("int list");
        v.push_back(Vec(l->values()));
      }
      return AttrValue(std::move(v));
    }
  }
  return Err(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, "attribute {} of node {} has unknown kind {}",
             a.name()->str(), node, static_cast<int>(a.kind()));
}



std::string Str(const flatbuffers::String* s) { return s == nullptr ? std::string() : s->str(); }

Status ReadTensors(const flatbuffers::Vector<flatbuffers::Offset<fb::Tensor>>* list, std::string_view source,
                   std::vector<TensorDef>* out) {
  if (list == nullptr) return Status::Ok();
  out->reserve(list->size());
  for (const fb::Tensor* t : *list) {
    TensorDef d;
    d.name = t->name()->str();
    d.spec.dtype = t->dtype();
    d.spec.format = t->format();
    d.spec.dims = Vec(t->dims());
    d.bytes = t->bytes();
    if (t->region() > fb::Region::Output) {
      return Corrupt(source, fmt::format("tensor {} has unknown region {}", d.name, static_cast<int>(t->region())));
    }
    d.region = static_cast<Region>(t->region());
    d.offset = t->offset();
    d.io_index = t->io_index();
    d.shape_slot = t->shape_slot();
    d.varying_dims = t->varying_dims();
    out->push_back(std::move(d));
  }
  return Status::Ok();
}

Status ReadNodes(const flatbuffers::Vector<flatbuffers::Offset<fb::Node>>* list, std::string_view source,
                 std::vector<NodeDef>* out) {
  if (list == nullptr) return Status::Ok();
  out->reserve(list->size());
  for (const fb::Node* n : *list) {
    NodeDef d;
    d.name = n->name()->str();
    d.source_type = Str(n->source_type());
    d.op_type = n->op_type()->str();
    d.inputs = Vec(n->inputs());
    d.outputs = Vec(n->outputs());
    d.stream = n->stream();
    d.waits = Vec(n->waits());
    if (n->origin_names() != nullptr) {
      for (const auto* s : *n->origin_names()) d.origin_names.push_back(s->str());
    }
    if (n->attrs() != nullptr) {
      for (const fb::Attr* a : *n->attrs()) {
        auto v = ReadAttr(*a, d.name);
        if (!v.ok()) return std::move(v).status();
        if (!d.attrs.emplace(a->name()->str(), std::move(v).value()).second) {
          return Corrupt(source, fmt::format("node {} has attribute {} twice", d.name, a->name()->str()));
        }
      }
    }
    out->push_back(std::move(d));
  }
  return Status::Ok();
}

Status Convert(const fb::Model& m, std::string_view source, ModelDef* def) {
  def->name = Str(m.name());
  def->producer = Str(m.producer());
  def->soc_version = Str(m.soc_version());
  def->framework = m.framework();
  def->source_opset = m.source_opset();
  def->precision_mode = Str(m.precision_mode());
  def->arena_size = m.arena_size();
  def->weight_size = m.weight_size();
  def->plan_lower_bound = m.plan_lower_bound();
  def->plan_no_reuse = m.plan_no_reuse();
  def->stream_count = m.stream_count();
  def->command_line = Str(m.command_line());
  def->inputs = Vec(m.inputs());
  def->outputs = Vec(m.outputs());
  NPURT_RETURN_IF_ERROR(ReadTensors(m.tensors(), source, &def->tensors));
  NPURT_RETURN_IF_ERROR(ReadNodes(m.nodes(), source, &def->nodes));
  if (m.dynamic_kind() > fb::DynamicKind::Shape) {
    return Corrupt(source, fmt::format("it has unknown dynamic kind {}", static_cast<int>(m.dynamic_kind())));
  }
  def->dynamic_kind = static_cast<DynamicKind>(m.dynamic_kind());
  def->default_gear = m.default_gear();
  def->single_op = m.single_op();
  def->shape_options = Str(m.shape_options());
  def->shape_weight_size = m.shape_weight_size();
  if (m.input_templates() != nullptr) {
    for (const fb::InputTemplate* t : *m.input_templates()) {
      def->input_templates.push_back({t->name()->str(), Vec(t->dims()), Vec(t->range_min()), Vec(t->range_max())});
    }
  }
  if (m.gears() != nullptr) {
    for (const fb::Gear* g : *m.gears()) {
      GearDef gd;
      gd.values = Vec(g->values());
      NPURT_RETURN_IF_ERROR(ReadTensors(g->tensors(), source, &gd.tensors));
      NPURT_RETURN_IF_ERROR(ReadNodes(g->nodes(), source, &gd.nodes));
      gd.inputs = Vec(g->inputs());
      gd.outputs = Vec(g->outputs());
      gd.arena_size = g->arena_size();
      def->gears.push_back(std::move(gd));
    }
  }
  return Status::Ok();
}

bool InRegion(uint64_t offset, uint64_t bytes, uint64_t region) { return offset <= region && bytes <= region - offset; }

Status CheckSemantics(const ModelDef& d, uint64_t weights_size, std::string_view source) {
  if (d.weight_size != weights_size) {
    return Corrupt(source, fmt::format("the model says {} weight bytes, the file holds {}", d.weight_size, weights_size));
  }
  if (d.stream_count == 0 || d.stream_count > kMaxStreams) {
    return Corrupt(source, fmt::format("it uses {} streams (1 to {} are valid)", d.stream_count, kMaxStreams));
  }
  const size_t nt = d.tensors.size();
  for (size_t i = 0; i < nt; ++i) {
    const TensorDef& t = d.tensors[i];
    if (DTypeSize(t.spec.dtype) == 0) {
      return Corrupt(source, fmt::format("tensor {} ({}) has unknown data type {}", i, t.name, t.spec.dtype));
    }
    if (t.spec.rank() > kMaxRank) return Corrupt(source, fmt::format("tensor {} has rank {}", t.name, t.spec.rank()));
    // A dynamic-shape model's inputs and outputs: -1 where the dims vary, the bytes of the largest shape.
    const bool varying = d.dynamic_kind == DynamicKind::kShape && t.spec.dynamic();
    for (int64_t dim : t.spec.dims) {
      if (dim < (varying ? -1 : 0)) {
        return Corrupt(source, fmt::format("tensor {} has dims {}", t.name, DimsString(t.spec.dims)));
      }
    }
    if ((!varying && t.bytes != t.spec.bytes()) || t.bytes == SIZE_MAX) {
      return Corrupt(source, fmt::format("tensor {} {} says {} bytes, its dims make {}", t.name,
                                         DimsString(t.spec.dims), t.bytes, t.spec.bytes()));
    }
    const bool in_arena = t.region == Region::kArena && InRegion(t.offset, t.bytes, d.arena_size);
    const bool in_weights = t.region == Region::kWeight && InRegion(t.offset, t.bytes, d.weight_size);
    if ((t.region == Region::kArena && !in_arena) || (t.region == Region::kWeight && !in_weights)) {
      return Corrupt(source, fmt::format("tensor {} ({} bytes at {}) lies outside the {} ({} bytes)", t.name, t.bytes,
                                         t.offset, RegionName(t.region),
                                         t.region == Region::kArena ? d.arena_size : d.weight_size));
    }
    if (t.varying_dims != 0 && (t.shape_slot == -1 || (t.spec.rank() < 64 && (t.varying_dims >> t.spec.rank()) != 0))) {
      return Corrupt(source, fmt::format("tensor {} of rank {} says dims {:#x} vary with the data, which only the dims "
                                         "of a tensor with a shape slot can", t.name, t.spec.rank(), t.varying_dims));
    }
    // A shape slot: an aligned run of rank int64s in the arena, for a tensor a node writes.
    if (t.shape_slot != -1) {
      const uint64_t slot_bytes = std::max<size_t>(t.spec.rank(), 1) * sizeof(int64_t);
      if ((t.region != Region::kArena && t.region != Region::kOutput) || t.shape_slot < 0 ||
          t.shape_slot % 8 != 0 || !InRegion(static_cast<uint64_t>(t.shape_slot), slot_bytes, d.arena_size)) {
        return Corrupt(source, fmt::format("tensor {} ({} of rank {}) has a shape slot at {}, which is no aligned "
                                           "slot of the arena ({} bytes) for a tensor a node writes", t.name,
                                           RegionName(t.region), t.spec.rank(), t.shape_slot, d.arena_size));
      }
    }
  }
  auto check_io = [&](const std::vector<int32_t>& list, Region region, const char* what) -> Status {
    for (size_t i = 0; i < list.size(); ++i) {
      const int32_t id = list[i];
      if (id < 0 || static_cast<size_t>(id) >= nt || d.tensors[id].region != region || d.tensors[id].io_index != i) {
        return Corrupt(source, fmt::format("{} {} names tensor {}, which is not {} {}", what, i, id, what, i));
      }
    }
    return Status::Ok();
  };
  NPURT_RETURN_IF_ERROR(check_io(d.inputs, Region::kInput, "input"));
  NPURT_RETURN_IF_ERROR(check_io(d.outputs, Region::kOutput, "output"));
  std::vector<uint8_t> ready(nt, 0);
  size_t io_tensors = 0;
  for (size_t i = 0; i < nt; ++i) {
    const Region r = d.tensors[i].region;
    if (r == Region::kWeight || r == Region::kInput) ready[i] = 1;
    if (r == Region::kInput || r == Region::kOutput) ++io_tensors;
  }
  if (io_tensors != d.inputs.size() + d.outputs.size()) {
    return Corrupt(source, "it has input or output tensors that are not model inputs or outputs");
  }
  for (size_t n = 0; n < d.nodes.size(); ++n) {
    const NodeDef& node = d.nodes[n];
    if (node.op_type.empty()) return Corrupt(source, fmt::format("node {} ({}) has no operator type", n, node.name));
    if (node.stream >= d.stream_count) {
      return Corrupt(source, fmt::format("node {} runs on stream {} of {}", node.name, node.stream, d.stream_count));
    }
    for (uint32_t w : node.waits) {
      if (w >= n) return Corrupt(source, fmt::format("node {} waits for node {}, which does not run before it", node.name, w));
    }
    for (int32_t in : node.inputs) {
      if (in == -1) continue;
      if (in < 0 || static_cast<size_t>(in) >= nt) {
        return Corrupt(source, fmt::format("node {} reads tensor {} of {}", node.name, in, nt));
      }
      if (!ready[in]) {
        return Corrupt(source, fmt::format("node {} reads tensor {} before any node wrote it", node.name,
                                           d.tensors[in].name));
      }
    }
    if (node.outputs.empty()) return Corrupt(source, fmt::format("node {} has no outputs", node.name));
    // A node that reads or writes a tensor whose dims depend on the data tiles per run: each of its outputs
    // needs a slot for the dims it writes.
    bool slotted = false;
    for (int32_t t : node.inputs) slotted = slotted || (t >= 0 && static_cast<size_t>(t) < nt && d.tensors[t].data_dependent());
    for (int32_t t : node.outputs) slotted = slotted || (t >= 0 && static_cast<size_t>(t) < nt && d.tensors[t].data_dependent());
    for (int32_t t : node.outputs) {
      if (slotted && t >= 0 && static_cast<size_t>(t) < nt && !d.tensors[t].data_dependent()) {
        return Corrupt(source, fmt::format("node {} tiles at shapes that depend on the data, but its output {} has no "
                                           "shape slot", node.name, d.tensors[t].name));
      }
    }
    for (int32_t out : node.outputs) {
      if (out < 0 || static_cast<size_t>(out) >= nt) {
        return Corrupt(source, fmt::format("node {} writes tensor {} of {}", node.name, out, nt));
      }
      const TensorDef& t = d.tensors[out];
      if (t.region == Region::kWeight || t.region == Region::kInput) {
        return Corrupt(source, fmt::format("node {} writes {} tensor {}", node.name, RegionName(t.region), t.name));
      }
      if (ready[out]) return Corrupt(source, fmt::format("tensor {} is written twice", t.name));
      ready[out] = 1;
    }
  }
  for (int32_t out : d.outputs) {  // (a dynamic-shape model's graph is compiled at run time)
    if (!ready[out] && d.dynamic_kind != DynamicKind::kShape) {
      return Corrupt(source, fmt::format("no node writes output {}", d.tensors[out].name));
    }
  }
  return Status::Ok();
}

constexpr size_t kMaxGears = 256;

bool SameIo(const TensorDef& a, const TensorDef& b) {
  return a.name == b.name && a.spec.dtype == b.spec.dtype && a.spec.format == b.spec.format &&
         a.spec.rank() == b.spec.rank();
}

// A gear model: every gear's graph is a valid static model over the shared weights and arena, with the
// model's inputs and outputs (names, types, ranks), the dims its values give the templates, and the hidden
// selector as its last input.
// A dynamic-shape model: its inputs and outputs and nothing else (the source graph is compiled at run time),
// every input named by one template whose ranges hold its dims, the conversion options present.
Status CheckShapeModel(const ModelDef& d, std::string_view source) {
  if (!d.nodes.empty() || !d.gears.empty() || d.arena_size != 0 || d.tensors.size() != d.inputs.size() + d.outputs.size()) {
    return Corrupt(source, "a dynamic-shape model carries a compiled graph");
  }
  if (d.shape_options.empty() || d.weight_size == 0) {
    return Corrupt(source, "a dynamic-shape model lacks its source graph or its conversion options");
  }
  if (d.input_templates.size() != d.inputs.size() || d.inputs.empty()) {
    return Corrupt(source, fmt::format("it has {} input templates for {} inputs", d.input_templates.size(),
                                       d.inputs.size()));
  }
  for (size_t i = 0; i < d.inputs.size(); ++i) {
    const InputTemplate& t = d.input_templates[i];
    const TensorSpec& in = d.tensors[d.inputs[i]].spec;
    if (t.name != d.tensors[d.inputs[i]].name || t.dims != in.dims || t.range_min.size() != t.dims.size() ||
        t.range_max.size() != t.dims.size()) {
      return Corrupt(source, fmt::format("input template {} does not describe input {}", t.name, i));
    }
    for (size_t k = 0; k < t.dims.size(); ++k) {
      const int64_t lo = t.range_min[k], hi = t.range_max[k], dim = t.dims[k];
      const bool ok = dim >= 0 ? lo == dim && hi == dim : lo >= 0 && (hi == -1 || hi >= lo);
      if (!ok) {
        return Corrupt(source, fmt::format("input {} has dim {} = {} with the range [{}, {}]", t.name, k, dim, lo, hi));
      }
    }
  }
  return Status::Ok();
}

Status CheckGears(const ModelDef& d, uint64_t weights_size, std::string_view source) {
  if (d.dynamic_kind == DynamicKind::kShape) return CheckShapeModel(d, source);
  if (d.dynamic_kind == DynamicKind::kNone) {
    if (!d.gears.empty() || !d.input_templates.empty()) return Corrupt(source, "a static model carries gears");
    return Status::Ok();
  }
  if (d.gears.empty() || d.gears.size() > kMaxGears) {
    return Corrupt(source, fmt::format("it has {} gears (1 to {} are valid)", d.gears.size(), kMaxGears));
  }
  if (d.default_gear >= d.gears.size()) {
    return Corrupt(source, fmt::format("its default gear {} is not one of its {}", d.default_gear, d.gears.size()));
  }
  const size_t k = GearValueCount(d.dynamic_kind, d.input_templates);
  if (k == 0) return Corrupt(source, "its input templates have no dim for the gears to set");
  const size_t ni = d.inputs.size();
  if (ni < 2) return Corrupt(source, "a gear model needs a data input and the gear selector");
  std::vector<int32_t> template_input(d.input_templates.size(), -1);
  for (size_t t = 0; t < d.input_templates.size(); ++t) {
    for (size_t i = 0; i + 1 < ni; ++i) {
      if (d.tensors[d.inputs[i]].name == d.input_templates[t].name) template_input[t] = static_cast<int32_t>(i);
    }
    if (template_input[t] < 0) {
      return Corrupt(source, fmt::format("input template {} names no input", d.input_templates[t].name));
    }
  }
  for (size_t g = 0; g < d.gears.size(); ++g) {
    const GearDef& gear = d.gears[g];
    const std::string which = fmt::format("gear {}", g);
    std::vector<std::vector<int64_t>> dims;
    for (int64_t v : gear.values) {
      if (v <= 0) return Corrupt(source, fmt::format("{} has the value {}", which, v));
    }
    if (!ApplyGear(d.dynamic_kind, d.input_templates, gear.values, &dims)) {
      return Corrupt(source, fmt::format("{} has {} values, its kind takes {}", which, gear.values.size(), k));
    }
    if (g == d.default_gear && (!gear.tensors.empty() || !gear.nodes.empty() || !gear.inputs.empty() ||
                                !gear.outputs.empty())) {
      return Corrupt(source, "the default gear has a graph of its own");
    }
    if (gear.arena_size > d.arena_size) {
      return Corrupt(source, fmt::format("{} uses {} arena bytes, the model has {}", which, gear.arena_size,
                                         d.arena_size));
    }
    ModelDef m = GearModel(d, g);
    if (g != d.default_gear) {
      m.arena_size = gear.arena_size;
      NPURT_RETURN_IF_ERROR(CheckSemantics(m, weights_size, source));
    }
    if (m.inputs.size() != ni || m.outputs.size() != d.outputs.size()) {
      return Corrupt(source, fmt::format("{} has {} inputs and {} outputs, the model {} and {}", which,
                                         m.inputs.size(), m.outputs.size(), ni, d.outputs.size()));
    }
    for (size_t i = 0; i < ni; ++i) {
      if (!SameIo(m.tensors[m.inputs[i]], d.tensors[d.inputs[i]])) {
        return Corrupt(source, fmt::format("input {} of {} differs from the model's", i, which));
      }
    }
    for (size_t o = 0; o < d.outputs.size(); ++o) {
      if (!SameIo(m.tensors[m.outputs[o]], d.tensors[d.outputs[o]])) {
        return Corrupt(source, fmt::format("output {} of {} differs from the model's", o, which));
      }
    }
    const TensorSpec& selector = m.tensors[m.inputs[ni - 1]].spec;
    if (m.tensors[m.inputs[ni - 1]].name != kDynamicTensorName || selector.dtype != 3 /* ACL_INT32 */ ||
        selector.dims != std::vector<int64_t>{static_cast<int64_t>(k)}) {
      return Corrupt(source, fmt::format("the last input of {} is not the gear selector {} (int32, [{}])", which,
                                         kDynamicTensorName, k));
    }
    for (size_t t = 0; t < dims.size(); ++t) {
      const TensorSpec& in = m.tensors[m.inputs[static_cast<size_t>(template_input[t])]].spec;
      if (in.dims != dims[t]) {
        return Corrupt(source, fmt::format("input {} of {} is {}, its values make {}", d.input_templates[t].name,
                                           which, DimsString(in.dims), DimsString(dims[t])));
      }
    }
    for (size_t i = 0; i + 1 < ni; ++i) {  // inputs without a template are the same in every gear
      const bool templated = std::find(template_input.begin(), template_input.end(), static_cast<int32_t>(i)) !=
                             template_input.end();
      if (!templated && m.tensors[m.inputs[i]].spec.dims != d.tensors[d.inputs[i]].spec.dims) {
        return Corrupt(source, fmt::format("static input {} differs in {}", i, which));
      }
    }
  }
  return Status::Ok();
}

// A single-operator model (atc --singleop): one node that reads the model's inputs and writes its outputs,
// in order, with nothing else (no weights, no arena, no gears).
Status CheckSingleOp(const ModelDef& d, std::string_view source) {
  if (!d.single_op) return Status::Ok();
  if (d.dynamic_kind != DynamicKind::kNone || d.nodes.size() != 1 || d.weight_size != 0 || d.arena_size != 0 ||
      d.stream_count != 1) {
    return Corrupt(source, fmt::format("a single-operator model must hold one operator and nothing else (it has {} "
                                       "nodes, {} weight bytes, {} arena bytes, {} streams)",
                                       d.nodes.size(), d.weight_size, d.arena_size, d.stream_count));
  }
  const NodeDef& n = d.nodes[0];
  if (n.inputs != d.inputs || n.outputs != d.outputs) {
    return Corrupt(source, fmt::format("the operator {} of a single-operator model must read the model's inputs and "
                                       "write its outputs, in order", n.op_type));
  }
  return Status::Ok();
}

}  // namespace

const char* RegionName(Region r) {
  switch (r) {
    case Region::kArena: return "arena";
    case Region::kWeight: return "weight region";
    case Region::kInput: return "input";
    case Region::kOutput: return "output";
  }
  return "?";
}

// Checks 2 and 3 on the model part (at its offset in `image`), filling file->def.
Status ReadModelPart(const uint8_t* image, std::string_view source, ModelFile* file) {
  const FileHeader& h = file->header;
  const uint8_t* model = image + h.model_offset;
  if (Crc32(model, h.model_size) != h.model_crc32) return Corrupt(source, "the model part's checksum does not match");
  flatbuffers::Verifier verifier(model, h.model_size, 64, 10'000'000);
  if (!fb::VerifyModelBuffer(verifier)) return Corrupt(source, "the model part fails the FlatBuffers verifier");
  NPURT_RETURN_IF_ERROR(Convert(*fb::GetModel(model), source, &file->def));
  NPURT_RETURN_IF_ERROR(CheckSemantics(file->def, h.weights_size, source));
  NPURT_RETURN_IF_ERROR(CheckGears(file->def, h.weights_size, source));
  return CheckSingleOp(file->def, source);
}

StatusOr<ModelFile> ReadModel(const void* data, size_t size, std::string_view source, bool check_weights) {
  if (data == nullptr) return NotAModel(source, "no data");
  const auto* p = static_cast<const uint8_t*>(data);
  ModelFile file;
  NPURT_RETURN_IF_ERROR(CheckHeader(p, size, source, &file.header));
  NPURT_RETURN_IF_ERROR(ReadModelPart(p, source, &file));
  const FileHeader& h = file.header;
  file.weights = p + h.weights_offset;
  file.weights_size = h.weights_size;
  if (check_weights && Crc32(file.weights, file.weights_size) != h.weights_crc32) {
    return Err(ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED, "model {} is corrupt: the weights' checksum does not match",
               source);
  }
  return file;
}

namespace {

Status OpenFile(const std::string& path, std::ifstream* in, uint64_t* size) {
  in->open(path, std::ios::binary | std::ios::ate);
  if (!*in) {
    return Err(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "cannot open model file {}: {}", path, std::strerror(errno));
  }
  const std::streamoff n = in->tellg();
  if (n < 0) return Err(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "cannot read model file {} (is it a directory?)", path);
  *size = static_cast<uint64_t>(n);
  in->seekg(0);
  return Status::Ok();
}

Status ReadSome(std::ifstream& in, const std::string& path, std::string* bytes, uint64_t count) {
  bytes->resize(static_cast<size_t>(count));
  if (count > 0 && !in.read(bytes->data(), static_cast<std::streamsize>(count))) {
    return Err(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "cannot read model file {}", path);
  }
  return Status::Ok();
}

}  // namespace

Status ReadFileBytes(const std::string& path, std::string* bytes) {
  std::ifstream in;
  uint64_t size = 0;
  NPURT_RETURN_IF_ERROR(OpenFile(path, &in, &size));
  return ReadSome(in, path, bytes, size);
}

StatusOr<ModelFile> ReadModelDescFromFile(const std::string& path) {
  std::ifstream in;
  uint64_t size = 0;
  NPURT_RETURN_IF_ERROR(OpenFile(path, &in, &size));
  std::string image;
  NPURT_RETURN_IF_ERROR(ReadSome(in, path, &image, std::min<uint64_t>(size, sizeof(FileHeader))));
  ModelFile file;
  NPURT_RETURN_IF_ERROR(CheckHeader(reinterpret_cast<const uint8_t*>(image.data()), size, path, &file.header));
  // The header and the model part; the weights stay on disk.
  std::string rest;
  NPURT_RETURN_IF_ERROR(ReadSome(in, path, &rest, file.header.model_offset + file.header.model_size - image.size()));
  image += rest;
  NPURT_RETURN_IF_ERROR(ReadModelPart(reinterpret_cast<const uint8_t*>(image.data()), path, &file));
  return file;
}

}  // namespace npurt::om
