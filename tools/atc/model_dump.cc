#include "model_dump.h"

#include <fstream>
#include <map>

#include <onnx/onnx_pb.h>

#include "base/dtype.h"
#include "models/om/om_reader.h"
#include "onnx_model.h"

namespace npurt::atc {
namespace {


nlohmann::json AttrToJson(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> nlohmann::json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, DataTypeValue>) return nlohmann::json{{"dtype", DTypeName(x.v)}};
        else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) return nlohmann::json{{"bytes", x.size()}};
        else if constexpr (std::is_same_v<T, std::vector<int32_t>>) {
          nlohmann::json l = nlohmann::json::array();
          for (int32_t d : x) l.push_back(DTypeName(d));
          return nlohmann::json{{"dtypes", l}};
        } else return nlohmann::json(x);
      },
      v);
}


nlohmann::json OnnxToJson(const onnx::ModelProto& m) {
  nlohmann::json j;
  j["ir_version"] = m.ir_version();
  j["producer"] = m.producer_name() + " " + m.producer_version();
  for (const auto& op : m.opset_import()) j["opset_import"][op.domain().empty() ? "ai.onnx" : op.domain()] = op.version();
  const auto& g = m.graph();
  j["graph"]["name"] = g.name();
  auto vi = [](const onnx::ValueInfoProto& v) {
    nlohmann::json d = nlohmann::json::array();
    for (const auto& dim : v.type().tensor_type().shape().dim()) {
      if (dim.has_dim_value()) d.push_back(dim.dim_value());
      else d.push_back(dim.dim_param().empty() ? "?" : dim.dim_param());
    }
    return nlohmann::json{{"name", v.name()}, {"type", OnnxTypeName(v.type().tensor_type().elem_type())}, {"dims", d}};
  };
  for (const auto& v : g.input()) j["graph"]["input"].push_back(vi(v));
  for (const auto& v : g.output()) j["graph"]["output"].push_back(vi(v));
  for (const auto& t : g.initializer()) {
    j["graph"]["initializer"].push_back(
        {{"name", t.name()}, {"type", OnnxTypeName(t.data_type())}, {"dims", std::vector<int64_t>(t.dims().begin(), t.dims().end())}});
  }
  for (const auto& n : g.node()) {
    nlohmann::json d{{"name", n.name()}, {"op_type", n.op_type()},
                     {"input", std::vector<std::string>(n.input().begin(), n.input().end())},
                     {"output", std::vector<std::string>(n.output().begin(), n.output().end())}};
    if (!n.domain().empty()) d["domain"] = n.domain();
    for (const auto& a : n.attribute()) {
      switch (a.type()) {
        case onnx::AttributeProto::INT: d["attribute"][a.name()] = a.i(); break;
        case onnx::AttributeProto::FLOAT: d["attribute"][a.name()] = a.f(); break;
        case onnx::AttributeProto::STRING: d["attribute"][a.name()] = a.s(); break;
        case onnx::AttributeProto::INTS: d["attribute"][a.name()] = std::vector<int64_t>(a.ints().begin(), a.ints().end()); break;
        case onnx::AttributeProto::FLOATS: d["attribute"][a.name()] = std::vector<float>(a.floats().begin(), a.floats().end()); break;
        case onnx::AttributeProto::TENSOR:
          d["attribute"][a.name()] = {{"tensor", OnnxTypeName(a.t().data_type())},
                                      {"dims", std::vector<int64_t>(a.t().dims().begin(), a.t().dims().end())}};
          break;
        default: d["attribute"][a.name()] = "(attribute type " + std::to_string(a.type()) + ")"; break;
      }
    }
    j["graph"]["node"].push_back(std::move(d));
  }
  return j;
}

}  // namespace

