#include "passes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <utility>

#include "atc_options.h"
#include "base/dtype.h"
#include "backend.h"
#include "core/operators.h"

namespace npurt::atc {
namespace {


bool IsConst(const Graph& g, int32_t t) { return t >= 0 && g.tensors[static_cast<size_t>(t)].kind == TensorKind::kConstant; }

bool IsOutput(const Graph& g, int32_t t) { return std::find(g.outputs.begin(), g.outputs.end(), t) != g.outputs.end(); }

// The one node that reads tensor t (and reads it once), or -1.
int SoleConsumer(const Graph& g, int32_t t) {
  int found = -1;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (int32_t in : g.nodes[i].inputs) {
      if (in != t) continue;
      if (found >= 0) return -1;
      found = static_cast<int>(i);
    }
  }
  return found;
}

std::vector<double> Doubles(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.spec.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = LoadAsDouble(t.data.data(), t.spec.dtype, i);
  return v;
}

bool ScalarConstIs(const Graph& g, int32_t t, double value, double tol) {
  if (!IsConst(g, t)) return false;
  const Tensor& c = g.tensors[static_cast<size_t>(t)];
  if (c.spec.numel() != 1 || !IsFloating(c.spec.dtype)) return false;
  return std::fabs(LoadAsDouble(c.data.data(), c.spec.dtype, 0) - value) <= tol;
}

void EraseNodes(Graph& g, const std::vector<bool>& drop) {
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
  }
  g.nodes = std::move(kept);
}

// The backend's inference (with `compile`, its build) of `node` over the given specs.
StatusOr<std::vector<TensorSpec>> InferWith(const Node& node, const std::vector<TensorSpec>& in,
                                            const std::vector<TensorSpec>& req, bool compile, bool shape_slots) {
  core::OperatorCall call;
  call.type = node.op_type;
  call.inputs = &in;
  call.requested = &req;
  call.attrs = &node.attrs;
  call.compile = compile;
  call.shape_slots = shape_slots;
  auto built = BuildWithBackend(call);
  if (!built.ok()) return std::move(built).status();
  return std::move(built->outputs);
}

}  // namespace

StatusOr<std::vector<TensorSpec>> InferNode(const Graph& g, const Node& node, bool compile) {
  std::vector<TensorSpec> in, req;
  for (int32_t t : node.inputs) in.push_back(g.tensors[static_cast<size_t>(t)].spec);
  for (int32_t t : node.outputs) {
    TensorSpec s = g.tensors[static_cast<size_t>(t)].spec;
    if (!compile) s = TensorSpec{s.dtype, -1, {}};
    req.push_back(s);
  }
  // Compiled as the loader will: an operator on data-dependent tensors tiles per run (NonZero needs it).
  return InferWith(node, in, req, compile, compile && g.Slotted(node));
}

int RemoveDeadNodes(Graph& g) {
  std::vector<bool> live_tensor(g.tensors.size(), false);
  for (int32_t t : g.outputs) live_tensor[static_cast<size_t>(t)] = true;
  std::vector<bool> drop(g.nodes.size(), true);
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    bool live = false;
    for (int32_t o : n.outputs) live = live || live_tensor[static_cast<size_t>(o)];
    if (!live) continue;
    drop[i] = false;
    for (int32_t in : n.inputs) {
      if (in >= 0) live_tensor[static_cast<size_t>(in)] = true;
    }
  }
  const int removed = static_cast<int>(std::count(drop.begin(), drop.end(), true));
  EraseNodes(g, drop);
  return removed;
}

