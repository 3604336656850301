// Mappers of the neural-network ONNX ops: convolution, pooling, normalisation, matrix products,
// activations and arithmetic.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/dtype.h"
#include "const_fold.h"
#include "mappers.h"
#include "onnx_model.h"
#include "onnx_semantics.h"

namespace npurt::atc {
namespace {


std::string Str(const std::vector<int64_t>& v) { return DimsString(v); }

// One spatial dim of a window: padding [begin, end] after auto_pad and ceil_mode.
struct Pads1D {
  int64_t begin = 0, end = 0;
};

// ONNX window attributes of a 2-D Conv/MaxPool/AveragePool: strides, dilations, pads
// [top, left, bottom, right] (ONNX order), auto_pad, ceil_mode.
struct Window2D {
  int64_t kh, kw, sh = 1, sw = 1, dh = 1, dw = 1;
  Pads1D ph, pw;
  bool needed_ceil_extra = false;
};

// `extra`: ONNX-order pads [x1_begin, x2_begin, x3_begin, x4_begin, x1_end, ...] of a folded Pad
// (empty: none); its spatial part adds to the node's own pads.
Status ReadWindow(const onnx::NodeProto& n, int64_t h, int64_t w, int64_t kh, int64_t kw, bool allow_ceil,
                  const std::vector<int64_t>& extra, Window2D* out) {
  Window2D win;
  win.kh = kh;
  win.kw = kw;
  const auto strides = AttrInts(n, "strides", {1, 1});
  const auto dil = AttrInts(n, "dilations", {1, 1});
  auto pads = AttrInts(n, "pads", {0, 0, 0, 0});
  if (!extra.empty()) {
    if (AttrString(n, "auto_pad", "NOTSET") != "NOTSET") return MapFail("a Pad in front of auto_pad is not supported");
    if (pads.size() == 4 && extra.size() == 8) {
      pads = {pads[0] + extra[2], pads[1] + extra[3], pads[2] + extra[6], pads[3] + extra[7]};
    }
  }
  if (strides.size() != 2 || dil.size() != 2 || pads.size() != 4) {
    return MapFail(fmt::format("only 2-D windows are supported (strides {}, dilations {}, pads {})", Str(strides),
                               Str(dil), Str(pads)));
  }
  for (int64_t v : strides) {
    if (v < 1) return MapFail(fmt::format("strides {} must be positive", Str(strides)));
  }
  for (int64_t v : dil) {
    if (v < 1) return MapFail(fmt::format("dilations {} must be positive", Str(dil)));
  }
  if (kh < 1 || kw < 1) return MapFail(fmt::format("the window {}x{} is empty", kh, kw));
  win.sh = strides[0];
  win.sw = strides[1];
  win.dh = dil[0];
  win.dw = dil[1];
  win.ph = {pads[0], pads[2]};
  win.pw = {pads[1], pads[3]};
  const std::string auto_pad = AttrString(n, "auto_pad", "NOTSET");
  const bool ceil = AttrInt(n, "ceil_mode", 0) != 0;
  if (ceil && !allow_ceil) return MapFail("ceil_mode is not supported here");
  auto one = [&](int64_t in, int64_t k, int64_t s, int64_t d, Pads1D* p) -> Status {
    const int64_t ek = (k - 1) * d + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t o = (in + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (o - 1) * s + ek - in);
      p->begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      p->end = total - p->begin;
      return Status::Ok();
    }
    if (auto_pad == "VALID") {
      *p = {0, 0};
      return Status::Ok();
    }
    if (auto_pad != "NOTSET" && !auto_pad.empty()) return MapFail("auto_pad " + auto_pad + " is unknown");
    if (ceil) {
      const int64_t padded = in + p->begin + p->end;
      if (padded < ek) return MapFail("the window does not fit the padded input");
      int64_t o = (padded - ek + s - 1) / s + 1;
      if ((o - 1) * s >= in + p->begin) --o;  // the last window must start inside the input or left pad
      const int64_t extra = std::max<int64_t>(0, (o - 1) * s + ek - padded);
      if (extra > 0) win.needed_ceil_extra = true;
      p->end += extra;
    }
    return Status::Ok();
  };
  NPURT_RETURN_IF_ERROR(one(h, kh, win.sh, win.dh, &win.ph));
  NPURT_RETURN_IF_ERROR(one(w, kw, win.sw, win.dw, &win.pw));
  *out = win;
  return Status::Ok();
}

AttrMap WindowAttrs(const Window2D& w) {
  AttrMap a;
  a["strides"] = std::vector<int64_t>{w.sh, w.sw};
  a["pads"] = std::vector<int64_t>{w.ph.begin, w.ph.end, w.pw.begin, w.pw.end};  // backend: top, bottom, left, right
  a["data_format"] = std::string("NCHW");
  return a;
}

Status NeedRank(NodeContext& c, size_t i, size_t rank, const char* what) {
  if (c.spec(i).rank() != rank) {
    return MapFail(fmt::format("{} has shape {}; only {}-D is supported", what, Str(c.spec(i).dims), rank));
  }
  return Status::Ok();
}

Status MapConv(NodeContext& c) {
  if (c.spec(0).rank() != 4) {
    return MapFail(fmt::format("input {} is not 4-D: npurt's backend has 2-D convolution (Conv2D) only",
                               Str(c.spec(0).dims)));
  }
  NPURT_RETURN_IF_ERROR(NeedRank(c, 1, 4, "the weight"));
  const TensorSpec x = c.spec(0), w = c.spec(1);
  Window2D win;
  NPURT_RETURN_IF_ERROR(ReadWindow(c.node(), x.dims[2], x.dims[3], w.dims[2], w.dims[3], false, c.pending_pads(0), &win));
  AttrMap a = WindowAttrs(win);
  a["dilations"] = std::vector<int64_t>{win.dh, win.dw};
  a["groups"] = AttrInt(c.node(), "group", 1);
  std::vector<int32_t> in = {c.tensor(0), c.tensor(1)};
  if (c.has_input(2)) in.push_back(c.tensor(2));
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Conv2D", std::move(a), in, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapPool(NodeContext& c) {
  const std::string& type = c.node().op_type();
  if (c.spec(0).rank() != 4) return MapFail(fmt::format("input {} is not 4-D (NCHW)", Str(c.spec(0).dims)));
  if (c.output_used(1)) return MapFail("the Indices output of MaxPool is not supported");
  const TensorSpec x = c.spec(0);
  const auto k = AttrInts(c.node(), "kernel_shape");
  if (k.size() != 2) return MapFail(fmt::format("kernel_shape {} is not 2-D", Str(k)));
  Window2D win;
  const std::vector<int64_t> extra = c.pending_pads(0);
  NPURT_RETURN_IF_ERROR(ReadWindow(c.node(), x.dims[2], x.dims[3], k[0], k[1], true, extra, &win));
  if (win.dh != 1 || win.dw != 1) return MapFail("dilated pooling is not supported by npurt's backend");
  AttrMap a = WindowAttrs(win);
  a["ksize"] = std::vector<int64_t>{k[0], k[1]};
  if (type == "AveragePool") {
    bool include_pad = AttrInt(c.node(), "count_include_pad", 0) != 0;
    if (!extra.empty()) {
      // The Pad's zeros are data: they count. The node's own padding must count too, then.
      const auto own = AttrInts(c.node(), "pads", {0, 0, 0, 0});
      if (!include_pad && std::any_of(own.begin(), own.end(), [](int64_t p) { return p != 0; })) {
        return MapFail("a Pad in front of an AveragePool that pads itself with count_include_pad=0 is not supported");
      }
      include_pad = true;
    }
    if (include_pad && win.needed_ceil_extra) {
      return MapFail("ceil_mode=1 with count_include_pad=1 is not supported: npurt's AvgPool divides by the full "
                     "window where ONNX leaves out the part past the padded input");
    }
    a["exclusive"] = !include_pad;
  }
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne(type == "MaxPool" ? "MaxPool" : "AvgPool", std::move(a), {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapGlobalPool(NodeContext& c) {
  const TensorSpec x = c.spec(0);
  if (x.rank() < 3) return MapFail(fmt::format("input {} has no spatial dims", Str(x.dims)));
  int32_t y = -1;
  if (c.node().op_type() == "GlobalAveragePool" && x.rank() == 4) {
    NPURT_RETURN_IF_ERROR(c.EmitOne("GlobalAveragePool", {{"data_format", std::string("NCHW")}}, {c.tensor(0)}, &y));
  } else {
    std::vector<int64_t> axes;
    for (size_t d = 2; d < x.rank(); ++d) axes.push_back(static_cast<int64_t>(d));
    const char* op = c.node().op_type() == "GlobalMaxPool" ? "ReduceMax" : "ReduceMean";
    NPURT_RETURN_IF_ERROR(c.EmitOne(op, {{"axes", axes}, {"keep_dims", true}}, {c.tensor(0)}, &y));
  }
  c.Bind(0, y);
  return Status::Ok();
}

Status MapBatchNorm(NodeContext& c) {
  if (AttrInt(c.node(), "training_mode", 0) != 0) return MapFail("training_mode=1 is not supported (inference only)");
  for (size_t k = 1; k < c.num_outputs(); ++k) {
    if (c.output_used(k)) return MapFail("the running-statistics outputs are not supported (inference only)");
  }
  AttrMap a;
  a["epsilon"] = AttrFloat(c.node(), "epsilon", 1e-5f);
  a["data_format"] = std::string("NCHW");
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("BatchNorm", std::move(a),
                                  {c.tensor(0), c.tensor(1), c.tensor(2), c.tensor(3), c.tensor(4)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapLayerNorm(NodeContext& c) {
  if (c.output_used(1) || c.output_used(2)) return MapFail("the Mean and InvStdDev outputs are not supported");
  const TensorSpec x = c.spec(0);
  auto axis = NormalizeAxis(AttrInt(c.node(), "axis", -1), static_cast<int64_t>(x.rank()));
  if (!axis.ok()) return std::move(axis).status();
  int32_t bias = -1;
  if (c.has_input(2)) {
    bias = c.tensor(2);
  } else {
    HostTensor zeros;
    zeros.dtype = c.spec(1).dtype;
    zeros.dims = c.spec(1).dims;
    zeros.bytes.assign(static_cast<size_t>(zeros.numel()) * DTypeSize(zeros.dtype), 0);
    bias = c.AddConstant(std::move(zeros), "zero_bias");
  }
  AttrMap a;
  a["begin_norm_axis"] = axis.value();
  a["begin_params_axis"] = axis.value();
  a["epsilon"] = AttrFloat(c.node(), "epsilon", 1e-5f);
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("LayerNorm", std::move(a), {c.tensor(0), c.tensor(1), bias}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapSoftmax(NodeContext& c) {
  const std::string op = c.node().op_type();
  const TensorSpec x = c.spec(0);
  const auto rank = static_cast<int64_t>(x.rank());
  const int64_t def = c.opset() >= 13 ? -1 : 1;
  auto axis = NormalizeAxis(AttrInt(c.node(), "axis", def), std::max<int64_t>(rank, 1));
  if (!axis.ok()) return std::move(axis).status();
  int32_t y = -1;
  if (c.opset() >= 13 || axis.value() == rank - 1) {
    NPURT_RETURN_IF_ERROR(c.EmitOne(op, {{"axis", axis.value()}}, {c.tensor(0)}, &y));
  } else {
    // Before opset 13 Softmax normalises over all dims from `axis` on: a 2-D view [outer, inner].
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < rank; ++k) (k < axis.value() ? outer : inner) *= x.dims[static_cast<size_t>(k)];
    int32_t flat, soft;
    NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", {{"shape", std::vector<int64_t>{outer, inner}}}, {c.tensor(0)}, &flat,
                                    -1, true));
    NPURT_RETURN_IF_ERROR(c.EmitOne(op, {{"axis", int64_t{-1}}}, {flat}, &soft));
    NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", {{"shape", x.dims}}, {soft}, &y, -1, true));
  }
  c.Bind(0, y);
  return Status::Ok();
}

// y = x * scale for a constant x (returns a new constant).
HostTensor Scaled(const HostTensor& t, double s) {
  auto v = DoubleValues(t);
  for (double& e : v) e *= s;
  return MakeDoubles(v, t.dims, t.dtype);
}

Status MapGemm(NodeContext& c) {
  NPURT_RETURN_IF_ERROR(NeedRank(c, 0, 2, "A"));
  NPURT_RETURN_IF_ERROR(NeedRank(c, 1, 2, "B"));
  const float alpha = AttrFloat(c.node(), "alpha", 1.0f), beta = AttrFloat(c.node(), "beta", 1.0f);
  const bool ta = AttrInt(c.node(), "transA", 0) != 0, tb = AttrInt(c.node(), "transB", 0) != 0;
  const TensorSpec a = c.spec(0), b = c.spec(1);
  const int64_t n = tb ? b.dims[0] : b.dims[1];
  int32_t bt = -1;
  bool scaled = alpha == 1.0f;
  if (!scaled && c.is_const(1)) {
    bt = c.AddConstant(Scaled(c.constant(1), alpha), "B_scaled");
    scaled = true;
  } else {
    bt = c.tensor(1);
  }
  std::vector<int32_t> in = {c.tensor(0), bt};
  int32_t add_c = -1;  // a C that is added after the product
  const bool has_c = c.has_input(2) && beta != 0.0f;
  if (has_c) {
    const TensorSpec cs = c.spec(2);
    // A C of N elements along the last dim is MatMul's bias.
    const bool row = cs.numel() == n && (cs.rank() == 1 || (cs.rank() == 2 && cs.dims[0] == 1));
    if (c.is_const(2)) {
      HostTensor cv = beta == 1.0f ? c.constant(2) : Scaled(c.constant(2), beta);
      if (row && scaled) {
        cv.dims = {n};
        in.push_back(c.AddConstant(std::move(cv), "bias"));
      } else {
        add_c = c.AddConstant(std::move(cv), "C");
      }
    } else if (beta == 1.0f) {
      add_c = c.tensor(2);
    } else {
      int32_t beta_t = c.AddConstant(ScalarOf(cs.dtype, beta), "beta");
      NPURT_RETURN_IF_ERROR(c.EmitOne("Mul", {}, {c.tensor(2), beta_t}, &add_c));
    }
  }
  AttrMap attrs{{"transpose_x1", ta}, {"transpose_x2", tb}};
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("MatMul", std::move(attrs), in, &y));
  if (!scaled) {
    int32_t alpha_t = c.AddConstant(ScalarOf(a.dtype, alpha), "alpha");
    NPURT_RETURN_IF_ERROR(c.EmitOne("Mul", {}, {y, alpha_t}, &y));
  }
  if (add_c >= 0) NPURT_RETURN_IF_ERROR(c.EmitOne("Add", {}, {y, add_c}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapMatMul(NodeContext& c) {
  const TensorSpec a = c.spec(0), b = c.spec(1);
  if (a.rank() == 0 || b.rank() == 0) return MapFail("MatMul of a scalar");
  int32_t at = c.tensor(0), bt = c.tensor(1);
  std::vector<int64_t> out_drop;  // Reshape after, for 1-D operands
  bool reshape_out = false;
  std::vector<int64_t> a_dims = a.dims, b_dims = b.dims;
  if (a.rank() == 1) {
    a_dims = {1, a.dims[0]};
    NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", {{"shape", a_dims}}, {at}, &at, -1, true));
    reshape_out = true;
  }
  if (b.rank() == 1) {
    b_dims = {b.dims[0], 1};
    NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", {{"shape", b_dims}}, {bt}, &bt, -1, true));
    reshape_out = true;
  }
  int32_t y = -1;
  if (a_dims.size() == 2 && b_dims.size() == 2) {
    NPURT_RETURN_IF_ERROR(c.EmitOne("MatMul", {}, {at, bt}, &y));
  } else {
    NPURT_RETURN_IF_ERROR(c.EmitOne("BatchMatMul", {}, {at, bt}, &y));
  }
  if (reshape_out) {
    std::vector<int64_t> dims = c.tensor_spec(y).dims;
    std::vector<int64_t> want;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (a.rank() == 1 && k == dims.size() - 2) continue;
      if (b.rank() == 1 && k == dims.size() - 1) continue;
      want.push_back(dims[k]);
    }
    NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", {{"shape", want}}, {y}, &y, -1, true));
  }
  c.Bind(0, y);
  return Status::Ok();
}

// Inputs of a binary op, with a constant operand cast to the other's type (ONNX exports sometimes pair
// float tensors with double or integer constants, e.g. Pow's exponent).
Status BinaryInputs(NodeContext& c, size_t i, size_t j, int32_t* x, int32_t* y) {
  const TensorSpec si = c.spec(i), sj = c.spec(j);
  *x = c.tensor(i);
  if (si.dtype != sj.dtype && c.is_const(j)) {
    auto v = DoubleValues(c.constant(j));
    *y = c.AddConstant(MakeDoubles(v, c.constant(j).dims, si.dtype), "cast");
  } else {
    *y = c.tensor(j);
  }
  return Status::Ok();
}

Status MapBinary(NodeContext& c) {
  static const std::map<std::string, std::string> kOps = {{"Add", "Add"}, {"Sub", "Sub"}, {"Mul", "Mul"},
                                                          {"Div", "Div"}, {"Pow", "Pow"}, {"Max", "Maximum"},
                                                          {"Min", "Minimum"}, {"Sum", "Add"}};
  const std::string& op = kOps.at(c.node().op_type());
  int32_t acc = c.tensor(0);
  if (c.num_inputs() == 1) {
    c.Bind(0, acc);
    return Status::Ok();
  }
  for (size_t i = 1; i < c.num_inputs(); ++i) {
    int32_t x, y;
    NPURT_RETURN_IF_ERROR(BinaryInputs(c, 0, i, &x, &y));
    if (i > 1) x = acc;
    NPURT_RETURN_IF_ERROR(c.EmitOne(op, {}, {x, y}, &acc));
  }
  c.Bind(0, acc);
  return Status::Ok();
}

Status MapUnary(NodeContext& c) {
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne(c.node().op_type(), {}, {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

StatusOr<double> ScalarInput(NodeContext& c, size_t i, const char* what) {
  if (!c.is_const(i)) {
    return MapFail(fmt::format("its {} input is not constant: npurt's Clip takes constant bounds", what));
  }
  if (c.constant(i).numel() != 1) return MapFail(fmt::format("its {} input is not a scalar", what));
  return DoubleValues(c.constant(i))[0];
}

Status MapClip(NodeContext& c) {
  AttrMap a;
  if (c.opset() >= 11) {
    if (c.has_input(1)) {
      auto v = ScalarInput(c, 1, "min");
      if (!v.ok()) return std::move(v).status();
      a["min"] = static_cast<float>(v.value());
    }
    if (c.has_input(2)) {
      auto v = ScalarInput(c, 2, "max");
      if (!v.ok()) return std::move(v).status();
      a["max"] = static_cast<float>(v.value());
    }
  } else {
    a["min"] = AttrFloat(c.node(), "min", -INFINITY);
    a["max"] = AttrFloat(c.node(), "max", INFINITY);
  }
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Clip", std::move(a), {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapLeakyRelu(NodeContext& c) {
  const float alpha = AttrFloat(c.node(), "alpha", 0.01f);
  const int32_t dt = c.spec(0).dtype;
  int32_t scaled, y;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Mul", {}, {c.tensor(0), c.AddConstant(ScalarOf(dt, alpha), "alpha")}, &scaled));
  // max(x, a*x) for a <= 1, min(x, a*x) above.
  NPURT_RETURN_IF_ERROR(c.EmitOne(alpha <= 1.0f ? "Maximum" : "Minimum", {}, {c.tensor(0), scaled}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status HardSigmoid(NodeContext& c, float alpha, float beta, int32_t* y) {
  const int32_t dt = c.spec(0).dtype;
  int32_t t = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Mul", {}, {c.tensor(0), c.AddConstant(ScalarOf(dt, alpha), "alpha")}, &t));
  NPURT_RETURN_IF_ERROR(c.EmitOne("Add", {}, {t, c.AddConstant(ScalarOf(dt, beta), "beta")}, &t));
  return c.EmitOne("Clip", {{"min", 0.0f}, {"max", 1.0f}}, {t}, y);
}

Status MapHardSigmoid(NodeContext& c) {
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(HardSigmoid(c, AttrFloat(c.node(), "alpha", 0.2f), AttrFloat(c.node(), "beta", 0.5f), &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapHardSwish(NodeContext& c) {
  int32_t h, y;
  NPURT_RETURN_IF_ERROR(HardSigmoid(c, 1.0f / 6.0f, 0.5f, &h));
  NPURT_RETURN_IF_ERROR(c.EmitOne("Mul", {}, {c.tensor(0), h}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

}  // namespace

void AddNnMappers(std::vector<std::pair<std::string, MapFn>>* t) {
  t->push_back({"Conv", &MapConv});
  t->push_back({"MaxPool", &MapPool});
  t->push_back({"AveragePool", &MapPool});
  t->push_back({"GlobalAveragePool", &MapGlobalPool});
  t->push_back({"GlobalMaxPool", &MapGlobalPool});
  t->push_back({"BatchNormalization", &MapBatchNorm});
  t->push_back({"LayerNormalization", &MapLayerNorm});
  t->push_back({"Softmax", &MapSoftmax});
  t->push_back({"LogSoftmax", &MapSoftmax});
  t->push_back({"Gemm", &MapGemm});
  t->push_back({"MatMul", &MapMatMul});
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum"}) t->push_back({op, &MapBinary});
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Erf", "Exp", "Log", "Sqrt", "Abs", "Neg", "Reciprocal"}) {
    t->push_back({op, &MapUnary});
  }
  t->push_back({"Clip", &MapClip});
  t->push_back({"LeakyRelu", &MapLeakyRelu});
  t->push_back({"HardSigmoid", &MapHardSigmoid});
  t->push_back({"HardSwish", &MapHardSwish});
  (void)kFloat;
}

}  // namespace npurt::atc
