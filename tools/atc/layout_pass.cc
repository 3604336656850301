#include "layout_pass.h"

#include <map>
#include <string>
#include <variant>

#include "atc_options.h"
#include "backend.h"
#include "core/operators.h"

namespace npurt::atc {
namespace {

constexpr int32_t kNchw = 0;      // ACL_FORMAT_NCHW
constexpr int32_t kNhwc = 1;      // ACL_FORMAT_NHWC
constexpr int32_t kBlocked = 3;   // ACL_FORMAT_NC1HWC0

const Tensor& T(const Graph& g, int32_t t) { return g.tensors[static_cast<size_t>(t)]; }

bool IsNchwAttr(const Node& n) {
  const auto it = n.attrs.find("data_format");
  return it == n.attrs.end() || (std::holds_alternative<std::string>(it->second) &&
                                 std::get<std::string>(it->second) == "NCHW");
}

// fp32 and 4-D. The format is not looked at: ONNX activations are NCHW whatever --input_format records
// on the model input, and the operators read data_format.
bool Float4D(const TensorSpec& s) { return s.dtype == kFloat && s.rank() == 4; }

// A Conv2D that can write NC1HWC0: fp32 NCHW x and y, no dst_format of its own.
bool BlockableConv(const Graph& g, const Node& n) {
  return n.op_type == "Conv2D" && !n.inputs.empty() && n.inputs[0] >= 0 && n.outputs.size() == 1 && IsNchwAttr(n) &&
         Float4D(T(g, n.inputs[0]).spec) && Float4D(T(g, n.outputs[0]).spec) && !n.attrs.contains("dst_format");
}

bool IsPool(const Node& n) {
  return n.op_type == "MaxPool" || n.op_type == "AvgPool" || n.op_type == "GlobalAveragePool";
}

// The backend's native C0: the block of a TransData to NC1HWC0 without attr c0.
StatusOr<int64_t> NativeC0() {
  std::vector<TensorSpec> in{TensorSpec{kFloat, kNchw, {1, 1, 1, 1}}}, req{TensorSpec{kFloat, -1, {}}};
  AttrMap attrs{{"dst_format", std::string("NC1HWC0")}};
  core::OperatorCall call;
  call.type = "TransData";
  call.inputs = &in;
  call.requested = &req;
  call.attrs = &attrs;
  call.compile = false;
  auto built = BuildWithBackend(call);
  if (!built.ok()) return Err(kFail, "layout pass: the backend has no TransData: {}", built.status().message());
  return built->outputs.at(0).dims.at(4);
}

TensorSpec Blocked(const TensorSpec& s, int64_t c0) {
  return TensorSpec{s.dtype, kBlocked, {s.dims[0], (s.dims[1] + c0 - 1) / c0, s.dims[2], s.dims[3], c0}};
}

Node TransData(const std::string& name, int32_t from, int32_t to, const AttrMap& attrs) {
  Node n;
  n.name = name;
  n.source_type = "layout";
  n.op_type = "TransData";
  n.attrs = attrs;
  n.inputs = {from};
  n.outputs = {to};
  return n;
}

}  // namespace

StatusOr<LayoutStats> AssignBlockedLayout(Graph& g) {
  auto c0v = NativeC0();
  if (!c0v.ok()) return std::move(c0v).status();
  const int64_t c0 = c0v.value();
  LayoutStats stats;
  // Which node outputs become NC1HWC0, in execution order (a pool follows its input).
  std::vector<bool> blocked(g.tensors.size(), false);
  std::vector<bool> writes_blocked(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const bool pool = IsPool(n) && n.inputs.size() == 1 && n.outputs.size() == 1 && n.inputs[0] >= 0 &&
                      blocked[static_cast<size_t>(n.inputs[0])] && IsNchwAttr(n) && Float4D(T(g, n.outputs[0]).spec);
    if (!pool && !BlockableConv(g, n)) continue;
    if (!pool && FusesResidualAdd(n)) {
      // An addend that is not blocked goes through a TransData, which takes NCHW- or ND-labelled tensors.
      const int32_t addend = n.inputs.back();
      if (addend < 0 || (!blocked[static_cast<size_t>(addend)] && T(g, addend).spec.format == kNhwc)) continue;
    }
    writes_blocked[i] = true;
    blocked[static_cast<size_t>(n.outputs[0])] = true;
  }
  // Readers of each blocked tensor that take it blocked: x of a blocked-writing Conv2D or pool, and the
  // addend of a blocked-writing Conv2D. The rest (and model outputs) need NCHW.
  // (`n` is node number `node`, passed apart: the rewrite below moves nodes out of g.nodes.)
  auto reads_blocked = [&](const Node& n, size_t node, size_t slot) {
    if (!writes_blocked[node]) return false;
    if (slot == 0) return true;
    return n.op_type == "Conv2D" && FusesResidualAdd(n) && slot == n.inputs.size() - 1;
  };
  const size_t original_tensors = g.tensors.size();
  std::vector<int32_t> blocked_id(original_tensors, -1);  // tensor -> its NC1HWC0 version
  std::vector<bool> needs_nchw(original_tensors, false);
  for (int32_t out : g.outputs) needs_nchw[static_cast<size_t>(out)] = true;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (size_t k = 0; k < g.nodes[i].inputs.size(); ++k) {
      const int32_t t = g.nodes[i].inputs[k];
      if (t >= 0 && blocked[static_cast<size_t>(t)] && !reads_blocked(g.nodes[i], i, k)) needs_nchw[static_cast<size_t>(t)] = true;
    }
  }
  for (size_t t = 0; t < original_tensors; ++t) {
    if (!blocked[t]) continue;
    Tensor b;
    b.name = g.tensors[t].name + "/NC1HWC0";
    b.spec = Blocked(g.tensors[t].spec, c0);
    blocked_id[t] = g.AddTensor(std::move(b));
    ++stats.blocked;
  }
  std::vector<Node> nodes;
  std::map<int32_t, int32_t> addend_blocked;  // NCHW addend -> its NC1HWC0 copy
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node n = std::move(g.nodes[i]);
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const int32_t t = n.inputs[k];
      if (t < 0 || !reads_blocked(n, i, k)) continue;
      if (blocked[static_cast<size_t>(t)]) {
        n.inputs[k] = blocked_id[static_cast<size_t>(t)];
      } else if (k != 0) {  // an NCHW addend of a blocked-writing Conv2D
        auto it = addend_blocked.find(t);
        if (it == addend_blocked.end()) {
          const Tensor& src = T(g, t);
          Tensor b;
          b.name = src.name + "/to_NC1HWC0";
          b.spec = Blocked(src.spec, c0);
          const int32_t id = g.AddTensor(std::move(b));
          nodes.push_back(TransData(T(g, id).name, t, id, {{"dst_format", std::string("NC1HWC0")}, {"c0", c0}}));
          ++stats.trans_data;
          it = addend_blocked.emplace(t, id).first;
        }
        n.inputs[k] = it->second;
      }
    }
    if (writes_blocked[i]) {
      const int32_t t = n.outputs[0];
      n.outputs[0] = blocked_id[static_cast<size_t>(t)];
      if (n.op_type == "Conv2D") {
        n.attrs["dst_format"] = std::string("NC1HWC0");
        n.attrs["c0"] = c0;
      }
      nodes.push_back(std::move(n));
      if (needs_nchw[static_cast<size_t>(t)]) {
        nodes.push_back(TransData(T(g, t).name + "/to_NCHW", blocked_id[static_cast<size_t>(t)], t,
                                  {{"dst_format", std::string("NCHW")}, {"channels", T(g, t).spec.dims[1]}}));
        ++stats.trans_data;
      }
    } else {
      nodes.push_back(std::move(n));
    }
  }
  g.nodes = std::move(nodes);
  return stats;
}

}  // namespace npurt::atc