StatusOr<int> FoldBatchNormIntoConv(Graph& g) {
  const std::vector<int> prod = g.Producers();
  std::vector<bool> drop(g.nodes.size(), false);
  int folded = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& bn = g.nodes[i];
    if (bn.op_type != "BatchNorm" || bn.outputs.size() != 1) continue;
    const int32_t x = bn.inputs[0];
    const int p = prod[static_cast<size_t>(x)];
    if (p < 0 || drop[static_cast<size_t>(p)]) continue;
    Node& conv = g.nodes[static_cast<size_t>(p)];
    if (conv.op_type != "Conv2D" || IsOutput(g, x) || SoleConsumer(g, x) != static_cast<int>(i)) continue;
    if (!IsConst(g, conv.inputs[1]) || (conv.inputs.size() > 2 && !IsConst(g, conv.inputs[2]))) continue;
    bool params_const = true;
    for (size_t k = 1; k < 5; ++k) params_const = params_const && IsConst(g, bn.inputs[k]);
    const Tensor& w = g.tensors[static_cast<size_t>(conv.inputs[1])];
    if (!params_const || w.spec.dtype != 0 /* ACL_FLOAT */) continue;
    const float eps = std::get<float>(bn.attrs.at("epsilon"));
    const auto gamma = Doubles(g.tensors[static_cast<size_t>(bn.inputs[1])]);
    const auto beta = Doubles(g.tensors[static_cast<size_t>(bn.inputs[2])]);
    const auto mean = Doubles(g.tensors[static_cast<size_t>(bn.inputs[3])]);
    const auto var = Doubles(g.tensors[static_cast<size_t>(bn.inputs[4])]);
    const int64_t o = w.spec.dims[0];
    if (static_cast<int64_t>(gamma.size()) != o) continue;
    std::vector<double> bias(static_cast<size_t>(o), 0.0);
    if (conv.inputs.size() > 2) bias = Doubles(g.tensors[static_cast<size_t>(conv.inputs[2])]);
    // w' = w * s, b' = (b - mean) * s + beta, s = gamma / sqrt(var + eps); per output channel.
    Tensor nw = w;
    nw.name = w.name + "/bn_folded";
    const int64_t per = w.spec.numel() / o;
    Tensor nb;
    nb.name = bn.name + "/folded_bias";
    nb.kind = TensorKind::kConstant;
    nb.spec = TensorSpec{0, 2, {o}};
    nb.data.resize(static_cast<size_t>(o) * 4);
    for (int64_t c = 0; c < o; ++c) {
      const double s = gamma[static_cast<size_t>(c)] / std::sqrt(var[static_cast<size_t>(c)] + static_cast<double>(eps));
      for (int64_t k = 0; k < per; ++k) {
        const size_t idx = static_cast<size_t>(c * per + k);
        StoreFromDouble(nw.data.data(), 0, idx, LoadAsDouble(w.data.data(), 0, idx) * s);
      }
      StoreFromDouble(nb.data.data(), 0, static_cast<size_t>(c),
                      (bias[static_cast<size_t>(c)] - mean[static_cast<size_t>(c)]) * s + beta[static_cast<size_t>(c)]);
    }
    const int32_t wid = g.AddTensor(std::move(nw));
    const int32_t bid = g.AddTensor(std::move(nb));
    Node& conv2 = g.nodes[static_cast<size_t>(p)];  // AddTensor does not move nodes
    conv2.inputs.resize(3);
    conv2.inputs[1] = wid;
    conv2.inputs[2] = bid;
    // The conv now writes what the BatchNorm wrote (its shape and type are the same).
    g.tensors[static_cast<size_t>(bn.outputs[0])].spec = g.tensors[static_cast<size_t>(conv2.outputs[0])].spec;
    conv2.outputs[0] = g.nodes[i].outputs[0];
    if (conv2.origin_names.empty()) conv2.origin_names.push_back(conv2.name);
    conv2.origin_names.push_back(g.nodes[i].name);
    conv2.source_type += "+" + g.nodes[i].source_type;
    conv2.name += "+" + g.nodes[i].name;
    drop[i] = true;
    ++folded;
  }
  EraseNodes(g, drop);
  return folded;
}

