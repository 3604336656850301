#include "const_fold.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>

#include "base/dtype.h"
#include "onnx_model.h"
#include "onnx_semantics.h"

namespace npurt::atc {
namespace {

constexpr int32_t kBool = 12, kInt64 = 9;

bool IsIntType(int32_t dt) { return IsInteger(dt) || dt == kBool; }

int64_t LoadInt(const HostTensor& t, size_t i) {
  const uint8_t* p = t.bytes.data();
  switch (t.dtype) {
    case 9: { int64_t v; std::memcpy(&v, p + 8 * i, 8); return v; }
    case 10: { uint64_t v; std::memcpy(&v, p + 8 * i, 8); return static_cast<int64_t>(v); }
    case 3: { int32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    case 8: { uint32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    default: return static_cast<int64_t>(LoadAsDouble(p, t.dtype, i));
  }
}

void StoreInt(HostTensor& t, size_t i, int64_t v) {
  uint8_t* p = t.bytes.data();
  switch (t.dtype) {
    case 9: std::memcpy(p + 8 * i, &v, 8); break;
    case 10: { const auto u = static_cast<uint64_t>(v); std::memcpy(p + 8 * i, &u, 8); break; }
    case 3: { const auto w = static_cast<int32_t>(v); std::memcpy(p + 4 * i, &w, 4); break; }
    case kBool: p[i] = v != 0; break;
    default: StoreFromDouble(p, t.dtype, i, static_cast<double>(v)); break;
  }
}

// Folded values are shapes, indices and weights: anything bigger than this is a malformed model.
constexpr int64_t kMaxFoldElements = int64_t{1} << 28;

bool TooBig(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || (d > 0 && n > kMaxFoldElements / d)) return true;
    n *= d;
  }
  return n > kMaxFoldElements;
}

HostTensor Empty(int32_t dtype, std::vector<int64_t> dims) {
  HostTensor t;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.bytes.assign(static_cast<size_t>(t.numel()) * DTypeSize(dtype), 0);
  return t;
}

// For each element of `out` dims, the flat index into a tensor of `in` dims broadcast to it.
std::vector<size_t> BroadcastMap(const std::vector<int64_t>& out, const std::vector<int64_t>& in) {
  const size_t r = out.size();
  std::vector<int64_t> stride(r, 0);
  int64_t s = 1;
  for (size_t k = r; k-- > 0;) {
    const size_t ik = k + in.size();
    if (ik >= r) {
      const int64_t d = in[ik - r];
      stride[k] = d == 1 ? 0 : s;
      s *= d;
    }
  }
  int64_t n = 1;
  for (int64_t d : out) n *= d;
  std::vector<size_t> map(static_cast<size_t>(n));
  std::vector<int64_t> idx(r, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t k = 0; k < r; ++k) off += idx[k] * stride[k];
    map[static_cast<size_t>(i)] = static_cast<size_t>(off);
    for (size_t k = r; k-- > 0;) {
      if (++idx[k] < out[k]) break;
      idx[k] = 0;
    }
  }
  return map;
}

// Copies elements of `in` (any type) into a new tensor: out[i] = in[src[i]].
HostTensor GatherElements(const HostTensor& in, std::vector<int64_t> dims, const std::vector<size_t>& src) {
  HostTensor out = Empty(in.dtype, std::move(dims));
  const size_t es = DTypeSize(in.dtype);
  for (size_t i = 0; i < src.size(); ++i) std::memcpy(out.bytes.data() + i * es, in.bytes.data() + src[i] * es, es);
  return out;
}

StatusOr<std::vector<HostTensor>> One(StatusOr<HostTensor> t) {
  if (!t.ok()) return std::move(t).status();
  return std::vector<HostTensor>{std::move(t.value())};
}

const HostTensor& Need(const std::vector<const HostTensor*>& in, size_t i) { return *in[i]; }

bool Present(const std::vector<const HostTensor*>& in, size_t i) { return i < in.size() && in[i] != nullptr; }

// ------------------------------------------------------------------------------------ elementwise
using IntFn = std::function<int64_t(int64_t, int64_t)>;
using DblFn = std::function<double(double, double)>;

StatusOr<HostTensor> Binary(const HostTensor& a, const HostTensor& b, const IntFn& fi, const DblFn& fd,
                            int32_t out_type = -1) {
  auto dims = Broadcast(a.dims, b.dims);
  if (!dims.ok()) return std::move(dims).status();
  if (TooBig(dims.value())) return Err(kFail, "result {} is too large", DimsString(dims.value()));
  const auto ma = BroadcastMap(dims.value(), a.dims), mb = BroadcastMap(dims.value(), b.dims);
  HostTensor out = Empty(out_type >= 0 ? out_type : a.dtype, dims.value());
  const bool ints = IsIntType(a.dtype);
  for (size_t i = 0; i < ma.size(); ++i) {
    if (ints) {
      const int64_t v = fi(LoadInt(a, ma[i]), LoadInt(b, mb[i]));
      StoreInt(out, i, v);
    } else {
      const double v = fd(LoadAsDouble(a.bytes.data(), a.dtype, ma[i]), LoadAsDouble(b.bytes.data(), b.dtype, mb[i]));
      if (IsIntType(out.dtype)) StoreInt(out, i, static_cast<int64_t>(v));
      else StoreFromDouble(out.bytes.data(), out.dtype, i, v);
    }
  }
  return out;
}

StatusOr<HostTensor> Unary(const HostTensor& a, const std::function<double(double)>& f) {
  if (IsIntType(a.dtype) && a.dtype != kBool) {
    HostTensor out = Empty(a.dtype, a.dims);
    for (size_t i = 0; i < static_cast<size_t>(a.numel()); ++i) {
      StoreInt(out, i, static_cast<int64_t>(f(static_cast<double>(LoadInt(a, i)))));
    }
    return out;
  }
  HostTensor out = Empty(a.dtype, a.dims);
  for (size_t i = 0; i < static_cast<size_t>(a.numel()); ++i) {
    StoreFromDouble(out.bytes.data(), a.dtype, i, f(LoadAsDouble(a.bytes.data(), a.dtype, i)));
  }
  return out;
}

int64_t IDiv(int64_t x, int64_t y) { return y == 0 ? 0 : x / y; }

int64_t IPow(int64_t b, int64_t e) {
  int64_t r = 1;
  for (int64_t i = 0; i < e && i < 64; ++i) r *= b;
  return e < 0 ? 0 : r;
}

// --------------------------------------------------------------------------------------- tensors
StatusOr<HostTensor> Transpose(const HostTensor& x, std::vector<int64_t> perm) {
  const size_t r = x.dims.size();
  if (perm.empty()) {
    for (size_t k = 0; k < r; ++k) perm.push_back(static_cast<int64_t>(r - 1 - k));
  }
  if (perm.size() != r) return Err(kFail, "Transpose: perm has {} values for rank {}", perm.size(), r);
  std::vector<int64_t> in_stride(r, 1), dims(r);
  for (size_t k = r; k-- > 1;) in_stride[k - 1] = in_stride[k] * x.dims[k];
  for (size_t k = 0; k < r; ++k) {
    if (perm[k] < 0 || perm[k] >= static_cast<int64_t>(r)) return Err(kFail, "Transpose: bad perm");
    dims[k] = x.dims[static_cast<size_t>(perm[k])];
  }
  const int64_t n = x.numel();
  std::vector<size_t> src(static_cast<size_t>(n));
  std::vector<int64_t> idx(r, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t k = 0; k < r; ++k) off += idx[k] * in_stride[static_cast<size_t>(perm[k])];
    src[static_cast<size_t>(i)] = static_cast<size_t>(off);
    for (size_t k = r; k-- > 0;) {
      if (++idx[k] < dims[k]) break;
      idx[k] = 0;
    }
  }
  return GatherElements(x, dims, src);
}