nlohmann::json ModelToJson(const om::ModelDef& def) {
  nlohmann::json j;
  j["name"] = def.name;
  j["producer"] = def.producer;
  j["soc_version"] = def.soc_version;
  j["framework"] = def.framework;
  j["source_opset"] = def.source_opset;
  j["precision_mode"] = def.precision_mode;
  j["command_line"] = def.command_line;
  j["stream_count"] = def.stream_count;
  j["plan"] = {{"arena_size", def.arena_size}, {"weight_size", def.weight_size},
               {"lower_bound", def.plan_lower_bound}, {"no_reuse", def.plan_no_reuse}};
  j["inputs"] = def.inputs;
  j["outputs"] = def.outputs;
  j["tensors"] = nlohmann::json::array();
  for (size_t i = 0; i < def.tensors.size(); ++i) {
    const om::TensorDef& t = def.tensors[i];
    nlohmann::json d{{"id", i},
                     {"name", t.name},
                     {"dtype", DTypeName(t.spec.dtype)},
                     {"format", FormatName(t.spec.format)},
                     {"dims", t.spec.dims},
                     {"bytes", t.bytes},
                     {"region", om::RegionName(t.region)}};
    if (t.region == om::Region::kArena || t.region == om::Region::kWeight) d["offset"] = t.offset;
    else d["io_index"] = t.io_index;
    if (t.data_dependent()) {  // dims are the bound; the actual ones live there
      d["shape_slot"] = t.shape_slot;
      d["varying_dims"] = t.varying_dims;
    }
    j["tensors"].push_back(std::move(d));
  }
  j["nodes"] = nlohmann::json::array();
  for (const om::NodeDef& n : def.nodes) {
    nlohmann::json d{{"name", n.name}, {"source_type", n.source_type}, {"op_type", n.op_type},
                     {"inputs", n.inputs}, {"outputs", n.outputs}, {"stream", n.stream}};
    if (!n.waits.empty()) d["waits"] = n.waits;
    d["attrs"] = nlohmann::json::object();
    for (const auto& [k, v] : n.attrs) d["attrs"][k] = AttrToJson(v);
    j["nodes"].push_back(std::move(d));
  }
  if (def.dynamic_kind != om::DynamicKind::kNone) {
    nlohmann::json g{{"kind", om::DynamicKindName(def.dynamic_kind)}, {"default_gear", def.default_gear}};
    g["input_templates"] = nlohmann::json::array();
    for (const om::InputTemplate& t : def.input_templates) g["input_templates"].push_back({{"name", t.name}, {"dims", t.dims}});
    g["gears"] = nlohmann::json::array();
    for (size_t k = 0; k < def.gears.size(); ++k) {
      // Each gear's graph in full, as the model's own (the default gear's is the model's).
      nlohmann::json one = k == def.default_gear ? nlohmann::json{{"graph", "the model's own"}}
                                                 : ModelToJson(om::GearModel(def, k));
      one.erase("name");
      one.erase("producer");
      one.erase("soc_version");
      one.erase("framework");
      one.erase("source_opset");
      one.erase("precision_mode");
      one.erase("command_line");
      one.erase("stream_count");
      if (one.contains("plan")) one["plan"] = {{"arena_size", def.gears[k].arena_size}};
      one["values"] = def.gears[k].values;
      g["gears"].push_back(std::move(one));
    }
    j["dynamic"] = std::move(g);
  }
  return j;
}

Status DumpModelJson(const std::string& om_path, int32_t framework, const std::string& json_path) {
  nlohmann::json j;
  if (framework == 5) {
    onnx::ModelProto m;
    int64_t opset = 0;
    std::ifstream in(om_path, std::ios::binary);
    if (!in || !m.ParseFromIstream(&in) || !m.has_graph()) {
      return Err(kFail, "E10001: Value [{}] for parameter [--om] is invalid. Reason: it is not an ONNX model", om_path);
    }
    (void)opset;
    j = OnnxToJson(m);
  } else {
    auto file = om::ReadModelDescFromFile(om_path);
    if (!file.ok()) {
      return Err(kFail, "E10001: Value [{}] for parameter [--om] is invalid. Reason: {}", om_path, file.status().message());
    }
    j = ModelToJson(file->def);
    j["container"] = {{"format_version", file->header.format_version}, {"model_bytes", file->header.model_size},
                      {"weights_offset", file->header.weights_offset}, {"weights_bytes", file->header.weights_size}};
  }
  std::ofstream out(json_path);
  if (!out) return Err(kFail, "E10001: Value [{}] for parameter [--json] is invalid. Reason: it cannot be written", json_path);
  out << j.dump(2) << "\n";
  if (!out) return Err(kFail, "writing {} failed", json_path);
  return Status::Ok();
}