int FuseGelu(Graph& g) {
  // Div(x, sqrt2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5), in either operand order of the Add and Muls;
  // also Mul(x, 1/sqrt2) for the first step.
  const std::vector<int> prod = g.Producers();
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  auto other = [](const Node& n, int32_t t) { return n.inputs[0] == t ? n.inputs[1] : n.inputs[0]; };
  auto only_reader = [&](int32_t t, const char* op) -> int {
    const int c = SoleConsumer(g, t);
    if (c < 0 || IsOutput(g, t) || g.nodes[static_cast<size_t>(c)].op_type != op) return -1;
    return c;
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& erf = g.nodes[i];
    if (erf.op_type != "Erf" || drop[i]) continue;
    const int d = prod[static_cast<size_t>(erf.inputs[0])];
    if (d < 0) continue;
    const Node& div = g.nodes[static_cast<size_t>(d)];
    if (SoleConsumer(g, div.outputs[0]) != static_cast<int>(i) || IsOutput(g, div.outputs[0])) continue;
    const bool is_div = div.op_type == "Div" && ScalarConstIs(g, div.inputs[1], std::sqrt(2.0), 1e-4);
    const bool is_mul = div.op_type == "Mul" && (ScalarConstIs(g, div.inputs[1], 1 / std::sqrt(2.0), 1e-4));
    if (!is_div && !is_mul) continue;
    const int32_t x = div.inputs[0];
    const int a = only_reader(erf.outputs[0], "Add");
    if (a < 0 || !ScalarConstIs(g, other(g.nodes[static_cast<size_t>(a)], erf.outputs[0]), 1.0, 1e-6)) continue;
    const int32_t add_out = g.nodes[static_cast<size_t>(a)].outputs[0];
    const int m1 = only_reader(add_out, "Mul");
    if (m1 < 0) continue;
    const Node& mul1 = g.nodes[static_cast<size_t>(m1)];
    const int32_t m1_other = other(mul1, add_out);
    int32_t out = -1;
    std::vector<int> chain = {d, static_cast<int>(i), a, m1};
    if (m1_other == x) {  // (1 + erf) * x, then * 0.5
      const int m2 = only_reader(mul1.outputs[0], "Mul");
      if (m2 < 0 || !ScalarConstIs(g, other(g.nodes[static_cast<size_t>(m2)], mul1.outputs[0]), 0.5, 1e-6)) continue;
      out = g.nodes[static_cast<size_t>(m2)].outputs[0];
      chain.push_back(m2);
    } else {  // (x * 0.5) * (1 + erf)
      const int h = prod[static_cast<size_t>(m1_other)];
      if (h < 0) continue;
      const Node& half = g.nodes[static_cast<size_t>(h)];
      if (half.op_type != "Mul" || SoleConsumer(g, m1_other) != m1 || other(half, x) == x) continue;
      if (!(half.inputs[0] == x || half.inputs[1] == x) || !ScalarConstIs(g, other(half, x), 0.5, 1e-6)) continue;
      out = mul1.outputs[0];
      chain.push_back(h);
    }
    bool free = true;
    for (int k : chain) free = free && !drop[static_cast<size_t>(k)];
    if (!free) continue;
    // The Gelu takes the place of the last node of the chain (all of its inputs are written by then).
    const int last = *std::max_element(chain.begin(), chain.end());
    Node gelu;
    gelu.name = erf.name + "/gelu";
    gelu.source_type = "Erf (GELU pattern)";
    gelu.op_type = "Gelu";
    gelu.attrs["approximate"] = std::string("none");
    gelu.inputs = {x};
    gelu.outputs = {out};
    for (int k : chain) drop[static_cast<size_t>(k)] = true;
    drop[static_cast<size_t>(last)] = false;
    g.nodes[static_cast<size_t>(last)] = std::move(gelu);
    ++fused;
  }
  EraseNodes(g, drop);
  return fused;
}

namespace {

// Normalised trailing axes of a ReduceMean node, or -1 if its axes are not [k, ..., rank-1] with keep_dims.
int64_t TrailingReduceAxis(const Graph& g, const Node& n) {
  if (n.op_type != "ReduceMean") return -1;
  auto keep = n.attrs.find("keep_dims");
  auto axes = n.attrs.find("axes");
  if (keep == n.attrs.end() || !std::get<bool>(keep->second) || axes == n.attrs.end()) return -1;
  const auto rank = static_cast<int64_t>(g.tensors[static_cast<size_t>(n.inputs[0])].spec.rank());
  std::vector<int64_t> a = std::get<std::vector<int64_t>>(axes->second);
  for (int64_t& v : a) v = v < 0 ? v + rank : v;
  std::sort(a.begin(), a.end());
  if (a.empty() || a.back() != rank - 1) return -1;
  for (size_t k = 1; k < a.size(); ++k) {
    if (a[k] != a[k - 1] + 1) return -1;
  }
  return a.front();
}

// A constant whose elements repeat over the normalised block: its dims are x's trailing dims (leading 1s
// allowed) from `axis` on.
bool ParamFits(const Graph& g, int32_t t, int32_t x, int64_t axis) {
  if (!IsConst(g, t)) return false;
  const TensorSpec& xs = g.tensors[static_cast<size_t>(x)].spec;
  const TensorSpec& ps = g.tensors[static_cast<size_t>(t)].spec;
  if (ps.dtype != xs.dtype) return false;
  std::vector<int64_t> tail(xs.dims.begin() + axis, xs.dims.end());
  std::vector<int64_t> p = ps.dims;
  while (p.size() > tail.size() && p.front() == 1) p.erase(p.begin());
  return p == tail;
}

}  // namespace