StatusOr<HostTensor> Gather(const HostTensor& x, const HostTensor& indices, int64_t axis_attr) {
  auto ax = NormalizeAxis(axis_attr, static_cast<int64_t>(x.dims.size()));
  if (!ax.ok()) return std::move(ax).status();
  const auto axis = static_cast<size_t>(ax.value());
  int64_t outer = 1, inner = 1;
  std::vector<int64_t> dims;
  for (size_t k = 0; k < x.dims.size(); ++k) {
    if (k < axis) { outer *= x.dims[k]; dims.push_back(x.dims[k]); }
    if (k == axis) dims.insert(dims.end(), indices.dims.begin(), indices.dims.end());
    if (k > axis) { inner *= x.dims[k]; dims.push_back(x.dims[k]); }
  }
  const int64_t ad = x.dims[axis];
  const auto idx = IntValues(indices);
  std::vector<size_t> src;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j : idx) {
      const int64_t v = j < 0 ? j + ad : j;
      if (v < 0 || v >= ad) return Err(kFail, "Gather: index {} is outside [-{}, {})", j, ad, ad);
      for (int64_t i = 0; i < inner; ++i) src.push_back(static_cast<size_t>((o * ad + v) * inner + i));
    }
  }
  return GatherElements(x, dims, src);
}

