#include "converter.h"

#include <chrono>
#include <filesystem>
#include <map>

#include "aipp_config.h"
#include "layout_pass.h"
#include "lowering.h"
#include "model_assembly.h"
#include "models/om/om_writer.h"
#include "onnx_model.h"
#include "passes.h"

#ifndef NPURT_VERSION
#define NPURT_VERSION "0.0.0"
#endif

namespace npurt::atc {
namespace {

constexpr int32_t kFail = 1;

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string MiB(uint64_t bytes) { return fmt::format("{:.2f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0)); }

}  // namespace

StatusOr<ConversionReport> ConvertModel(const Options& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!opts.insert_op_conf.empty()) {
    auto aipp = ParseAippConfigFile(opts.insert_op_conf);
    if (!aipp.ok()) return std::move(aipp).status();
    NPURT_RETURN_IF_ERROR(CheckAippSupported(aipp.value()));
  }
  onnx::ModelProto model;
  int64_t opset = 0;
  NPURT_RETURN_IF_ERROR(LoadOnnxModel(opts.model, opts.input_shapes, &model, &opset));
  Log(LogLevel::kInfo, fmt::format("{}: ONNX IR {}, opset {}, producer {} {}, {} nodes, {} initializers ({:.2f} s)",
                                   opts.model, model.ir_version(), opset, model.producer_name(),
                                   model.producer_version(), model.graph().node_size(),
                                   model.graph().initializer_size(), Since(t0)));
  std::string dir = std::filesystem::path(opts.model).parent_path().string();
  if (dir.empty()) dir = ".";
  auto lowered = LowerOnnxGraph(model, opset, opts, dir);
  if (!lowered.ok()) return std::move(lowered).status();
  Graph& g = lowered->graph;
  Log(LogLevel::kInfo, fmt::format("lowering: {} ONNX nodes folded to constants, {} lowered into {} backend nodes "
                                   "({:.2f} s)", lowered->nodes_folded, lowered->nodes_lowered, g.nodes.size(),
                                   Since(t0)));
  const int dead = RemoveDeadNodes(g);
  auto bn = FoldBatchNormIntoConv(g);
  if (!bn.ok()) return std::move(bn).status();
  const int gelu = FuseGelu(g);
  const int lns = FuseLayerNorm(g);
  const int linear = FuseLinearBias(g);
  // Residual adds first, so that Conv2D + Add + Relu becomes one node with post_ops ["add", "relu"].
  const int adds = opts.fusion ? FuseResidualAdds(g) : 0;
  const int acts = opts.fusion ? FuseActivations(g) : 0;
  Log(LogLevel::kInfo, fmt::format("passes: {} dead nodes removed, {} BatchNorms folded into Conv2D, {} GELU patterns "
                                   "fused, {} LayerNorm patterns fused, {} biases fused into MatMul, {} residual adds "
                                   "and {} activations fused{}",
                                   dead, bn.value(), gelu, lns, linear, adds, acts, opts.fusion ? "" : " (--fusion=false)"));
  if (opts.blocked_layout) {
    auto layout = AssignBlockedLayout(g);
    if (!layout.ok()) return std::move(layout).status();
    Log(LogLevel::kInfo, fmt::format("layout: {} activations in NC1HWC0, {} TransData nodes", layout->blocked,
                                     layout->trans_data));
  }
  if (opts.output_type == "FP16") NPURT_RETURN_IF_ERROR(CastOutputs(g, 1 /* ACL_FLOAT16 */));
  NPURT_RETURN_IF_ERROR(EnsureOutputsWritten(g));
  if (g.outputs.empty()) return Err(kFail, "the model has no outputs");
  NPURT_RETURN_IF_ERROR(ValidateWithBackend(g, /*compile=*/true));
  Log(LogLevel::kInfo, fmt::format("every node compiled by the backend ({:.2f} s)", Since(t0)));

  AssemblyOptions aopts;
  aopts.disable_reuse = opts.disable_reuse_memory;
  auto assembled = AssembleModel(g, aopts);
  if (!assembled.ok()) return std::move(assembled).status();
  om::ModelDef& def = assembled->def;
  Log(LogLevel::kInfo, fmt::format("assembled and planned ({:.2f} s)", Since(t0)));
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
      path, def.nodes.size(), hist, def.inputs.size(), def.outputs.size(), assembled->views, MiB(p.arena),
      MiB(p.lower_bound), p.lower_bound == 0 ? 1.0 : static_cast<double>(p.arena) / static_cast<double>(p.lower_bound),
      MiB(p.no_reuse), p.strategy, MiB(def.weight_size),
      assembled->weights_deduplicated == 0 ? "" : fmt::format(" ({} shared by identical constants)", MiB(assembled->weights_deduplicated)),
      secs);
  return r;
}

}  // namespace npurt::atc