int FuseLayerNorm(Graph& g) {
  // mean = ReduceMean(x); d = x - mean; var = ReduceMean(d ^ 2); y = d / sqrt(var + eps) [* gamma + beta]
  // (PyTorch's LayerNorm before opset 17) -> LayerNorm.
  const std::vector<int> prod = g.Producers();
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  auto reader = [&](int32_t t, const char* op) -> int {
    const int c = SoleConsumer(g, t);
    if (c < 0 || IsOutput(g, t) || g.nodes[static_cast<size_t>(c)].op_type != op) return -1;
    return c;
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& mean = g.nodes[i];
    const int64_t axis = TrailingReduceAxis(g, mean);
    if (axis < 0 || drop[i]) continue;
    const int32_t x = mean.inputs[0];
    const int sub_i = reader(mean.outputs[0], "Sub");
    if (sub_i < 0) continue;
    const Node& sub = g.nodes[static_cast<size_t>(sub_i)];
    if (sub.inputs[0] != x || sub.inputs[1] != mean.outputs[0]) continue;
    const int32_t d = sub.outputs[0];
    // d feeds Pow and Div, nothing else.
    int pow_i = -1, div_i = -1, readers = 0;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
      for (int32_t in : g.nodes[k].inputs) {
        if (in != d) continue;
        ++readers;
        if (g.nodes[k].op_type == "Pow") pow_i = static_cast<int>(k);
        if (g.nodes[k].op_type == "Div" && g.nodes[k].inputs[0] == d) div_i = static_cast<int>(k);
      }
    }
    if (readers != 2 || pow_i < 0 || div_i < 0 || IsOutput(g, d)) continue;
    const Node& pw = g.nodes[static_cast<size_t>(pow_i)];
    if (pw.inputs[0] != d || !ScalarConstIs(g, pw.inputs[1], 2.0, 0)) continue;
    const int var_i = reader(pw.outputs[0], "ReduceMean");
    if (var_i < 0 || TrailingReduceAxis(g, g.nodes[static_cast<size_t>(var_i)]) != axis) continue;
    const int add_i = reader(g.nodes[static_cast<size_t>(var_i)].outputs[0], "Add");
    if (add_i < 0) continue;
    const Node& add = g.nodes[static_cast<size_t>(add_i)];
    const int32_t eps_t = add.inputs[1];
    if (!IsConst(g, eps_t) || g.tensors[static_cast<size_t>(eps_t)].spec.numel() != 1) continue;
    const double eps = LoadAsDouble(std::as_const(g.tensors[static_cast<size_t>(eps_t)]).data.data(),
                                    g.tensors[static_cast<size_t>(eps_t)].spec.dtype, 0);
    const int sqrt_i = reader(add.outputs[0], "Sqrt");
    if (sqrt_i < 0 || reader(g.nodes[static_cast<size_t>(sqrt_i)].outputs[0], "Div") != div_i) continue;
    const Node& div = g.nodes[static_cast<size_t>(div_i)];
    std::vector<int> chain = {static_cast<int>(i), sub_i, pow_i, var_i, add_i, sqrt_i, div_i};
    int32_t out = div.outputs[0], gamma = -1, beta = -1;
    const int mul_i = reader(out, "Mul");
    if (mul_i >= 0) {
      const Node& mul = g.nodes[static_cast<size_t>(mul_i)];
      const int32_t gt = mul.inputs[0] == out ? mul.inputs[1] : mul.inputs[0];
      if (ParamFits(g, gt, x, axis)) {
        gamma = gt;
        out = mul.outputs[0];
        chain.push_back(mul_i);
        const int badd_i = reader(out, "Add");
        if (badd_i >= 0) {
          const Node& badd = g.nodes[static_cast<size_t>(badd_i)];
          const int32_t bt = badd.inputs[0] == out ? badd.inputs[1] : badd.inputs[0];
          if (ParamFits(g, bt, x, axis)) {
            beta = bt;
            out = badd.outputs[0];
            chain.push_back(badd_i);
          }
        }
      }
    }
    bool free = true;
    for (int k : chain) free = free && !drop[static_cast<size_t>(k)];
    if (!free) continue;
    const TensorSpec& xs = g.tensors[static_cast<size_t>(x)].spec;
    std::vector<int64_t> tail(xs.dims.begin() + axis, xs.dims.end());
    auto param = [&](int32_t t, double fill, const char* what) {
      Tensor p;
      p.name = mean.name + "/" + what;
      p.kind = TensorKind::kConstant;
      p.spec = TensorSpec{xs.dtype, 2, tail};
      int64_t n = 1;
      for (int64_t v : tail) n *= v;
      p.data.resize(static_cast<size_t>(n) * DTypeSize(xs.dtype));
      if (t >= 0) {
        p.data = g.tensors[static_cast<size_t>(t)].data;
      } else {
        for (int64_t k = 0; k < n; ++k) StoreFromDouble(p.data.data(), xs.dtype, static_cast<size_t>(k), fill);
      }
      return g.AddTensor(std::move(p));
    };
    const int32_t gid = param(gamma, 1.0, "gamma"), bid = param(beta, 0.0, "beta");
    Node ln;
    ln.name = g.nodes[i].name + "/layernorm";
    ln.source_type = "ReduceMean (LayerNorm pattern)";
    ln.op_type = "LayerNorm";
    ln.attrs["begin_norm_axis"] = axis;
    ln.attrs["begin_params_axis"] = axis;
    ln.attrs["epsilon"] = static_cast<float>(eps);
    ln.inputs = {x, gid, bid};
    ln.outputs = {out};
    const int last = *std::max_element(chain.begin(), chain.end());
    for (int k : chain) drop[static_cast<size_t>(k)] = true;
    drop[static_cast<size_t>(last)] = false;
    g.nodes[static_cast<size_t>(last)] = std::move(ln);
    ++fused;
  }
  EraseNodes(g, drop);
  return fused;
}