StatusOr<HostTensor> Concat(const std::vector<const HostTensor*>& in, int64_t axis_attr) {
  const HostTensor& x0 = *in[0];
  auto ax = NormalizeAxis(axis_attr, static_cast<int64_t>(x0.dims.size()));
  if (!ax.ok()) return std::move(ax).status();
  const auto axis = static_cast<size_t>(ax.value());
  std::vector<int64_t> dims = x0.dims;
  dims[axis] = 0;
  int64_t outer = 1;
  for (size_t k = 0; k < axis; ++k) outer *= x0.dims[k];
  for (const HostTensor* t : in) {
    if (t->dims.size() != x0.dims.size() || t->dtype != x0.dtype) return Err(kFail, "Concat: inputs differ in rank or type");
    for (size_t k = 0; k < x0.dims.size(); ++k) {
      if (k != axis && t->dims[k] != x0.dims[k]) return Err(kFail, "Concat: inputs differ outside the axis");
    }
    dims[axis] += t->dims[axis];
  }
  HostTensor out = Empty(x0.dtype, dims);
  size_t pos = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const HostTensor* t : in) {
      const size_t block = t->bytes.size() / static_cast<size_t>(std::max<int64_t>(outer, 1));
      if (block == 0) continue;
      std::memcpy(out.bytes.data() + pos, t->bytes.data() + static_cast<size_t>(o) * block, block);
      pos += block;
    }
  }
  return out;
}

StatusOr<HostTensor> Slice(const HostTensor& x, const SliceRange& r) {
  const size_t rank = x.dims.size();
  std::vector<int64_t> stride(rank, 1);
  for (size_t k = rank; k-- > 1;) stride[k - 1] = stride[k] * x.dims[k];
  int64_t n = 1;
  for (int64_t d : r.size) n *= d;
  std::vector<size_t> src(static_cast<size_t>(n));
  std::vector<int64_t> idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t k = 0; k < rank; ++k) off += (r.begin[k] + idx[k] * r.step[k]) * stride[k];
    src[static_cast<size_t>(i)] = static_cast<size_t>(off);
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < r.size[k]) break;
      idx[k] = 0;
    }
  }
  return GatherElements(x, r.size, src);
}

