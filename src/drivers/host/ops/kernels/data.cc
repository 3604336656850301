// Data-movement operators: Cast, Transpose, Reshape, Concat, Split, Slice, Gather, Fill. npurt's own
// kernels, dispatched by element size where only bytes move.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/host/ops/kernels/elem_io.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

constexpr const char* kAllTypes = "float32, float16, bfloat16, float64, int8/16/32/64, uint8/16/32/64, bool";

// ------------------------------------------------------------------------------------------- cast
class CastKernel final : public Kernel {
 public:
  CastKernel(int32_t from, int32_t to, int64_t n) : from_(from), to_(to), n_(n) {}
  Status Run(const OpRunArgs& a) const override {
    const void* x = a.inputs[0];
    void* y = a.outputs[0];
    const int64_t n = n_;
    if (from_ == to_) {
      if (n > 0) std::memcpy(y, x, static_cast<size_t>(n) * DTypeSize(from_));  // empty: maybe no buffers
      return Status::Ok();
    }
    const bool par = n > kParallelGrain;
    // Fast paths for the conversions mixed-precision programs use all the time.
    if (from_ == ACL_FLOAT && (to_ == ACL_FLOAT16 || to_ == ACL_BF16)) {
      const auto* s = static_cast<const float*>(x);
      auto* d = static_cast<uint16_t*>(y);
      const bool half = to_ == ACL_FLOAT16;
#pragma omp parallel for num_threads(a.threads) if (par)
      for (int64_t i = 0; i < n; ++i) d[i] = half ? FloatToHalf(s[i]) : FloatToBf16(s[i]);
      return Status::Ok();
    }
    if ((from_ == ACL_FLOAT16 || from_ == ACL_BF16) && to_ == ACL_FLOAT) {
      const auto* s = static_cast<const uint16_t*>(x);
      auto* d = static_cast<float*>(y);
      const bool half = from_ == ACL_FLOAT16;
#pragma omp parallel for num_threads(a.threads) if (par)
      for (int64_t i = 0; i < n; ++i) d[i] = half ? HalfToFloat(s[i]) : Bf16ToFloat(s[i]);
      return Status::Ok();
    }
#pragma omp parallel for num_threads(a.threads) if (par)
    for (int64_t i = 0; i < n; ++i) StoreFromDouble(y, to_, static_cast<size_t>(i), LoadAsDouble(x, from_, static_cast<size_t>(i)));
    return Status::Ok();
  }

 private:
  int32_t from_, to_;
  int64_t n_;
};

// Cast: x -> y of the output descriptor's type (or attr dst_type).
Status BuildCast(OpBuild& b) {
  int32_t to = RequestedDType(b, 0, ACL_DT_UNDEFINED);
  if (Has(*b.attrs, "dst_type")) {
    auto t = GetDataType(*b.attrs, "dst_type", ACL_DT_UNDEFINED);
    if (!t.ok()) return std::move(t).status();
    if (to != ACL_DT_UNDEFINED && to != t.value()) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: dst_type {} differs from the output's data type {}", b.type,
                 DTypeName(t.value()), DTypeName(to));
    }
    to = t.value();
  }
  if (to == ACL_DT_UNDEFINED || DTypeSize(to) == 0) {
    return Err(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "{}: target data type {} is not supported; supported: {}", b.type,
               DTypeName(to), kAllTypes);
  }
  TensorSpec y = b.inputs[0];
  y.dtype = to;
  y.format = RequestedFormat(b, 0, y.format);
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<CastKernel>(b.inputs[0].dtype, to, y.numel());
  return Status::Ok();
}

