// Mappers of the ONNX ops that move or reinterpret data: Reshape and its relatives (views where the
// planner can make them so), Transpose, Concat, Split, Slice, Gather, Cast, Identity/Dropout and the
// reductions.
#include <algorithm>
#include <numeric>

#include "base/dtype.h"
#include "const_fold.h"
#include "mappers.h"
#include "onnx_model.h"
#include "onnx_semantics.h"

namespace npurt::atc {
namespace {

Status EmitReshape(NodeContext& c, const std::vector<int64_t>& dims) {
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", {{"shape", dims}}, {c.tensor(0)}, &y, -1, true));
  c.Bind(0, y);
  return Status::Ok();
}

std::vector<int64_t> ConstInts(NodeContext& c, size_t i) { return IntValues(c.constant(i)); }

Status NeedConst(NodeContext& c, size_t i, const char* what) {
  if (c.has_input(i) && !c.is_const(i)) {
    return MapFail(fmt::format("its {} input is computed at run time; npurt needs it constant (static shapes)", what));
  }
  return Status::Ok();
}

// A reshape of a tensor whose dims depend on the data: the target relative to the input (hal's Reshape
// derives it from each run's dims), never dims resolved at the bound.
Status EmitRelativeReshape(NodeContext& c, AttrMap attrs) {
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Reshape", std::move(attrs), {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapReshape(NodeContext& c) {
  NPURT_RETURN_IF_ERROR(NeedConst(c, 1, "shape"));
  if (c.data_dependent(0)) {
    const std::vector<int64_t> target = ConstInts(c, 1);
    if (AttrInt(c.node(), "allowzero", 0) != 0 && std::count(target.begin(), target.end(), 0) > 0) {
      return MapFail("allowzero with a 0 in the target shape of a tensor whose shape depends on the data");
    }
    return EmitRelativeReshape(c, {{"shape", target}});  // its -1 and 0 resolve at each run's dims
  }
  auto dims = ReshapeDims(c.spec(0).dims, ConstInts(c, 1), AttrInt(c.node(), "allowzero", 0) != 0);
  if (!dims.ok()) {
    return MapFail(dims.status().message() + " (the target shape is a constant of the model: if it was exported "
                   "at other input shapes, re-export it with dynamic_axes, or convert it at its own shapes)");
  }
  return EmitReshape(c, dims.value());
}

Status MapFlatten(NodeContext& c) {
  if (c.data_dependent(0)) return EmitRelativeReshape(c, {{"flatten_axis", AttrInt(c.node(), "axis", 1)}});
  auto dims = FlattenDims(c.spec(0).dims, AttrInt(c.node(), "axis", 1));
  if (!dims.ok()) return std::move(dims).status();
  return EmitReshape(c, dims.value());
}

std::vector<int64_t> AxesInputOrAttr(NodeContext& c, size_t input) {
  if (c.has_input(input) && c.is_const(input)) return ConstInts(c, input);
  return AttrInts(c.node(), "axes");
}

Status MapSqueeze(NodeContext& c) {
  NPURT_RETURN_IF_ERROR(NeedConst(c, 1, "axes"));
  const auto axes = AxesInputOrAttr(c, 1);
  const bool squeeze = c.node().op_type() == "Squeeze";
  if (c.data_dependent(0)) {
    if (axes.empty()) {
      return MapFail("Squeeze without axes of a tensor whose shape depends on the data (which dims are 1 is known "
                     "on the device only); give the axes");
    }
    return EmitRelativeReshape(c, {{squeeze ? "squeeze_axes" : "unsqueeze_axes", axes}});
  }
  auto dims = c.node().op_type() == "Squeeze" ? SqueezeDims(c.spec(0).dims, axes) : UnsqueezeDims(c.spec(0).dims, axes);
  if (!dims.ok()) return std::move(dims).status();
  return EmitReshape(c, dims.value());
}

Status MapTranspose(NodeContext& c) {
  std::vector<int64_t> perm = AttrInts(c.node(), "perm");
  if (perm.empty()) {
    const auto r = static_cast<int64_t>(c.spec(0).rank());
    for (int64_t k = 0; k < r; ++k) perm.push_back(r - 1 - k);
  }
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Transpose", {{"perm", perm}}, {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapConcat(NodeContext& c) {
  std::vector<int32_t> in;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    if (!c.has_input(i)) continue;
    if (c.spec(i).numel() == 0 && c.spec(i).rank() > 0 && c.num_inputs() > 1) continue;  // empty parts add nothing
    in.push_back(c.tensor(i));
  }
  if (in.empty()) return MapFail("all inputs are empty");
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Concat", {{"concat_dim", AttrInt(c.node(), "axis", 0)}}, in, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapSplit(NodeContext& c) {
  const TensorSpec x = c.spec(0);
  auto axis = NormalizeAxis(AttrInt(c.node(), "axis", 0), static_cast<int64_t>(x.rank()));
  if (!axis.ok()) return std::move(axis).status();
  const int64_t dim = x.dims[static_cast<size_t>(axis.value())];
  const auto parts = static_cast<int64_t>(c.num_outputs());
  std::vector<int64_t> split;
  if (c.opset() >= 13) {
    NPURT_RETURN_IF_ERROR(NeedConst(c, 1, "split"));
    if (c.has_input(1)) split = ConstInts(c, 1);
  } else {
    split = AttrInts(c.node(), "split");
  }
  if (split.empty()) {
    if (dim % parts != 0) return MapFail(fmt::format("dim {} does not split into {} equal parts", dim, parts));
    split.assign(static_cast<size_t>(parts), dim / parts);
  }
  if (static_cast<int64_t>(split.size()) != parts ||
      std::accumulate(split.begin(), split.end(), int64_t{0}) != dim) {
    return MapFail(fmt::format("split {} does not match dim {} and {} outputs", DimsString(split), dim, parts));
  }
  const bool equal = std::all_of(split.begin(), split.end(), [&](int64_t s) { return s == split[0]; });
  if (equal) {
    std::vector<int32_t> outs;
    NPURT_RETURN_IF_ERROR(c.Emit("Split", {{"split_dim", axis.value()}, {"num_split", parts}}, {c.tensor(0)}, &outs,
                                 std::vector<int32_t>(static_cast<size_t>(parts), -1)));
    for (size_t k = 0; k < outs.size(); ++k) c.Bind(k, outs[k]);
    return Status::Ok();
  }
  // Unequal parts: one Slice each.
  int64_t begin = 0;
  for (size_t k = 0; k < split.size(); ++k) {
    std::vector<int64_t> off(x.rank(), 0), size = x.dims;
    off[static_cast<size_t>(axis.value())] = begin;
    size[static_cast<size_t>(axis.value())] = split[k];
    begin += split[k];
    if (!c.output_used(k)) continue;
    int32_t y = -1;
    NPURT_RETURN_IF_ERROR(c.EmitOne("Slice", {{"offsets", off}, {"size", size}}, {c.tensor(0)}, &y));
    c.Bind(k, y);
  }
  return Status::Ok();
}

Status MapSlice(NodeContext& c) {
  for (size_t i = 1; i < 5; ++i) NPURT_RETURN_IF_ERROR(NeedConst(c, i, "starts/ends/axes/steps"));
  if (!c.has_input(1) || !c.has_input(2)) return MapFail("starts and ends are required");
  auto r = SliceDims(c.spec(0).dims, ConstInts(c, 1), ConstInts(c, 2),
                     c.has_input(3) ? ConstInts(c, 3) : std::vector<int64_t>{},
                     c.has_input(4) ? ConstInts(c, 4) : std::vector<int64_t>{});
  if (!r.ok()) return std::move(r).status();
  for (size_t k = 0; k < r->step.size(); ++k) {
    if (r->step[k] != 1 && r->size[k] > 1) {
      return MapFail(fmt::format("step {} on axis {}: npurt's Slice takes unit steps only", r->step[k], k));
    }
  }
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Slice", {{"offsets", r->begin}, {"size", r->size}}, {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapGather(NodeContext& c) {
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Gather", {{"axis", AttrInt(c.node(), "axis", 0)}}, {c.tensor(0), c.tensor(1)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapCast(NodeContext& c) {
  const int32_t to = AclTypeOfOnnx(static_cast<int32_t>(AttrInt(c.node(), "to", 0)));
  if (to < 0) return MapFail("the target data type is not supported by npurt");
  if (to == c.spec(0).dtype) {
    c.Bind(0, c.tensor(0));
    return Status::Ok();
  }
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("Cast", {{"dst_type", DataTypeValue{to}}}, {c.tensor(0)}, &y, to));
  c.Bind(0, y);
  return Status::Ok();
}

