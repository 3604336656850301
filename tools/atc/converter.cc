#include "converter.h"

#include <chrono>
#include <filesystem>
#include <map>

#include <fmt/ranges.h>

#include "aipp_config.h"
#include "aipp_insert.h"
#include "gear_options.h"
#include "impl_select.h"
#include "layout_pass.h"
#include "lowering.h"
#include "model_assembly.h"
#include "models/om/om_writer.h"
#include "onnx_model.h"
#include "passes.h"
#include "weight_packing.h"

#ifndef NPURT_VERSION
#define NPURT_VERSION "0.0.0"
#endif

namespace npurt::atc {
namespace {


double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}


}  // namespace

namespace {

// One graph built from the ONNX model at `shapes` (a static model's, one gear's, or one set of shapes of a
// dynamic-shape model), assembled into the container's form; its constants go to `packer` when several
// graphs share one. The model is read from opts.model, or (`parsed`, the runtime's shape compiler) copied
// from a ModelProto parsed once, without forking for shape inference and without compiling every node
// (the loader compiles them).
StatusOr<AssembledModel> BuildGraph(const Options& opts, const std::vector<InputShape>& shapes, WeightPacker* packer,
                                    const std::string& label, std::chrono::steady_clock::time_point t0,
                                    int64_t* opset, const AippConfig& aipp = {},
                                    const onnx::ModelProto* parsed = nullptr,
                                    const InitializerStore* initializers = nullptr) {
  const std::string prefix = label.empty() ? "" : label + ": ";
  onnx::ModelProto model;
  if (parsed == nullptr) {
    NPURT_RETURN_IF_ERROR(LoadOnnxModel(opts.model, shapes, &model, opset));
  } else {
    model = *parsed;
    NPURT_RETURN_IF_ERROR(ApplyInputShapes(shapes, opts.model, /*isolated_inference=*/false, *opset, &model));
  }
  Log(LogLevel::kInfo, fmt::format("{}{}: ONNX IR {}, opset {}, producer {} {}, {} nodes, {} initializers ({:.2f} s)",
                                   prefix, opts.model, model.ir_version(), *opset, model.producer_name(),
                                   model.producer_version(), model.graph().node_size(),
                                   model.graph().initializer_size(), Since(t0)));
  std::string dir = std::filesystem::path(opts.model).parent_path().string();
  if (dir.empty()) dir = ".";
  auto lowered = LowerOnnxGraph(model, *opset, opts, dir, initializers);
  if (!lowered.ok()) {
    if (label.empty()) return std::move(lowered).status();
    return Err(lowered.status().code(), "{}{}", prefix, lowered.status().message());
  }
  Graph& g = lowered->graph;
  Log(LogLevel::kInfo, fmt::format("{}lowering: {} ONNX nodes folded to constants, {} lowered into {} backend nodes "
                                   "({:.2f} s)", prefix, lowered->nodes_folded, lowered->nodes_lowered, g.nodes.size(),
                                   Since(t0)));
  if (!aipp.ops.empty()) {
    NPURT_RETURN_IF_ERROR(InsertStaticAipp(aipp, &g));
    Log(LogLevel::kInfo, fmt::format("{}AIPP: {} static Aipp node(s) in front of the model inputs", prefix,
                                     aipp.ops.size()));
  }
  if (!opts.input_fp16_nodes.empty()) {
    NPURT_RETURN_IF_ERROR(CastInputsFromFp16(g, opts.input_fp16_nodes));
    Log(LogLevel::kInfo, fmt::format("{}inputs taken as fp16: {}", prefix, fmt::join(opts.input_fp16_nodes, ", ")));
  }
  const int dead = RemoveDeadNodes(g);
  auto bn = FoldBatchNormIntoConv(g);
  if (!bn.ok()) return std::move(bn).status();
  const int gelu = FuseGelu(g);
  const int lns = FuseLayerNorm(g);
  const int linear = FuseLinearBias(g);
  // Residual adds first, so that Conv2D + Add + Relu becomes one node with post_ops ["add", "relu"].
  const int adds = opts.fusion ? FuseResidualAdds(g) : 0;
  const int acts = opts.fusion ? FuseActivations(g) : 0;
  Log(LogLevel::kInfo, fmt::format("{}passes: {} dead nodes removed, {} BatchNorms folded into Conv2D, {} GELU "
                                   "patterns fused, {} LayerNorm patterns fused, {} biases fused into MatMul, {} "
                                   "residual adds and {} activations fused{}", prefix,
                                   dead, bn.value(), gelu, lns, linear, adds, acts, opts.fusion ? "" : " (--fusion=false)"));
  const int winograd = SelectConvAlgorithms(g, opts);
  const int bf16 = SelectComputeTypes(g, opts);
  Log(LogLevel::kInfo, fmt::format("{}implementations: {} Conv2D with Winograd's algorithm, {} computing in bf16",
                                   prefix, winograd, bf16));
  if (opts.blocked_layout) {
    auto layout = AssignBlockedLayout(g);
    if (!layout.ok()) return std::move(layout).status();
    Log(LogLevel::kInfo, fmt::format("{}layout: {} activations in NC1HWC0, {} TransData nodes", prefix, layout->blocked,
                                     layout->trans_data));
  }
  if (const int chained = ChainBf16Activations(g); chained != 0) {
    Log(LogLevel::kInfo, fmt::format("{}bf16: {} activations between convolutions stored in bf16", prefix, chained));
  }
  if (opts.output_type == "FP16") NPURT_RETURN_IF_ERROR(CastOutputs(g, 1 /* ACL_FLOAT16 */));
  PropagateDataDependence(g);  // over the nodes the passes added (casts), before output copies read it
  NPURT_RETURN_IF_ERROR(EnsureOutputsWritten(g));
  PropagateDataDependence(g);
  MarkVaryingDims(g);
  if (g.outputs.empty()) return Err(kFail, "the model has no outputs");
  NPURT_RETURN_IF_ERROR(ValidateWithBackend(g, /*compile=*/parsed == nullptr));
  Log(LogLevel::kInfo, fmt::format("{}every node {} by the backend ({:.2f} s)", prefix,
                                   parsed == nullptr ? "compiled" : "checked", Since(t0)));

  // Independent branches on streams of their own (stream_assign.h).
  const StreamPlan streams = AssignStreams(g, opts.single_stream ? 1 : kMaxModelStreams);
  if (streams.stream_count > 1) {
    Log(LogLevel::kInfo, fmt::format("{}streams: independent branches on {} streams", prefix, streams.stream_count));
  }
  AssemblyOptions aopts;
  aopts.disable_reuse = opts.disable_reuse_memory;
  aopts.packer = packer;
  aopts.streams = &streams;
  auto assembled = AssembleModel(g, aopts);
  if (!assembled.ok()) return std::move(assembled).status();
  Log(LogLevel::kInfo, fmt::format("{}assembled and planned ({:.2f} s)", prefix, Since(t0)));
  return assembled;
}

// The hidden gear selector, the last input of every gear's graph.
void AddGearSelector(om::ModelDef* def, size_t values) {
  om::TensorDef t;
  t.name = om::kDynamicTensorName;
  t.spec = TensorSpec{3 /* ACL_INT32 */, 2 /* ACL_FORMAT_ND */, {static_cast<int64_t>(values)}};
  t.bytes = t.spec.bytes();
  t.region = om::Region::kInput;
  t.io_index = static_cast<uint32_t>(def->inputs.size());
  def->tensors.push_back(std::move(t));
  def->inputs.push_back(static_cast<int32_t>(def->tensors.size() - 1));
}

std::string GearText(const Options& opts, size_t g) {
  const auto& v = opts.gears[g];
  switch (opts.dynamic_kind) {
    case om::DynamicKind::kBatch: return fmt::format("batch {}", v[0]);
    case om::DynamicKind::kImageSize: return fmt::format("image size {}x{}", v[0], v[1]);
    default: return fmt::format("dims {}", fmt::join(v, ","));
  }
}

// Every gear built over one weight packer; the largest gear's graph is the model's own.
StatusOr<AssembledModel> BuildGears(const Options& opts, std::chrono::steady_clock::time_point t0, int64_t* opset) {
  WeightPacker packer;
  const size_t largest = LargestGear(opts);
  std::vector<AssembledModel> built;
  for (size_t g = 0; g < opts.gears.size(); ++g) {
    auto a = BuildGraph(opts, GearShapes(opts, g), &packer,
                        fmt::format("gear {} ({})", g, GearText(opts, g)), t0, opset);
    if (!a.ok()) return std::move(a).status();
    AddGearSelector(&a->def, opts.gears[g].size());
    built.push_back(std::move(a).value());
  }
  AssembledModel out = std::move(built[largest]);
  om::ModelDef& def = out.def;
  def.dynamic_kind = opts.dynamic_kind;
  def.default_gear = static_cast<uint32_t>(largest);
  for (const InputShape& s : opts.input_shapes) def.input_templates.push_back({s.name, s.dims, {}, {}});
  const uint64_t own_arena = def.arena_size;
  for (size_t g = 0; g < opts.gears.size(); ++g) {
    om::GearDef gear;
    gear.values = opts.gears[g];
    gear.arena_size = g == largest ? own_arena : built[g].def.arena_size;
    if (g != largest) {
      om::ModelDef& gd = built[g].def;
      gear.tensors = std::move(gd.tensors);
      gear.nodes = std::move(gd.nodes);
      gear.inputs = std::move(gd.inputs);
      gear.outputs = std::move(gd.outputs);
      gear.arena_size = gd.arena_size;
      def.arena_size = std::max(def.arena_size, gd.arena_size);
      def.stream_count = std::max(def.stream_count, gd.stream_count);  // every gear's streams exist
      out.weights_deduplicated += built[g].weights_deduplicated;
    }
    def.gears.push_back(std::move(gear));
  }
  out.weights = packer.TakeRegion();
  out.weights.resize((out.weights.size() + om::kTensorAlign - 1) / om::kTensorAlign * om::kTensorAlign, 0);
  def.weight_size = out.weights.size();
  return out;
}

// A dynamic-shape model's shapes with each varying dim at its range's low or high end (an unbounded one:
// its minimum plus one, a second point to see which output dims follow the inputs).
std::vector<InputShape> RangeEnd(const Options& opts, bool high) {
  std::vector<InputShape> out = opts.input_shapes;
  for (InputShape& s : out) {
    for (size_t i = 0; i < s.dims.size(); ++i) {
      if (s.dims[i] != -1) continue;
      s.dims[i] = !high ? s.range_min[i] : s.range_max[i] == -1 ? s.range_min[i] + 1 : s.range_max[i];
    }
  }
  return out;
}

bool Bounded(const Options& opts) {
  for (const InputShape& s : opts.input_shapes) {
    for (int64_t hi : s.range_max) {
      if (hi == -1) return false;
    }
  }
  return true;
}

// A dynamic-shape model: converted at both ends of its ranges (so that every shape between is known to
// convert, and to see which output dims vary), it keeps its inputs and outputs (-1 where the dims vary,
// the bytes of the largest shape, 0 unbounded), the source graph and the options; the runtime compiles the
// graph for each set of shapes it meets (models/runtime/shape_compiler.h).
StatusOr<AssembledModel> BuildShapeModel(const Options& opts, std::chrono::steady_clock::time_point t0,
                                         int64_t* opset) {
  auto low = BuildGraph(opts, RangeEnd(opts, false), nullptr, "smallest shapes", t0, opset);
  if (!low.ok()) return std::move(low).status();
  auto high = BuildGraph(opts, RangeEnd(opts, true), nullptr, Bounded(opts) ? "largest shapes" : "second shapes", t0,
                         opset);
  if (!high.ok()) return std::move(high).status();
  auto source = OnnxSourceBytes(opts.model);
  if (!source.ok()) return std::move(source).status();
  const om::ModelDef& lo = low->def;
  const om::ModelDef& hi = high->def;
  const bool bounded = Bounded(opts);
  AssembledModel out;
  om::ModelDef& def = out.def;
  def.dynamic_kind = om::DynamicKind::kShape;
  auto io = [&](int32_t lo_id, int32_t hi_id, om::Region region, uint32_t index) {
    om::TensorDef t = hi.tensors[hi_id];
    const om::TensorDef& small = lo.tensors[lo_id];
    bool varies = false;
    for (size_t k = 0; k < t.spec.dims.size() && k < small.spec.dims.size(); ++k) {
      if (t.spec.dims[k] != small.spec.dims[k]) {
        t.spec.dims[k] = -1;
        varies = true;
      }
    }
    t.region = region;
    t.io_index = index;
    t.offset = 0;
    // A description: each compiled graph plans its own slots; dims that follow the data show as -1.
    for (size_t k = 0; k < t.spec.dims.size() && k < 64; ++k) {
      if ((t.varying_dims >> k) & 1) {
        t.spec.dims[k] = -1;
        varies = true;
      }
    }
    if (varies && !bounded) t.bytes = 0;
    t.shape_slot = -1;
    t.varying_dims = 0;
    def.tensors.push_back(std::move(t));
    return static_cast<int32_t>(def.tensors.size() - 1);
  };
  for (size_t i = 0; i < hi.inputs.size(); ++i) {
    const int32_t id = io(lo.inputs[i], hi.inputs[i], om::Region::kInput, static_cast<uint32_t>(i));
    def.inputs.push_back(id);
    om::InputTemplate t;
    t.name = def.tensors[id].name;
    t.dims = def.tensors[id].spec.dims;
    for (const InputShape& s : opts.input_shapes) {
      if (s.name != t.name) continue;
      t.dims = s.dims;
      t.range_min = s.range_min;
      t.range_max = s.range_max;
    }
    if (t.range_min.empty()) {  // an input --input_shape does not name: static
      t.range_min = t.dims;
      t.range_max = t.dims;
    }
    def.tensors[id].spec.dims = t.dims;
    def.input_templates.push_back(std::move(t));
  }
  for (size_t o = 0; o < hi.outputs.size(); ++o) {
    def.outputs.push_back(io(lo.outputs[o], hi.outputs[o], om::Region::kOutput, static_cast<uint32_t>(o)));
  }
  nlohmann::json j = ShapeOptionsJson(opts);
  def.shape_options = j.dump();
  def.shape_weight_size = std::max(lo.weight_size, hi.weight_size);
  out.weights.assign(source->begin(), source->end());
  def.weight_size = out.weights.size();
  out.plan = high->plan;
  return out;
}

}  // namespace