// -------------------------------------------------------------------------------------- transpose
class TransposeKernel final : public Kernel {
 public:
  TransposeKernel(std::vector<int64_t> in_dims, std::vector<int64_t> perm, size_t es)
      : in_(std::move(in_dims)), perm_(std::move(perm)), es_(es) {
    const size_t r = in_.size();
    std::vector<int64_t> in_strides(r, 1);
    for (size_t k = r; k-- > 1;) in_strides[k - 1] = in_strides[k] * in_[k];
    out_.resize(r);
    src_stride_.resize(r);
    for (size_t k = 0; k < r; ++k) {
      out_[k] = in_[perm_[k]];
      src_stride_[k] = in_strides[perm_[k]];
    }
    n_ = 1;
    for (int64_t d : out_) n_ *= d;
  }
  Status Run(const OpRunArgs& a) const override {
    DispatchBySize(es_, [&]<typename T>() {
      const T* x = static_cast<const T*>(a.inputs[0]);
      T* y = static_cast<T*>(a.outputs[0]);
      const size_t r = out_.size();
      if (r == 0) {
        y[0] = x[0];
        return;
      }
      const int64_t inner = out_[r - 1], istride = src_stride_[r - 1];
      const int64_t rows = inner == 0 ? 0 : n_ / inner;
#pragma omp parallel for num_threads(a.threads) if (n_ > kParallelGrain)
      for (int64_t row = 0; row < rows; ++row) {
        int64_t rem = row, off = 0;
        for (size_t k = r - 1; k-- > 0;) {
          off += (rem % out_[k]) * src_stride_[k];
          rem /= out_[k];
        }
        T* yr = y + row * inner;
        for (int64_t i = 0; i < inner; ++i) yr[i] = x[off + i * istride];
      }
    });
    return Status::Ok();
  }

 private:
  std::vector<int64_t> in_, perm_, out_, src_stride_;
  size_t es_;
  int64_t n_ = 0;
};

// Transpose: x -> y with attr perm (y.dims[i] = x.dims[perm[i]]).
Status BuildTranspose(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  auto perm = GetInts(*b.attrs, "perm", {});
  if (!perm.ok()) return std::move(perm).status();
  std::vector<int64_t> p = perm.value();
  if (p.empty()) {  // default: reverse the dims
    p.resize(x.rank());
    for (size_t k = 0; k < p.size(); ++k) p[k] = static_cast<int64_t>(x.rank() - 1 - k);
  }
  std::vector<bool> seen(x.rank(), false);
  if (p.size() != x.rank()) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: perm {} must list each of the {} dims once", b.type, DimsString(p),
               x.rank());
  }
  for (auto& v : p) {
    if (v < 0) v += static_cast<int64_t>(x.rank());
    if (v < 0 || v >= static_cast<int64_t>(x.rank()) || seen[v]) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: perm {} must list each of the {} dims once", b.type,
                 DimsString(perm.value()), x.rank());
    }
    seen[v] = true;
  }
  TensorSpec y = x;
  for (size_t k = 0; k < p.size(); ++k) y.dims[k] = x.dims[p[k]];
  y.format = RequestedFormat(b, 0, x.format);
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<TransposeKernel>(x.dims, p, DTypeSize(x.dtype));
  return Status::Ok();
}

// ----------------------------------------------------------------------------- reshape and copies
class CopyKernel final : public Kernel {
 public:
  explicit CopyKernel(size_t bytes) : bytes_(bytes) {}
  Status Run(const OpRunArgs& a) const override {
    if (bytes_ != 0 && a.outputs[0] != a.inputs[0]) std::memmove(a.outputs[0], a.inputs[0], bytes_);
    return Status::Ok();
  }

 private:
  size_t bytes_;
};