int FuseLinearBias(Graph& g) {
  // BatchMatMul(a [..., M, K], w [K, N] constant) -> Add(bias [N] constant): the linear layers of
  // transformer exports. Becomes Reshape(a -> [B*M, K]) -> MatMul(w, bias) -> Reshape(-> [..., M, N]),
  // the Reshapes being views, so the bias rides in the product instead of a pass of its own.
  std::vector<std::vector<Node>> emit_at(g.nodes.size());
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& bmm = g.nodes[i];
    if (bmm.op_type != "BatchMatMul" || !bmm.attrs.empty() || bmm.inputs.size() != 2) continue;
    const int32_t a = bmm.inputs[0], w = bmm.inputs[1], y = bmm.outputs[0];
    const Tensor& at = g.tensors[static_cast<size_t>(a)];
    const Tensor& wt = g.tensors[static_cast<size_t>(w)];
    if (at.kind != TensorKind::kIntermediate || !IsConst(g, w) || wt.spec.rank() != 2 || at.spec.rank() < 3) continue;
    const int add_i = SoleConsumer(g, y);
    if (add_i < 0 || IsOutput(g, y) || g.nodes[static_cast<size_t>(add_i)].op_type != "Add") continue;
    const Node& add = g.nodes[static_cast<size_t>(add_i)];
    if (!add.attrs.empty()) continue;
    const int32_t b = add.inputs[0] == y ? add.inputs[1] : add.inputs[0];
    const int32_t z = add.outputs[0];
    const int64_t k = wt.spec.dims[0], n = wt.spec.dims[1];
    if (!IsConst(g, b) || IsOutput(g, z) || g.tensors[static_cast<size_t>(b)].spec.numel() != n ||
        g.tensors[static_cast<size_t>(b)].spec.dtype != at.spec.dtype ||
        g.tensors[static_cast<size_t>(z)].spec.dims != g.tensors[static_cast<size_t>(y)].spec.dims) {
      continue;
    }
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < at.spec.rank(); ++d) rows *= at.spec.dims[d];
    Tensor bias = g.tensors[static_cast<size_t>(b)];
    bias.name += "/bias";
    bias.spec.dims = {n};
    Tensor a2;
    a2.name = at.name + "/rows";
    a2.spec = TensorSpec{at.spec.dtype, 2, {rows, k}};
    Tensor m2;
    m2.name = bmm.name + "/rows";
    m2.spec = TensorSpec{at.spec.dtype, 2, {rows, n}};
    const std::vector<int64_t> z_dims = g.tensors[static_cast<size_t>(z)].spec.dims;
    const int32_t bias_id = g.AddTensor(std::move(bias));
    const int32_t a2_id = g.AddTensor(std::move(a2));
    const int32_t m2_id = g.AddTensor(std::move(m2));
    Node r1, mm, r2;
    const Node& bmm2 = g.nodes[i];
    r1.name = bmm2.name + "/flatten";
    r1.source_type = bmm2.source_type;
    r1.op_type = "Reshape";
    r1.attrs["shape"] = std::vector<int64_t>{rows, k};
    r1.inputs = {a};
    r1.outputs = {a2_id};
    r1.view_candidate = true;
    mm.name = bmm2.name;
    mm.source_type = bmm2.source_type + " + Add (bias)";
    mm.op_type = "MatMul";
    mm.inputs = {a2_id, w, bias_id};
    mm.outputs = {m2_id};
    r2.name = bmm2.name + "/unflatten";
    r2.source_type = bmm2.source_type;
    r2.op_type = "Reshape";
    r2.attrs["shape"] = z_dims;
    r2.inputs = {m2_id};
    r2.outputs = {z};
    r2.view_candidate = true;
    if (!InferNode(g, r1, false).ok() || !InferNode(g, mm, false).ok()) continue;
    emit_at[i] = {std::move(r1), std::move(mm)};
    emit_at[static_cast<size_t>(add_i)] = {std::move(r2)};
    drop[i] = drop[static_cast<size_t>(add_i)] = true;
    ++fused;
  }
  if (fused == 0) return 0;
  std::vector<Node> out;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!drop[i]) out.push_back(std::move(g.nodes[i]));
    for (Node& n : emit_at[i]) out.push_back(std::move(n));
  }
  g.nodes = std::move(out);
  return fused;
}