Status MapIdentity(NodeContext& c) {
  // Identity and inference-mode Dropout pass their input on; no operator is emitted.
  if (c.node().op_type() == "Dropout" && c.output_used(1)) return MapFail("the mask output of Dropout is not supported");
  c.Bind(0, c.tensor(0));
  return Status::Ok();
}

// Pad: npurt's backend has none. A constant zero Pad of the spatial dims of a 4-D tensor is left to
// the consumer, which must be a Conv or an AveragePool (lowering checks): both take it into their own
// padding. All-zero pads are an alias.
Status MapPad(NodeContext& c) {
  const std::string mode = AttrString(c.node(), "mode", "constant");
  if (mode != "constant") return MapFail("Pad mode " + mode + " is not supported (npurt's backend has no Pad)");
  NPURT_RETURN_IF_ERROR(NeedConst(c, 1, "pads"));
  NPURT_RETURN_IF_ERROR(NeedConst(c, 2, "constant_value"));
  if (c.has_input(3)) return MapFail("Pad with axes is not supported");
  const std::vector<int64_t> pads = c.has_input(1) ? ConstInts(c, 1) : AttrInts(c.node(), "pads");
  if (c.has_input(2) && (c.constant(2).numel() != 1 || DoubleValues(c.constant(2))[0] != 0.0)) {
    return MapFail("only zero padding is supported (npurt's backend has no Pad operator)");
  }
  const TensorSpec x = c.spec(0);
  if (pads.size() != 2 * x.rank()) return MapFail(fmt::format("pads {} do not match rank {}", DimsString(pads), x.rank()));
  if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) {
    c.Bind(0, c.tensor(0));
    return Status::Ok();
  }
  const bool spatial_only = x.rank() == 4 && pads[0] == 0 && pads[1] == 0 && pads[4] == 0 && pads[5] == 0 &&
                            std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p >= 0; });
  if (!spatial_only) {
    return MapFail(fmt::format("pads {} of a {}-D tensor: npurt's backend has no Pad operator; atc folds zero "
                               "padding of the H and W dims into a following Conv or AveragePool only",
                               DimsString(pads), x.rank()));
  }
  c.BindPadded(0, c.tensor(0), pads);
  return Status::Ok();
}