// The target of a Reshape given relative to x (attrs squeeze_axes, unsqueeze_axes, flatten_axis): the form atc
// gives a reshape of a tensor whose dims depend on the data, which must be re-derived from each run's dims.
StatusOr<std::vector<int64_t>> RelativeReshape(const OpBuild& b, const TensorSpec& x) {
  if (Has(*b.attrs, "flatten_axis")) {
    auto axis = GetInt(*b.attrs, "flatten_axis", 1);
    if (!axis.ok()) return std::move(axis).status();
    const auto r = static_cast<int64_t>(x.rank());
    const int64_t a = axis.value() < 0 ? axis.value() + r : axis.value();
    if (a < 0 || a > r) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: flatten_axis {} for rank {}", b.type, axis.value(), r);
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < r; ++k) (k < a ? outer : inner) *= x.dims[static_cast<size_t>(k)];
    return std::vector<int64_t>{outer, inner};
  }
  const bool squeeze = Has(*b.attrs, "squeeze_axes");
  auto axes_or = GetInts(*b.attrs, squeeze ? "squeeze_axes" : "unsqueeze_axes", {});
  if (!axes_or.ok()) return std::move(axes_or).status();
  std::vector<int64_t> axes = axes_or.value();
  const auto out_rank = static_cast<int64_t>(x.rank()) + (squeeze ? 0 : static_cast<int64_t>(axes.size()));
  for (int64_t& a : axes) {
    if (a < 0) a += out_rank;
    if (a < 0 || a >= out_rank) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: axis out of range for rank {}", b.type, out_rank);
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: an axis is given twice", b.type);
  }
  std::vector<int64_t> y;
  if (squeeze) {
    for (size_t k = 0; k < x.rank(); ++k) {
      const bool drop = std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(k));
      if (drop && x.dims[k] != 1) {
        return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: cannot squeeze dim {} of {}, which is not 1", b.type, k,
                   DimsString(x.dims));
      }
      if (!drop) y.push_back(x.dims[k]);
    }
    return y;
  }
  size_t next = 0;
  for (int64_t k = 0; k < out_rank; ++k) {
    y.push_back(std::binary_search(axes.begin(), axes.end(), k) ? 1 : x.dims[next++]);
  }
  return y;
}

// Reshape: x -> y with attr shape (one -1 allowed, 0 copies x's dim), a target relative to x (RelativeReshape)
// or, without either, the output descriptor's (static) shape.
Status BuildReshape(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  std::vector<int64_t> shape;
  if (Has(*b.attrs, "flatten_axis") || Has(*b.attrs, "squeeze_axes") || Has(*b.attrs, "unsqueeze_axes")) {
    auto s = RelativeReshape(b, x);  // NOLINT: the same test as `relative` below
    if (!s.ok()) return std::move(s).status();
    shape = s.value();
  } else if (Has(*b.attrs, "shape")) {
    auto s = GetInts(*b.attrs, "shape", {});
    if (!s.ok()) return std::move(s).status();
    shape = s.value();
  } else if (!b.requested.empty()) {
    shape = b.requested[0].dims;
  }
  const bool relative = Has(*b.attrs, "flatten_axis") || Has(*b.attrs, "squeeze_axes") || Has(*b.attrs, "unsqueeze_axes");
  int64_t known = 1, infer = -1;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0 && k < x.rank() && !relative) shape[k] = x.dims[k];  // a relative target's 0 is a dim of 0
    if (shape[k] == -1 && infer < 0) {
      infer = static_cast<int64_t>(k);
    } else if (shape[k] < 0) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: shape {} is invalid", b.type, DimsString(shape));
    } else {
      known *= shape[k];
    }
  }
  if (infer >= 0) {
    if (known == 0 || x.numel() % known != 0) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: cannot reshape {} into {}", b.type, DimsString(x.dims),
                 DimsString(shape));
    }
    shape[infer] = x.numel() / known;
  }
  TensorSpec y{x.dtype, RequestedFormat(b, 0, x.format), shape};
  if (y.numel() != x.numel()) {
    return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: cannot reshape {} ({} elements) into {} ({} elements)", b.type,
               DimsString(x.dims), x.numel(), DimsString(shape), y.numel());
  }
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<CopyKernel>(x.bytes());
  return Status::Ok();
}