StatusOr<std::string> ModelInfo(const std::string& om_path) {
  auto file = om::ReadModelDescFromFile(om_path);
  if (!file.ok()) {
    return Err(kFail, "E10001: Value [{}] for parameter [--om] is invalid. Reason: {}", om_path, file.status().message());
  }
  const om::ModelDef& d = file->def;
  std::string s;
  s += "============ Display Model Info start ============\n";
  s += fmt::format("Model name: {}\nProducer: {}\nsoc_version: {}\nframework: {} (ONNX opset {})\nprecision_mode: {}\n",
                   d.name, d.producer, d.soc_version, d.framework, d.source_opset, d.precision_mode);
  s += fmt::format("command line: {}\n", d.command_line);
  auto io = [&](const char* what, const std::vector<int32_t>& list) {
    for (size_t i = 0; i < list.size(); ++i) {
      const om::TensorDef& t = d.tensors[static_cast<size_t>(list[i])];
      s += fmt::format("{}[{}]: {} {} {} {} ({} bytes)\n", what, i, t.name, DTypeName(t.spec.dtype),
                       FormatName(t.spec.format), DimsString(t.spec.dims), t.bytes);
    }
  };
  io("input", d.inputs);
  io("output", d.outputs);
  std::map<std::string, int> ops;
  for (const auto& n : d.nodes) ++ops[n.op_type];
  s += fmt::format("nodes: {} (", d.nodes.size());
  bool first = true;
  for (const auto& [op, c] : ops) {
    s += fmt::format("{}{} {}", first ? "" : ", ", op, c);
    first = false;
  }
  s += fmt::format(")\ntensors: {}, streams: {}\n", d.tensors.size(), d.stream_count);
  const double ratio = d.plan_lower_bound == 0 ? 1.0 : static_cast<double>(d.arena_size) / static_cast<double>(d.plan_lower_bound);
  s += fmt::format("memory: work (arena) {} ({} bytes), weights {} ({} bytes)\n", MiB(d.arena_size), d.arena_size,
                   MiB(d.weight_size), d.weight_size);
  s += fmt::format("memory plan: arena {} (lower bound {}, {:.3f}x; without reuse {})\n", MiB(d.arena_size),
                   MiB(d.plan_lower_bound), ratio, MiB(d.plan_no_reuse));
  // Which of CANN's four dynamic modes the model has (users ask; shared reference acl_issues).
  s += fmt::format("dynamic mode: {}\n", om::DynamicKindName(d.dynamic_kind));
  if (d.dynamic_kind == om::DynamicKind::kShape) {
    for (const om::InputTemplate& t : d.input_templates) {
      s += fmt::format("range[{}]: min {} max {} (max -1: unbounded)\n", t.name, DimsString(t.range_min),
                       DimsString(t.range_max));
    }
    s += fmt::format("source graph: {} bytes of ONNX; a compiled graph uploads {}\n", d.weight_size,
                     MiB(d.shape_weight_size));
  } else if (d.dynamic_kind != om::DynamicKind::kNone) {
    for (size_t k = 0; k < d.gears.size(); ++k) {
      const om::ModelDef g = om::GearModel(d, k);
      std::string outs;
      for (int32_t o : g.outputs) outs += (outs.empty() ? "" : " ") + DimsString(g.tensors[static_cast<size_t>(o)].spec.dims);
      s += fmt::format("gear[{}]: values {}{}, {} nodes, arena {}, outputs {}\n", k, DimsString(d.gears[k].values),
                       k == d.default_gear ? " (default)" : "", g.nodes.size(),
                       MiB(d.gears[k].arena_size), outs);
    }
  }
  s += "============ Display Model Info end   ============";
  return s;
}

}  // namespace npurt::atc