namespace {

bool Fusable(const Node& n) { return n.op_type == "Conv2D" || n.op_type == "MatMul" || n.op_type == "GEMM"; }

std::vector<std::string>& PostOps(Node& n) {
  auto& list = n.attrs["post_ops"];
  if (!std::holds_alternative<std::vector<std::string>>(list)) list = std::vector<std::string>{};
  return std::get<std::vector<std::string>>(list);
}

bool HasPostOp(const Node& n, const std::string& name) {
  auto it = n.attrs.find("post_ops");
  if (it == n.attrs.end()) return false;
  const auto* v = std::get_if<std::vector<std::string>>(&it->second);
  return v != nullptr && std::find(v->begin(), v->end(), name) != v->end();
}

}  // namespace

// A residual Add whose one input a Conv2D / MatMul / GEMM produced for it alone becomes that node's post-op
// "add" (the backend's contract, drivers/host/ops/kernels/post_ops.h: the addend is the node's last input).
// The node keeps its place in the execution order, so the addend must be ready before it: of two fusable
// producers, the later one takes the Add (ResNet's downsample convolution comes after the block's last one).
int FuseResidualAdds(Graph& g) {
  const std::vector<int> prod = g.Producers();
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& add = g.nodes[i];
    if (add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1) continue;
    int best = -1, addend = -1;
    for (int side = 0; side < 2; ++side) {
      const int32_t t = add.inputs[static_cast<size_t>(side)];
      const int32_t other = add.inputs[static_cast<size_t>(1 - side)];
      const int p = prod[static_cast<size_t>(t)];
      if (p < 0 || drop[static_cast<size_t>(p)] || !Fusable(g.nodes[static_cast<size_t>(p)])) continue;
      if (HasPostOp(g.nodes[static_cast<size_t>(p)], "add") || IsOutput(g, t)) continue;
      if (SoleConsumer(g, t) != static_cast<int>(i)) continue;
      const TensorSpec& a = g.tensors[static_cast<size_t>(t)].spec;
      const TensorSpec& b = g.tensors[static_cast<size_t>(other)].spec;
      if (a.dtype != b.dtype || a.dims != b.dims) continue;  // no broadcasting in the fused add
      const int op = prod[static_cast<size_t>(other)];
      if (op >= p) continue;  // the addend would not be ready when the node runs
      if (p > best) {
        best = p;
        addend = other;
      }
    }
    if (best < 0) continue;
    Node& base = g.nodes[static_cast<size_t>(best)];
    PostOps(base).push_back("add");
    base.inputs.push_back(addend);
    base.outputs[0] = add.outputs[0];
    base.source_type += "+Add";
    if (base.origin_names.empty()) base.origin_names.push_back(base.name);
    base.origin_names.push_back(add.name);
    drop[i] = true;
    ++fused;
  }
  EraseNodes(g, drop);
  return fused;
}

// An activation after a Conv2D / MatMul / GEMM that only it reads becomes one of the node's post-ops.
int FuseActivations(Graph& g) {
  const std::vector<int> prod = g.Producers();
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& act = g.nodes[i];
    if (act.inputs.size() != 1) continue;
    std::string post;
    float lo = -INFINITY, hi = INFINITY;
    if (act.op_type == "Relu") {
      post = "relu";
    } else if (act.op_type == "Relu6") {
      post = "clip", lo = 0.0f, hi = 6.0f;
    } else if (act.op_type == "Clip") {
      post = "clip";
      const auto l = act.attrs.find("min"), h = act.attrs.find("max");
      if (l != act.attrs.end()) lo = std::get<float>(l->second);
      if (h != act.attrs.end()) hi = std::get<float>(h->second);
    } else if (act.op_type == "Sigmoid") {
      post = "sigmoid";
    } else if (act.op_type == "Tanh") {
      post = "tanh";
    } else if (act.op_type == "Gelu") {
      const auto a = act.attrs.find("approximate");
      post = a != act.attrs.end() && std::get<std::string>(a->second) == "tanh" ? "gelu_tanh" : "gelu_erf";
    } else {
      continue;
    }
    const int p = prod[static_cast<size_t>(act.inputs[0])];
    if (p < 0 || drop[static_cast<size_t>(p)]) continue;
    Node& base = g.nodes[static_cast<size_t>(p)];
    if (!Fusable(base)) continue;
    if (IsOutput(g, act.inputs[0]) || SoleConsumer(g, act.inputs[0]) != static_cast<int>(i)) continue;
    if (post == "clip") {
      if (HasPostOp(base, "clip")) continue;  // one pair of clip bounds per node
      base.attrs["clip_min"] = lo;
      base.attrs["clip_max"] = hi;
    }
    PostOps(base).push_back(post);
    base.outputs[0] = act.outputs[0];
    base.source_type += "+" + act.source_type;
    if (base.origin_names.empty()) base.origin_names.push_back(base.name);
    base.origin_names.push_back(act.name);
    drop[i] = true;
    ++fused;
  }
  EraseNodes(g, drop);
  return fused;
}