// -------------------------------------------------------------------------------- concat / split
// Both view tensors as [outer, axis * inner] blocks: concat copies each input's block row by row into
// the output, split the reverse.
class ConcatSplitKernel final : public Kernel {
 public:
  ConcatSplitKernel(bool concat, int64_t outer, std::vector<size_t> block_bytes)
      : concat_(concat), outer_(outer), blocks_(std::move(block_bytes)) {
    total_ = std::accumulate(blocks_.begin(), blocks_.end(), size_t{0});
  }
  Status Run(const OpRunArgs& a) const override {
#pragma omp parallel for num_threads(a.threads) if (outer_ * total_ > 1u << 20)
    for (int64_t o = 0; o < outer_; ++o) {
      size_t off = 0;
      for (size_t i = 0; i < blocks_.size(); ++i) {
        // An empty tensor may have no buffer at all (memcpy from null is undefined even for 0 bytes;
        // fuzz_op_compile found it).
        if (blocks_[i] == 0) continue;
        if (concat_) {
          std::memcpy(static_cast<uint8_t*>(a.outputs[0]) + o * total_ + off,
                      static_cast<const uint8_t*>(a.inputs[i]) + o * blocks_[i], blocks_[i]);
        } else {
          std::memcpy(static_cast<uint8_t*>(a.outputs[i]) + o * blocks_[i],
                      static_cast<const uint8_t*>(a.inputs[0]) + o * total_ + off, blocks_[i]);
        }
        off += blocks_[i];
      }
    }
    return Status::Ok();
  }

 private:
  bool concat_;
  int64_t outer_;
  std::vector<size_t> blocks_;
  size_t total_ = 0;
};

StatusOr<int64_t> AxisAttr(const OpBuild& b, std::initializer_list<const char*> names, size_t rank) {
  for (const char* n : names) {
    if (!Has(*b.attrs, n)) continue;
    auto v = GetInt(*b.attrs, n, 0);
    if (!v.ok()) return std::move(v).status();
    return NormAxis(b, v.value(), rank);
  }
  return NormAxis(b, 0, rank);
}

// Concat: x0..xN-1 -> y along attr concat_dim / axis (default 0).
Status BuildConcat(OpBuild& b) {
  const TensorSpec& x0 = b.inputs[0];
  if (x0.rank() == 0) {  // no axis to concatenate along (fuzz_op_compile: y.dims[axis] of a scalar)
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: input 0 is a scalar {}; concatenation needs rank 1 or more", b.type,
               Describe(x0));
  }
  auto ax = AxisAttr(b, {"concat_dim", "axis"}, x0.rank());
  if (!ax.ok()) return std::move(ax).status();
  const int64_t axis = ax.value();
  const size_t es = DTypeSize(x0.dtype);
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < static_cast<int64_t>(x0.rank()); ++k) {
    if (k < axis) outer *= x0.dims[k];
    if (k > axis) inner *= x0.dims[k];
  }
  TensorSpec y = x0;
  y.dims[axis] = 0;
  std::vector<size_t> blocks;
  for (size_t i = 0; i < b.inputs.size(); ++i) {
    const TensorSpec& xi = b.inputs[i];
    bool ok = xi.dtype == x0.dtype && xi.rank() == x0.rank();
    for (size_t k = 0; ok && k < x0.rank(); ++k) ok = static_cast<int64_t>(k) == axis || xi.dims[k] == x0.dims[k];
    if (!ok) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: input {} is {}, not concatenable with input 0 {} along axis {}",
                 b.type, i, Describe(xi), Describe(x0), axis);
    }
    y.dims[axis] += xi.dims[axis];
    blocks.push_back(static_cast<size_t>(xi.dims[axis] * inner) * es);
  }
  y.format = RequestedFormat(b, 0, x0.format);
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<ConcatSplitKernel>(true, outer, blocks);
  return Status::Ok();
}