nlohmann::json ShapeOptionsJson(const Options& opts) {
  nlohmann::json j;
  j["input_format"] = opts.input_format;
  nlohmann::json outs = nlohmann::json::array();
  for (const OutputNode& n : opts.out_nodes) outs.push_back({{"node", n.node}, {"index", n.index}});
  j["out_nodes"] = outs;
  j["output_type"] = opts.output_type;
  j["input_fp16_nodes"] = opts.input_fp16_nodes;
  j["precision_mode"] = opts.precision_mode;
  j["precision_mode_v2"] = opts.precision_mode_v2;
  j["op_select_implmode"] = opts.op_select_implmode;
  j["optypelist_for_implmode"] = opts.optypelist_for_implmode;
  j["disable_reuse_memory"] = opts.disable_reuse_memory;
  j["single_stream"] = opts.single_stream;
  j["fusion"] = opts.fusion;
  j["blocked_layout"] = opts.blocked_layout;
  j["soc_version"] = opts.soc_version;
  nlohmann::json shapes = nlohmann::json::array();
  for (const InputShape& s : opts.input_shapes) {
    shapes.push_back({{"name", s.name}, {"dims", s.dims}, {"min", s.range_min}, {"max", s.range_max}});
  }
  j["input_shapes"] = shapes;
  return j;
}