namespace {

// A Cast node of tensor `in` to `dtype` into tensor `out`, inserted by an option (`source`).
Node CastNode(std::string name, const char* source, int32_t dtype, int32_t in, int32_t out) {
  Node n;
  n.name = std::move(name);
  n.source_type = source;
  n.op_type = "Cast";
  n.attrs["dst_type"] = DataTypeValue{dtype};
  n.inputs = {in};
  n.outputs = {out};
  return n;
}

}  // namespace

Status CastOutputs(Graph& g, int32_t dtype) {
  for (int32_t& out : g.outputs) {
    Tensor& t = g.tensors[static_cast<size_t>(out)];
    if (!IsFloating(t.spec.dtype) || t.spec.dtype == dtype) continue;
    Tensor cast;
    cast.name = t.name;
    cast.spec = t.spec;
    cast.spec.dtype = dtype;
    t.name += "/before_cast";
    const int32_t src = out;
    const int32_t id = g.AddTensor(std::move(cast));
    Node n = CastNode(g.tensors[static_cast<size_t>(id)].name + "/cast", "--output_type", dtype, src, id);
    auto specs = InferNode(g, n, false);
    if (!specs.ok()) {
      return Err(kFail, "--output_type: the backend cannot cast output {}: {}", n.name, specs.status().message());
    }
    g.nodes.push_back(std::move(n));
    out = id;
  }
  return Status::Ok();
}

Status CastInputsFromFp16(Graph& g, const std::vector<std::string>& names) {
  constexpr int32_t kFloat = 0, kFloat16 = 1;  // ACL_FLOAT, ACL_FLOAT16
  std::vector<Node> casts;
  for (const std::string& name : names) {
    auto it = std::find_if(g.inputs.begin(), g.inputs.end(),
                           [&](int32_t id) { return g.tensors[static_cast<size_t>(id)].name == name; });
    if (it == g.inputs.end()) {
      std::string known;
      for (int32_t id : g.inputs) known += (known.empty() ? "" : ", ") + g.tensors[static_cast<size_t>(id)].name;
      return Err(kFail, "E10001: parameter [--input_fp16_nodes] is invalid. Reason: '{}' is not an input of the "
                        "model (its inputs: {})", name, known);
    }
    const int32_t old_id = *it;
    const int32_t dtype = g.tensors[static_cast<size_t>(old_id)].spec.dtype;
    if (dtype == kFloat16) continue;
    if (dtype != kFloat) {
      return Err(kFail, "E10001: parameter [--input_fp16_nodes] is invalid. Reason: input '{}' is not a float32 "
                        "input (data type {}{})", name, dtype, dtype == 4 ? ", an AIPP image" : "");
    }
    // The fp16 tensor takes the input's name and index; the fp32 one becomes the Cast's output.
    Tensor half = g.tensors[static_cast<size_t>(old_id)];
    half.spec.dtype = kFloat16;
    Tensor& old = g.tensors[static_cast<size_t>(old_id)];
    old.name += "/fp32";
    old.kind = TensorKind::kIntermediate;
    old.input_index = -1;
    const int32_t half_id = g.AddTensor(std::move(half));
    *it = half_id;
    Node n = CastNode(name + "/input_fp16_cast", "--input_fp16_nodes", kFloat, half_id, old_id);
    auto specs = InferNode(g, n, false);
    if (!specs.ok()) {
      return Err(kFail, "--input_fp16_nodes: the backend cannot cast input {}: {}", name, specs.status().message());
    }
    casts.push_back(std::move(n));
  }
  g.nodes.insert(g.nodes.begin(), std::make_move_iterator(casts.begin()), std::make_move_iterator(casts.end()));
  return Status::Ok();
}