StatusOr<HostTensor> Reduce(const HostTensor& x, const std::string& op, std::vector<int64_t> axes, bool keep) {
  const auto rank = static_cast<int64_t>(x.dims.size());
  std::vector<bool> red(x.dims.size(), axes.empty());
  for (int64_t a : axes) {
    auto ax = NormalizeAxis(a, rank);
    if (!ax.ok()) return std::move(ax).status();
    red[static_cast<size_t>(ax.value())] = true;
  }
  std::vector<int64_t> out_dims, kept_dims;
  for (size_t k = 0; k < x.dims.size(); ++k) {
    if (!red[k]) kept_dims.push_back(x.dims[k]);
    if (!red[k] || keep) out_dims.push_back(red[k] ? 1 : x.dims[k]);
  }
  int64_t on = 1;
  for (int64_t d : kept_dims) on *= d;
  std::vector<double> acc(static_cast<size_t>(on), op == "ReduceProd" ? 1.0 : (op == "ReduceMax" ? -INFINITY : (op == "ReduceMin" ? INFINITY : 0.0)));
  std::vector<int64_t> cnt(static_cast<size_t>(on), 0);
  std::vector<int64_t> idx(x.dims.size(), 0);
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t o = 0;
    for (size_t k = 0; k < x.dims.size(); ++k) {
      if (!red[k]) o = o * x.dims[k] + idx[k];
    }
    const double v = IsIntType(x.dtype) ? static_cast<double>(LoadInt(x, static_cast<size_t>(i)))
                                        : LoadAsDouble(x.bytes.data(), x.dtype, static_cast<size_t>(i));
    double& a = acc[static_cast<size_t>(o)];
    if (op == "ReduceProd") a *= v;
    else if (op == "ReduceMax") a = std::max(a, v);
    else if (op == "ReduceMin") a = std::min(a, v);
    else a += v;
    ++cnt[static_cast<size_t>(o)];
    for (size_t k = x.dims.size(); k-- > 0;) {
      if (++idx[k] < x.dims[k]) break;
      idx[k] = 0;
    }
  }
  if (op == "ReduceMean") {
    for (size_t o = 0; o < acc.size(); ++o) acc[o] /= static_cast<double>(std::max<int64_t>(cnt[o], 1));
  }
  HostTensor out = Empty(x.dtype, out_dims);
  for (size_t o = 0; o < acc.size(); ++o) {
    if (IsIntType(out.dtype)) StoreInt(out, o, static_cast<int64_t>(acc[o]));
    else StoreFromDouble(out.bytes.data(), out.dtype, o, acc[o]);
  }
  return out;
}

HostTensor CastTo(const HostTensor& x, int32_t to) {
  HostTensor out = Empty(to, x.dims);
  for (size_t i = 0; i < static_cast<size_t>(x.numel()); ++i) {
    if (IsIntType(x.dtype) && IsIntType(to)) {
      StoreInt(out, i, LoadInt(x, i));
    } else if (IsIntType(to)) {
      const double v = LoadAsDouble(x.bytes.data(), x.dtype, i);
      StoreInt(out, i, to == kBool ? (v != 0.0) : static_cast<int64_t>(std::trunc(v)));
    } else {
      const double v = IsIntType(x.dtype) ? static_cast<double>(LoadInt(x, i)) : LoadAsDouble(x.bytes.data(), x.dtype, i);
      StoreFromDouble(out.bytes.data(), to, i, v);
    }
  }
  return out;
}

// Axes from the attribute (before opset 13 for Squeeze/Unsqueeze/ReduceSum) or the second input.
std::vector<int64_t> AxesOf(const onnx::NodeProto& n, const std::vector<const HostTensor*>& in, size_t input) {
  if (Present(in, input)) return IntValues(*in[input]);
  return AttrInts(n, "axes");
}

}  // namespace

std::vector<int64_t> IntValues(const HostTensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = IsIntType(t.dtype) ? LoadInt(t, i) : static_cast<int64_t>(LoadAsDouble(t.bytes.data(), t.dtype, i));
  }
  return v;
}

std::vector<double> DoubleValues(const HostTensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = IsIntType(t.dtype) ? static_cast<double>(LoadInt(t, i)) : LoadAsDouble(t.bytes.data(), t.dtype, i);
  }
  return v;
}

HostTensor MakeInts(const std::vector<int64_t>& values, std::vector<int64_t> dims, int32_t dtype) {
  HostTensor t = Empty(dtype, std::move(dims));
  for (size_t i = 0; i < values.size(); ++i) StoreInt(t, i, values[i]);
  return t;
}

HostTensor MakeDoubles(const std::vector<double>& values, std::vector<int64_t> dims, int32_t dtype) {
  HostTensor t = Empty(dtype, std::move(dims));
  for (size_t i = 0; i < values.size(); ++i) StoreFromDouble(t.bytes.data(), dtype, i, values[i]);
  return t;
}