Status MapReduce(NodeContext& c) {
  static const std::map<std::string, std::string> kOps = {
      {"ReduceMean", "ReduceMean"}, {"ReduceSum", "ReduceSum"}, {"ReduceMax", "ReduceMax"}};
  const std::string& op = kOps.at(c.node().op_type());
  std::vector<int64_t> axes;
  if (op == "ReduceSum" && c.opset() >= 13) {
    NPURT_RETURN_IF_ERROR(NeedConst(c, 1, "axes"));
    if (c.has_input(1)) axes = ConstInts(c, 1);
  } else {
    axes = AttrInts(c.node(), "axes");
  }
  if (axes.empty() && AttrInt(c.node(), "noop_with_empty_axes", 0) != 0) {
    c.Bind(0, c.tensor(0));
    return Status::Ok();
  }
  if (axes.empty()) {
    for (size_t k = 0; k < c.spec(0).rank(); ++k) axes.push_back(static_cast<int64_t>(k));
  }
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne(op, {{"axes", axes}, {"keep_dims", AttrInt(c.node(), "keepdims", 1) != 0}},
                                  {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}


// NonZero: its output [rank, count] is planned for count = numel(x), its actual dims kept on the device.
Status MapNonZero(NodeContext& c) {
  int32_t y = -1;
  NPURT_RETURN_IF_ERROR(c.EmitOne("NonZero", {}, {c.tensor(0)}, &y));
  c.Bind(0, y);
  return Status::Ok();
}

}  // namespace

void AddTensorMappers(std::vector<std::pair<std::string, MapFn>>* t) {
  t->push_back({"NonZero", &MapNonZero});
  t->push_back({"Reshape", &MapReshape});
  t->push_back({"Flatten", &MapFlatten});
  t->push_back({"Squeeze", &MapSqueeze});
  t->push_back({"Unsqueeze", &MapSqueeze});
  t->push_back({"Transpose", &MapTranspose});
  t->push_back({"Concat", &MapConcat});
  t->push_back({"Split", &MapSplit});
  t->push_back({"Slice", &MapSlice});
  t->push_back({"Gather", &MapGather});
  t->push_back({"Cast", &MapCast});
  t->push_back({"Identity", &MapIdentity});
  t->push_back({"Dropout", &MapIdentity});
  t->push_back({"Pad", &MapPad});
  t->push_back({"ReduceMean", &MapReduce});
  t->push_back({"ReduceSum", &MapReduce});
  t->push_back({"ReduceMax", &MapReduce});
}

}  // namespace npurt::atc