void MarkVaryingDims(Graph& g) {
  // Most graphs have no data-dependent tensor: nothing to infer again (the runtime's shape compiler runs this
  // for every new set of input shapes).
  if (std::none_of(g.tensors.begin(), g.tensors.end(), [](const Tensor& t) { return t.data_dependent; })) return;
  std::vector<std::vector<int64_t>> alt(g.tensors.size());
  for (size_t t = 0; t < g.tensors.size(); ++t) alt[t] = g.tensors[t].spec.dims;
  for (const Node& n : g.nodes) {
    if (!g.Slotted(n)) continue;
    std::vector<TensorSpec> in, req;
    for (int32_t t : n.inputs) {
      TensorSpec s = t < 0 ? TensorSpec{} : g.tensors[static_cast<size_t>(t)].spec;
      if (t >= 0) s.dims = alt[static_cast<size_t>(t)];
      in.push_back(s);
    }
    if (ProducesDataDependentShape(n.op_type)) {
      const int64_t numel = in.empty() ? 0 : in[0].numel();
      for (int32_t t : n.outputs) {
        auto& d = alt[static_cast<size_t>(t)];
        if (d.size() == 2) d[1] = std::max<int64_t>(numel - 1, 0);
      }
      continue;
    }
    for (int32_t t : n.outputs) req.push_back(TensorSpec{g.tensors[static_cast<size_t>(t)].spec.dtype, -1, {}});
    auto outputs = InferWith(n, in, req, false, false);
    if (!outputs.ok()) continue;  // not inferable one short of the bound: its outputs are taken as they are
    for (size_t k = 0; k < n.outputs.size() && k < outputs->size(); ++k) {
      alt[static_cast<size_t>(n.outputs[k])] = (*outputs)[k].dims;
    }
  }
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    Tensor& tensor = g.tensors[t];
    tensor.varying_dims = 0;
    if (!tensor.data_dependent || alt[t].size() != tensor.spec.rank()) continue;
    for (size_t k = 0; k < alt[t].size() && k < 64; ++k) {
      if (alt[t][k] != tensor.spec.dims[k]) tensor.varying_dims |= uint64_t{1} << k;
    }
  }
}

Status EnsureOutputsWritten(Graph& g) {
  std::set<int32_t> seen;
  for (int32_t& out : g.outputs) {
    const Tensor& t = g.tensors[static_cast<size_t>(out)];
    if (t.kind == TensorKind::kIntermediate && seen.insert(out).second) continue;
    Tensor copy;
    copy.name = t.name + (t.kind == TensorKind::kIntermediate ? "/copy" : "");
    if (t.kind != TensorKind::kIntermediate) copy.name = t.name + "/output";
    copy.spec = t.spec;
    const int32_t src = out;
    const int32_t id = g.AddTensor(std::move(copy));
    Node n;
    n.name = g.tensors[static_cast<size_t>(id)].name;
    n.source_type = "output copy";
    n.op_type = "Reshape";
    // A data-dependent tensor's copy keeps each run's dims (0: x's dim), not the bound's.
    const Tensor& s = g.tensors[static_cast<size_t>(src)];
    n.attrs["shape"] = s.data_dependent ? std::vector<int64_t>(s.spec.rank(), 0) : s.spec.dims;
    g.tensors[static_cast<size_t>(id)].data_dependent = s.data_dependent;
    n.inputs = {src};
    n.outputs = {id};
    g.nodes.push_back(std::move(n));
    out = id;
    seen.insert(id);
  }
  return Status::Ok();
}

Status ValidateWithBackend(const Graph& g, bool compile) {
  for (const Node& n : g.nodes) {
    auto specs = InferNode(g, n, compile);
    if (!specs.ok()) {
      return Err(kFail, "E20001: Failed to compile Op [{}] (type {}, from ONNX {}): {}", n.name, n.op_type,
                 n.source_type, specs.status().message());
    }
    for (size_t k = 0; k < n.outputs.size(); ++k) {
      const TensorSpec& want = g.tensors[static_cast<size_t>(n.outputs[k])].spec;
      if (k >= specs->size() || (*specs)[k].dims != want.dims || (*specs)[k].dtype != want.dtype) {
        return Err(kFail, "internal error: node {} ({}) output {} is {} to the backend but {} in the model", n.name,
                   n.op_type, k, k < specs->size() ? Describe((*specs)[k]) : "missing", Describe(want));
      }
    }
  }
  return Status::Ok();
}

}  // namespace npurt::atc