StatusOr<Options> ShapeOptionsFromJson(const std::string& text) {
  Options o;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    o.input_format = j.at("input_format").get<std::string>();
    for (const auto& n : j.at("out_nodes")) o.out_nodes.push_back({n.at("node").get<std::string>(), n.at("index").get<int32_t>()});
    o.output_type = j.at("output_type").get<std::string>();
    o.input_fp16_nodes = j.at("input_fp16_nodes").get<std::vector<std::string>>();
    o.precision_mode = j.at("precision_mode").get<std::string>();
    // (absent in models of earlier versions: the defaults)
    o.precision_mode_v2 = j.value("precision_mode_v2", std::string());
    o.op_select_implmode = j.value("op_select_implmode", std::string());
    o.optypelist_for_implmode = j.value("optypelist_for_implmode", std::vector<std::string>());
    o.disable_reuse_memory = j.at("disable_reuse_memory").get<bool>();
    o.fusion = j.at("fusion").get<bool>();
    o.blocked_layout = j.at("blocked_layout").get<bool>();
    o.single_stream = j.value("single_stream", true);  // (absent in older models: one stream, as they were built)
    o.soc_version = j.at("soc_version").get<std::string>();
    for (const auto& s : j.at("input_shapes")) {
      InputShape in;
      in.name = s.at("name").get<std::string>();
      in.dims = s.at("dims").get<std::vector<int64_t>>();
      in.range_min = s.at("min").get<std::vector<int64_t>>();
      in.range_max = s.at("max").get<std::vector<int64_t>>();
      if (in.range_min.size() != in.dims.size() || in.range_max.size() != in.dims.size()) {
        return Err(kFail, "the conversion options give input {} ranges of the wrong length", in.name);
      }
      o.input_shapes.push_back(std::move(in));
    }
  } catch (const std::exception& e) {
    return Err(kFail, "the conversion options of the model cannot be read: {}", e.what());
  }
  o.dynamic_kind = om::DynamicKind::kShape;
  return o;
}