// Split: x -> y0..yN-1, equal parts along attr split_dim / axis; attr num_split (default: the number
// of output descriptors).
Status BuildSplit(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  auto ax = AxisAttr(b, {"split_dim", "axis"}, x.rank());
  if (!ax.ok()) return std::move(ax).status();
  auto ns = GetInt(*b.attrs, "num_split", static_cast<int64_t>(std::max<size_t>(b.requested.size(), 1)));
  if (!ns.ok()) return ns.status();
  const int64_t axis = ax.value(), parts = ns.value();
  if (x.rank() == 0 || parts < 1 || x.dims[axis] % parts != 0) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: cannot split {} into {} equal parts along axis {}", b.type,
               DimsString(x.dims), parts, axis);
  }
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < static_cast<int64_t>(x.rank()); ++k) {
    if (k < axis) outer *= x.dims[k];
    if (k > axis) inner *= x.dims[k];
  }
  TensorSpec y = x;
  y.dims[axis] /= parts;
  b.outputs.assign(static_cast<size_t>(parts), y);
  std::vector<size_t> blocks(static_cast<size_t>(parts), static_cast<size_t>(y.dims[axis] * inner) * DTypeSize(x.dtype));
  if (b.compile) b.kernel = std::make_unique<ConcatSplitKernel>(false, outer, blocks);
  return Status::Ok();
}

// ------------------------------------------------------------------------------------------ slice
class SliceKernel final : public Kernel {
 public:
  SliceKernel(std::vector<int64_t> in, std::vector<int64_t> begin, std::vector<int64_t> size, size_t es)
      : in_(std::move(in)), begin_(std::move(begin)), size_(std::move(size)), es_(es) {}
  Status Run(const OpRunArgs& a) const override {
    const size_t r = in_.size();
    if (r == 0) {
      std::memcpy(a.outputs[0], a.inputs[0], es_);
      return Status::Ok();
    }
    std::vector<int64_t> stride(r, 1);
    for (size_t k = r; k-- > 1;) stride[k - 1] = stride[k] * in_[k];
    int64_t rows = 1;
    for (size_t k = 0; k + 1 < r; ++k) rows *= size_[k];
    const size_t row_bytes = static_cast<size_t>(size_[r - 1]) * es_;
    if (rows <= 0 || row_bytes == 0) return Status::Ok();  // empty: the buffers may be null
    const auto* x = static_cast<const uint8_t*>(a.inputs[0]);
    auto* y = static_cast<uint8_t*>(a.outputs[0]);
#pragma omp parallel for num_threads(a.threads) if (rows * static_cast<int64_t>(row_bytes) > (1 << 20))
    for (int64_t row = 0; row < rows; ++row) {
      int64_t rem = row, off = begin_[r - 1];
      for (size_t k = r - 1; k-- > 0;) {
        off += (rem % size_[k] + begin_[k]) * stride[k];
        rem /= size_[k];
      }
      std::memcpy(y + row * row_bytes, x + off * static_cast<int64_t>(es_), row_bytes);
    }
    return Status::Ok();
  }

 private:
  std::vector<int64_t> in_, begin_, size_;
  size_t es_;
};

// Slice: x -> y; attrs offsets (or begin) and size (-1 = to the end).
Status BuildSlice(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  auto off = GetInts(*b.attrs, Has(*b.attrs, "offsets") ? "offsets" : "begin", {});
  if (!off.ok()) return std::move(off).status();
  auto sz = GetInts(*b.attrs, "size", {});
  if (!sz.ok()) return std::move(sz).status();
  std::vector<int64_t> begin = off.value(), size = sz.value();
  if (begin.size() != x.rank() || size.size() != x.rank()) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: offsets {} and size {} need {} values each", b.type,
               DimsString(begin), DimsString(size), x.rank());
  }
  for (size_t k = 0; k < x.rank(); ++k) {
    if (size[k] == -1) size[k] = x.dims[k] - begin[k];
    if (begin[k] < 0 || size[k] < 0 || begin[k] + size[k] > x.dims[k]) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: slice [{}, +{}) of dim {} is outside {}", b.type, begin[k],
                 size[k], k, DimsString(x.dims));
    }
  }
  TensorSpec y{x.dtype, RequestedFormat(b, 0, x.format), size};
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<SliceKernel>(x.dims, begin, size, DTypeSize(x.dtype));
  return Status::Ok();
}

