#include "impl_select.h"

#include <algorithm>
#include <variant>
#include <vector>

namespace npurt::atc {
namespace {

// The attr's integers, or `def` when absent or of another type (the mappers write these as int lists).
std::vector<int64_t> Ints(const Node& n, const char* name, std::vector<int64_t> def) {
  const auto it = n.attrs.find(name);
  if (it == n.attrs.end() || !std::holds_alternative<std::vector<int64_t>>(it->second)) return def;
  return std::get<std::vector<int64_t>>(it->second);
}

int64_t Int(const Node& n, const char* name, int64_t def) {
  const auto it = n.attrs.find(name);
  if (it == n.attrs.end() || !std::holds_alternative<int64_t>(it->second)) return def;
  return std::get<int64_t>(it->second);
}

bool AllOnes(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; });
}

bool Fp32Conv(const Graph& g, const Node& n) {
  return n.op_type == "Conv2D" && n.inputs.size() >= 2 && n.inputs[0] >= 0 && n.inputs[1] >= 0 &&
         g.tensors[static_cast<size_t>(n.inputs[0])].spec.dtype == kFloat &&
         g.tensors[static_cast<size_t>(n.inputs[1])].spec.dtype == kFloat;
}

// A 3x3 filter in the layout the ONNX mapper writes ([O, I, KH, KW]).
bool Filter3x3(const Graph& g, const Node& n) {
  const TensorSpec& f = g.tensors[static_cast<size_t>(n.inputs[1])].spec;
  return f.rank() == 4 && f.dims[2] == 3 && f.dims[3] == 3;
}

bool Bf16Conv(const Node& n) {
  const auto it = n.attrs.find("compute_dtype");
  return n.op_type == "Conv2D" && it != n.attrs.end() && std::holds_alternative<std::string>(it->second) &&
         std::get<std::string>(it->second) == "bfloat16";
}

bool FusesAdd(const Node& n) {
  const auto it = n.attrs.find("post_ops");
  if (it == n.attrs.end() || !std::holds_alternative<std::vector<std::string>>(it->second)) return false;
  const auto& ops = std::get<std::vector<std::string>>(it->second);
  return std::find(ops.begin(), ops.end(), "add") != ops.end();
}

constexpr int32_t kBf16Type = 27;  // ACL_BF16
constexpr int32_t kNc1hwc0 = 3;    // ACL_FORMAT_NC1HWC0

}  // namespace

bool HighPerformanceImpl(const Options& opts, const std::string& op_type) {
  const std::string& mode = opts.op_select_implmode;
  if (mode.empty() || mode == "high_performance" || mode == "high_performance_for_all") return true;
  if (mode == "high_precision_for_all") return false;
  // high_precision: for the listed types when there is a list, else for all.
  const auto& list = opts.optypelist_for_implmode;
  return !list.empty() && std::find(list.begin(), list.end(), op_type) == list.end();
}

bool Bf16Compute(const Options& opts) {
  return opts.precision_mode == "allow_mix_precision_bf16" || opts.precision_mode == "allow_fp32_to_bf16" ||
         opts.precision_mode_v2 == "mixed_bfloat16";
}

int SelectConvAlgorithms(Graph& g, const Options& opts) {
  if (!HighPerformanceImpl(opts, "Conv2D")) return 0;
  int marked = 0;
  for (Node& n : g.nodes) {
    if (!Fp32Conv(g, n) || n.attrs.contains("algorithm") || !Filter3x3(g, n)) continue;
    if (!AllOnes(Ints(n, "strides", {1, 1})) || !AllOnes(Ints(n, "dilations", {1, 1})) || Int(n, "groups", 1) != 1) {
      continue;
    }
    n.attrs["algorithm"] = std::string("winograd");
    ++marked;
  }
  return marked;
}

int SelectComputeTypes(Graph& g, const Options& opts) {
  if (!Bf16Compute(opts)) return 0;
  int marked = 0;
  for (Node& n : g.nodes) {
    if (!Fp32Conv(g, n) || n.attrs.contains("compute_dtype")) continue;
    n.attrs["compute_dtype"] = std::string("bfloat16");
    ++marked;
  }
  return marked;
}

int ChainBf16Activations(Graph& g) {
  std::vector<std::vector<int32_t>> readers(g.tensors.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (int32_t t : g.nodes[i].inputs) {
      if (t >= 0) readers[static_cast<size_t>(t)].push_back(static_cast<int32_t>(i));
    }
  }
  std::vector<bool> output(g.tensors.size(), false);
  for (int32_t t : g.outputs) output[static_cast<size_t>(t)] = true;
  int chained = 0;
  for (Node& p : g.nodes) {
    if (!Bf16Conv(p) || FusesAdd(p) || p.outputs.size() != 1 || p.attrs.contains("dst_dtype")) continue;
    const auto t = static_cast<size_t>(p.outputs[0]);
    TensorSpec& spec = g.tensors[t].spec;
    if (output[t] || spec.format != kNc1hwc0 || spec.dtype != kFloat || readers[t].empty()) continue;
    bool only_bf16_x = true;
    for (int32_t r : readers[t]) {
      const Node& reader = g.nodes[static_cast<size_t>(r)];
      const auto uses = std::count(reader.inputs.begin(), reader.inputs.end(), p.outputs[0]);
      only_bf16_x = only_bf16_x && Bf16Conv(reader) && reader.inputs[0] == p.outputs[0] && uses == 1;
    }
    if (!only_bf16_x) continue;
    spec.dtype = kBf16Type;
    p.attrs["dst_dtype"] = std::string("bfloat16");
    ++chained;
  }
  return chained;
}

}  // namespace npurt::atc