StatusOr<AssembledModel> BuildGraphForShapes(const Options& opts, const onnx::ModelProto& parsed, int64_t opset,
                                             const std::vector<InputShape>& shapes, WeightPacker* packer,
                                             const InitializerStore* initializers) {
  int64_t op = opset;
  return BuildGraph(opts, shapes, packer, "", std::chrono::steady_clock::now(), &op, {}, &parsed, initializers);
}

StatusOr<ConversionReport> ConvertModel(const Options& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  AippConfig aipp;
  if (!opts.insert_op_conf.empty()) {
    auto parsed = ParseAippConfigFile(opts.insert_op_conf);
    if (!parsed.ok()) return std::move(parsed).status();
    aipp = std::move(parsed).value();
    NPURT_RETURN_IF_ERROR(CheckAippSupported(aipp, opts.dynamic_kind != om::DynamicKind::kNone));
  }
  int64_t opset = 0;
  auto assembled = opts.dynamic_kind == om::DynamicKind::kNone    ? BuildGraph(opts, opts.input_shapes, nullptr, "", t0, &opset, aipp)
                   : opts.dynamic_kind == om::DynamicKind::kShape ? BuildShapeModel(opts, t0, &opset)
                                                                  : BuildGears(opts, t0, &opset);
  if (!assembled.ok()) return std::move(assembled).status();
  om::ModelDef& def = assembled->def;
  def.name = std::filesystem::path(opts.output).filename().string();
  def.producer = std::string("npurt atc ") + NPURT_VERSION;
  def.soc_version = opts.soc_version;
  def.framework = 5;
  def.source_opset = opset;
  def.precision_mode = opts.precision_mode.empty() ? "force_fp16" : opts.precision_mode;
  def.command_line = opts.command_line;
  const std::string path = opts.output + ".om";
  Status written = om::WriteModelFile(def, assembled->weights, path);
  if (!written.ok()) {
    return Err(kFail, "E10001: Value [{}] for parameter [--output] is invalid. Reason: {}", opts.output,
               written.message());
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const MemoryPlan& p = assembled->plan;
  std::map<std::string, int> ops;
  for (const auto& n : def.nodes) ++ops[n.op_type];
  std::string hist;
  for (const auto& [op, count] : ops) hist += fmt::format("{}{} {}", hist.empty() ? "" : ", ", op, count);
  ConversionReport r;
  r.om_path = path;
  r.summary = fmt::format(
      "model {}: {} nodes ({}), {} inputs, {} outputs, {} views\n"
      "memory plan: arena {} (lower bound {}, {:.2f}x; without reuse {}; {}), weights {}{}\n"
      "converted in {:.2f} s",
      path, def.nodes.size(), hist, def.inputs.size(), def.outputs.size(), assembled->views, MiB(def.arena_size),
      MiB(p.lower_bound), p.lower_bound == 0 ? 1.0 : static_cast<double>(p.arena) / static_cast<double>(p.lower_bound),
      MiB(p.no_reuse), p.strategy, MiB(def.weight_size),
      assembled->weights_deduplicated == 0 ? "" : fmt::format(" ({} shared by identical constants)", MiB(assembled->weights_deduplicated)),
      secs);
  if (def.dynamic_kind == om::DynamicKind::kShape) {
    std::string shapes;
    for (const om::InputTemplate& t : def.input_templates) {
      std::string dims;
      for (size_t k = 0; k < t.dims.size(); ++k) {
        dims += (k == 0 ? "" : ",") + (t.dims[k] >= 0 ? std::to_string(t.dims[k])
                                       : fmt::format("{}~{}", t.range_min[k], t.range_max[k]));
      }
      shapes += fmt::format("{}{}:[{}]", shapes.empty() ? "" : " ", t.name, dims);
    }
    // No graph in the file: what it holds instead.
    r.summary = fmt::format("model {}: {} inputs, {} outputs, converted at the ends of its ranges in {:.2f} s\n"
                            "dynamic shape: inputs {}; the runtime compiles the source graph ({}) for each set of "
                            "shapes it meets, {} of weights per compiled graph", path, def.inputs.size(),
                            def.outputs.size(), secs, shapes, MiB(def.weight_size), MiB(def.shape_weight_size));
  } else if (def.dynamic_kind != om::DynamicKind::kNone) {
    std::string gears;
    for (size_t g = 0; g < opts.gears.size(); ++g) gears += fmt::format("{}[{}]", g == 0 ? "" : " ", fmt::join(opts.gears[g], ","));
    r.summary += fmt::format("\n{}: {} gears {}; with none chosen the largest runs ({}); one arena (the largest "
                             "gear's), shared weights; the hidden last input {} selects a gear",
                             om::DynamicKindName(def.dynamic_kind), opts.gears.size(), gears,
                             GearText(opts, def.default_gear), om::kDynamicTensorName);
  }
  return r;
}

}  // namespace npurt::atc