// ----------------------------------------------------------------------------------------- gather
class GatherKernel final : public Kernel {
 public:
  GatherKernel(int64_t outer, int64_t axis_dim, int64_t inner, int64_t nidx, int32_t idx_dtype, size_t es)
      : outer_(outer), axis_(axis_dim), inner_(inner), nidx_(nidx), idx_dtype_(idx_dtype), es_(es) {}
  Status Run(const OpRunArgs& a) const override {
    const auto* x = static_cast<const uint8_t*>(a.inputs[0]);
    auto* y = static_cast<uint8_t*>(a.outputs[0]);
    const size_t block = static_cast<size_t>(inner_) * es_;
    // Indices are validated before anything is written: a bad one fails the task cleanly.
    for (int64_t j = 0; j < nidx_; ++j) {
      const int64_t v = Index(a.inputs[1], j);
      if (v < -axis_ || v >= axis_) {
        return Err(ACL_ERROR_RT_AICORE_EXCEPTION, "Gather: index {} at position {} is outside [-{}, {})", v, j, axis_,
                   axis_);
      }
    }
#pragma omp parallel for num_threads(a.threads) if (outer_ * nidx_ * static_cast<int64_t>(block) > (1 << 20))
    for (int64_t o = 0; o < outer_; ++o) {
      for (int64_t j = 0; j < nidx_; ++j) {
        int64_t v = Index(a.inputs[1], j);
        if (v < 0) v += axis_;
        if (block != 0) std::memcpy(y + (o * nidx_ + j) * block, x + (o * axis_ + v) * block, block);
      }
    }
    return Status::Ok();
  }

 private:
  int64_t Index(const void* p, int64_t j) const {
    return idx_dtype_ == ACL_INT64 ? static_cast<const int64_t*>(p)[j] : static_cast<const int32_t*>(p)[j];
  }
  int64_t outer_, axis_, inner_, nidx_;
  int32_t idx_dtype_;
  size_t es_;
};

// Gather: x, indices (int32/int64) -> y = x.take(indices, axis); attr axis (default 0).
Status BuildGather(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 1, {ACL_INT32, ACL_INT64}));
  if (x.rank() == 0) return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x must have at least one dim", b.type);
  auto ax = AxisAttr(b, {"axis"}, x.rank());
  if (!ax.ok()) return std::move(ax).status();
  const int64_t axis = ax.value();
  int64_t outer = 1, inner = 1;
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < static_cast<int64_t>(x.rank()); ++k) {
    if (k < axis) {
      outer *= x.dims[k];
      dims.push_back(x.dims[k]);
    }
    if (k == axis) dims.insert(dims.end(), b.inputs[1].dims.begin(), b.inputs[1].dims.end());
    if (k > axis) {
      inner *= x.dims[k];
      dims.push_back(x.dims[k]);
    }
  }
  b.outputs = {TensorSpec{x.dtype, RequestedFormat(b, 0, x.format), dims}};
  if (b.compile) {
    b.kernel = std::make_unique<GatherKernel>(outer, x.dims[axis], inner, b.inputs[1].numel(), b.inputs[1].dtype,
                                              DTypeSize(x.dtype));
  }
  return Status::Ok();
}