bool CanFold(const std::string& op) {
  static const std::vector<std::string> kOps = {
      "Identity", "Cast", "Shape", "Size", "Gather", "Unsqueeze", "Squeeze", "Concat", "Reshape", "Flatten",
      "Slice", "Range", "ConstantOfShape", "Expand", "Transpose", "Where", "Equal", "Less", "Greater",
      "LessOrEqual", "GreaterOrEqual", "Not", "And", "Or", "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min",
      "Neg", "Abs", "Sqrt", "Exp", "Log", "Reciprocal", "Floor", "Ceil", "Relu", "Sigmoid", "Tanh", "Erf",
      "ReduceProd", "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "Dropout", "Mod", "Tile"};
  return std::find(kOps.begin(), kOps.end(), op) != kOps.end();
}

StatusOr<std::vector<HostTensor>> FoldNode(const onnx::NodeProto& n, const std::vector<const HostTensor*>& in,
                                           int64_t opset) {
  const std::string& op = n.op_type();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != nullptr && in[i]->dtype < 0) return Err(kFail, "input {} has an unsupported type", i);
  }
  if (in.empty() || in[0] == nullptr) {
    if (op != "Range") return Err(kFail, "{} has no first input", op);
  }
  const HostTensor& x = *in[0];
  if (op == "Identity" || op == "Dropout") return std::vector<HostTensor>{x};
  if (op == "Cast") {
    const int32_t to = AclTypeOfOnnx(static_cast<int32_t>(AttrInt(n, "to", 1)));
    if (to < 0) return Err(kFail, "Cast to an unsupported type");
    return std::vector<HostTensor>{CastTo(x, to)};
  }
  if (op == "Shape") {
    const auto r = static_cast<int64_t>(x.dims.size());
    int64_t s = AttrInt(n, "start", 0), e = AttrInt(n, "end", r);
    if (s < 0) s += r;
    if (e < 0) e += r;
    s = std::clamp<int64_t>(s, 0, r);
    e = std::clamp<int64_t>(e, s, r);
    std::vector<int64_t> v(x.dims.begin() + s, x.dims.begin() + e);
    return std::vector<HostTensor>{MakeInts(v, {static_cast<int64_t>(v.size())})};
  }
  if (op == "Size") return std::vector<HostTensor>{MakeInts({x.numel()}, {})};
  if (op == "Gather") return One(Gather(x, Need(in, 1), AttrInt(n, "axis", 0)));
  if (op == "Unsqueeze" || op == "Squeeze") {
    const auto axes = AxesOf(n, in, 1);
    auto dims = op == "Unsqueeze" ? UnsqueezeDims(x.dims, axes) : SqueezeDims(x.dims, axes);
    if (!dims.ok()) return std::move(dims).status();
    HostTensor out = x;
    out.dims = dims.value();
    return std::vector<HostTensor>{out};
  }
  if (op == "Concat") return One(Concat(in, AttrInt(n, "axis", 0)));
  if (op == "Reshape" || op == "Flatten") {
    auto dims = op == "Reshape" ? ReshapeDims(x.dims, IntValues(Need(in, 1)), AttrInt(n, "allowzero", 0) != 0)
                                : FlattenDims(x.dims, AttrInt(n, "axis", 1));
    if (!dims.ok()) return std::move(dims).status();
    HostTensor out = x;
    out.dims = dims.value();
    return std::vector<HostTensor>{out};
  }
  if (op == "Slice") {
    if (!Present(in, 1) || !Present(in, 2)) return Err(kFail, "Slice needs starts and ends");
    auto r = SliceDims(x.dims, IntValues(*in[1]), IntValues(*in[2]), Present(in, 3) ? IntValues(*in[3]) : std::vector<int64_t>{},
                       Present(in, 4) ? IntValues(*in[4]) : std::vector<int64_t>{});
    if (!r.ok()) return std::move(r).status();
    return One(Slice(x, r.value()));
  }
  if (op == "Range") {
    if (!Present(in, 0) || !Present(in, 1) || !Present(in, 2)) return Err(kFail, "Range needs 3 inputs");
    const double s = DoubleValues(*in[0])[0], l = DoubleValues(*in[1])[0], d = DoubleValues(*in[2])[0];
    if (d == 0) return Err(kFail, "Range: delta 0");
    const auto count = static_cast<int64_t>(std::max(0.0, std::ceil((l - s) / d)));
    if (count > (int64_t{1} << 28)) return Err(kFail, "Range: {} elements", count);
    std::vector<double> v(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) v[static_cast<size_t>(i)] = s + static_cast<double>(i) * d;
    if (IsIntType(in[0]->dtype)) {
      std::vector<int64_t> iv(v.begin(), v.end());
      return std::vector<HostTensor>{MakeInts(iv, {count}, in[0]->dtype)};
    }
    return std::vector<HostTensor>{MakeDoubles(v, {count}, in[0]->dtype)};
  }
  if (op == "ConstantOfShape") {
    const auto dims = IntValues(x);
    if (TooBig(dims)) return Err(kFail, "ConstantOfShape: shape {} is too large", DimsString(dims));
    HostTensor value = MakeDoubles({0.0}, {1}, 0);
    if (const auto* a = FindAttr(n, "value"); a != nullptr && a->has_t()) {
      auto v = ToHostTensor(a->t(), "");
      if (!v.ok()) return std::move(v).status();
      value = v.value();
    }
    HostTensor out = Empty(value.dtype, dims);
    const size_t es = DTypeSize(value.dtype);
    for (size_t i = 0; i < static_cast<size_t>(out.numel()); ++i) std::memcpy(out.bytes.data() + i * es, value.bytes.data(), es);
    return std::vector<HostTensor>{out};
  }
  if (op == "Expand") {
    auto dims = Broadcast(x.dims, IntValues(Need(in, 1)));
    if (!dims.ok()) return std::move(dims).status();
    if (TooBig(dims.value())) return Err(kFail, "Expand: shape {} is too large", DimsString(dims.value()));
    return std::vector<HostTensor>{GatherElements(x, dims.value(), BroadcastMap(dims.value(), x.dims))};
  }
  if (op == "Tile") {
    const auto reps = IntValues(Need(in, 1));
    if (reps.size() != x.dims.size()) return Err(kFail, "Tile: repeats do not match the rank");
    std::vector<int64_t> dims = x.dims;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (reps[k] < 0 || reps[k] > kMaxFoldElements) return Err(kFail, "Tile: bad repeats");
      dims[k] *= reps[k];
    }
    if (TooBig(dims)) return Err(kFail, "Tile: result {} is too large", DimsString(dims));
    std::vector<size_t> src;
    std::vector<int64_t> idx(dims.size(), 0), stride(dims.size(), 1);
    for (size_t k = dims.size(); k-- > 1;) stride[k - 1] = stride[k] * x.dims[k];
    int64_t total = 1;
    for (int64_t d : dims) total *= d;
    for (int64_t i = 0; i < total; ++i) {
      int64_t off = 0;
      for (size_t k = 0; k < dims.size(); ++k) off += (idx[k] % x.dims[k]) * stride[k];
      src.push_back(static_cast<size_t>(off));
      for (size_t k = dims.size(); k-- > 0;) {
        if (++idx[k] < dims[k]) break;
        idx[k] = 0;
      }
    }
    return std::vector<HostTensor>{GatherElements(x, dims, src)};
  }
  if (op == "Transpose") return One(Transpose(x, AttrInts(n, "perm")));
  if (op == "Where") {
    const HostTensor &a = Need(in, 1), &b = Need(in, 2);
    auto d1 = Broadcast(x.dims, a.dims);
    if (!d1.ok()) return std::move(d1).status();
    auto dims = Broadcast(d1.value(), b.dims);
    if (!dims.ok()) return std::move(dims).status();
    const auto mc = BroadcastMap(dims.value(), x.dims), ma = BroadcastMap(dims.value(), a.dims),
               mb = BroadcastMap(dims.value(), b.dims);
    HostTensor out = Empty(a.dtype, dims.value());
    const size_t es = DTypeSize(a.dtype);
    for (size_t i = 0; i < mc.size(); ++i) {
      const bool c = LoadInt(x, mc[i]) != 0;
      std::memcpy(out.bytes.data() + i * es, (c ? a : b).bytes.data() + (c ? ma[i] : mb[i]) * es, es);
    }
    return std::vector<HostTensor>{out};
  }
  static const std::map<std::string, std::pair<IntFn, DblFn>> kCompare = {
      {"Equal", {[](int64_t a, int64_t b) { return int64_t{a == b}; }, [](double a, double b) { return double(a == b); }}},
      {"Less", {[](int64_t a, int64_t b) { return int64_t{a < b}; }, [](double a, double b) { return double(a < b); }}},
      {"Greater", {[](int64_t a, int64_t b) { return int64_t{a > b}; }, [](double a, double b) { return double(a > b); }}},
      {"LessOrEqual", {[](int64_t a, int64_t b) { return int64_t{a <= b}; }, [](double a, double b) { return double(a <= b); }}},
      {"GreaterOrEqual", {[](int64_t a, int64_t b) { return int64_t{a >= b}; }, [](double a, double b) { return double(a >= b); }}},
      {"And", {[](int64_t a, int64_t b) { return int64_t{a && b}; }, [](double a, double b) { return double(a != 0 && b != 0); }}},
      {"Or", {[](int64_t a, int64_t b) { return int64_t{a || b}; }, [](double a, double b) { return double(a != 0 || b != 0); }}},
  };
  if (auto it = kCompare.find(op); it != kCompare.end()) {
    return One(Binary(x, Need(in, 1), it->second.first, it->second.second, kBool));
  }
  static const std::map<std::string, std::pair<IntFn, DblFn>> kArith = {
      {"Add", {[](int64_t a, int64_t b) { return a + b; }, [](double a, double b) { return a + b; }}},
      {"Sub", {[](int64_t a, int64_t b) { return a - b; }, [](double a, double b) { return a - b; }}},
      {"Mul", {[](int64_t a, int64_t b) { return a * b; }, [](double a, double b) { return a * b; }}},
      {"Div", {IDiv, [](double a, double b) { return a / b; }}},
      {"Mod", {[](int64_t a, int64_t b) { return b == 0 ? 0 : ((a % b) + b) % b; }, [](double a, double b) { return std::fmod(a, b); }}},
      {"Pow", {IPow, [](double a, double b) { return std::pow(a, b); }}},
      {"Max", {[](int64_t a, int64_t b) { return std::max(a, b); }, [](double a, double b) { return std::max(a, b); }}},
      {"Min", {[](int64_t a, int64_t b) { return std::min(a, b); }, [](double a, double b) { return std::min(a, b); }}},
  };
  if (auto it = kArith.find(op); it != kArith.end()) {
    if (in.size() < 2) return std::vector<HostTensor>{x};
    HostTensor acc = x;
    for (size_t i = 1; i < in.size(); ++i) {
      // Pow's exponent may have another type than its base.
      HostTensor rhs = in[i]->dtype == acc.dtype ? *in[i] : CastTo(*in[i], acc.dtype);
      auto r = Binary(acc, rhs, it->second.first, it->second.second);
      if (!r.ok()) return std::move(r).status();
      acc = std::move(r.value());
    }
    return std::vector<HostTensor>{acc};
  }
  static const std::map<std::string, std::function<double(double)>> kUnary = {
      {"Neg", [](double v) { return -v; }}, {"Abs", [](double v) { return std::fabs(v); }},
      {"Sqrt", [](double v) { return std::sqrt(v); }}, {"Exp", [](double v) { return std::exp(v); }},
      {"Log", [](double v) { return std::log(v); }}, {"Reciprocal", [](double v) { return 1.0 / v; }},
      {"Floor", [](double v) { return std::floor(v); }}, {"Ceil", [](double v) { return std::ceil(v); }},
      {"Relu", [](double v) { return v > 0 ? v : 0.0; }}, {"Sigmoid", [](double v) { return 1.0 / (1.0 + std::exp(-v)); }},
      {"Tanh", [](double v) { return std::tanh(v); }}, {"Erf", [](double v) { return std::erf(v); }},
      {"Not", [](double v) { return double(v == 0.0); }}};
  if (auto it = kUnary.find(op); it != kUnary.end()) return One(Unary(x, it->second));
  if (op.rfind("Reduce", 0) == 0) {
    const bool axes_input = (op == "ReduceSum" && opset >= 13);
    const auto axes = axes_input ? (Present(in, 1) ? IntValues(*in[1]) : std::vector<int64_t>{}) : AttrInts(n, "axes");
    if (axes.empty() && AttrInt(n, "noop_with_empty_axes", 0) != 0) return std::vector<HostTensor>{x};
    return One(Reduce(x, op, axes, AttrInt(n, "keepdims", 1) != 0));
  }
  return Err(kFail, "atc cannot evaluate {}", op);
}

}  // namespace npurt::atc