// ------------------------------------------------------------------------------------------- fill
class FillKernel final : public Kernel {
 public:
  FillKernel(int32_t dtype, int64_t n, bool from_input, double value)
      : dtype_(dtype), n_(n), from_input_(from_input), value_(value) {}
  Status Run(const OpRunArgs& a) const override {
    const size_t es = DTypeSize(dtype_);
    uint8_t pattern[8] = {};
    if (from_input_) {
      std::memcpy(pattern, a.inputs[0], es);
    } else {
      StoreFromDouble(pattern, dtype_, 0, value_);
    }
    auto* y = static_cast<uint8_t*>(a.outputs[0]);
#pragma omp parallel for num_threads(a.threads) if (n_ > kParallelGrain)
    for (int64_t i = 0; i < n_; ++i) std::memcpy(y + i * static_cast<int64_t>(es), pattern, es);
    return Status::Ok();
  }

 private:
  int32_t dtype_;
  int64_t n_;
  bool from_input_;
  double value_;
};

// Fill: [value (one element)] -> y of the output descriptor's shape and type; without an input the
// value comes from attr value (float).
Status BuildFill(OpBuild& b) {
  if (b.requested.empty()) return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: needs one output descriptor", b.type);
  TensorSpec y = b.requested[0];
  if (y.dynamic()) return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: the output shape must be static", b.type);
  double value = 0.0;
  if (b.inputs.empty()) {
    auto v = GetFloat(*b.attrs, "value", 0.0f);
    if (!v.ok()) return v.status();
    value = v.value();
  } else if (b.inputs[0].numel() != 1 || b.inputs[0].dtype != y.dtype) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: value must be one element of the output's type {}, not {}", b.type,
               DTypeName(y.dtype), Describe(b.inputs[0]));
  }
  if (DTypeSize(y.dtype) == 0) {
    return Err(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "{}: output data type {} is not supported", b.type, DTypeName(y.dtype));
  }
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<FillKernel>(y.dtype, y.numel(), !b.inputs.empty(), value);
  return Status::Ok();
}

}  // namespace

void RegisterReduceOps(OpTable& t);

void RegisterDataOps(OpTable& t) {
  RegisterReduceOps(t);
  t.Add({"Cast", 1, 1, &BuildCast, false, kAllTypes,
         "x -> y of the output descriptor's type (attr dst_type optional); float->int truncates"});
  t.Add({"Transpose", 1, 1, &BuildTranspose, false, kAllTypes, "x -> y; attr perm (default: reversed dims)"});
  t.Alias("TransposeD", "Transpose");
  t.Add({"Reshape", 1, 1, &BuildReshape, false, kAllTypes,
         "x -> y; attr shape (-1 inferred, 0 keeps), squeeze_axes, unsqueeze_axes or flatten_axis (relative to x), "
         "or the output descriptor's shape"});
  t.Add({"Concat", 1, -1, &BuildConcat, false, kAllTypes, "x0..xN-1 -> y; attr concat_dim or axis (default 0)"});
  t.Alias("ConcatD", "Concat");
  t.Alias("ConcatV2", "Concat");
  t.Add({"Split", 1, 1, &BuildSplit, false, kAllTypes,
         "x -> y0..yN-1 (equal parts); attrs split_dim or axis, num_split (default: output count)"});
  t.Alias("SplitD", "Split");
  t.Add({"Slice", 1, 1, &BuildSlice, false, kAllTypes, "x -> y; attrs offsets (or begin), size (-1 = to end)"});
  t.Alias("SliceD", "Slice");
  t.Add({"Gather", 2, 2, &BuildGather, false, kAllTypes,
         "x, indices (int32/int64) -> y; attr axis (default 0); negative indices count from the end"});
  t.Alias("GatherV2", "Gather");
  t.Alias("GatherV2D", "Gather");
  t.Add({"Fill", 0, 1, &BuildFill, false, kAllTypes,
         "[value (1 element)] -> y of the output descriptor's shape; without input, attr value (float)"});
}

}  // namespace npurt::drivers::host
