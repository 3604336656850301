#include "onnx_semantics.h"

#include <algorithm>
#include <limits>

#include "atc_options.h"
#include "base/tensor_spec.h"

namespace npurt::atc {


StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return Err(kFail, "axis {} is out of range for rank {}", axis, rank);
  return axis < 0 ? axis + rank : axis;
}

StatusOr<std::vector<int64_t>> ReshapeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& shape,
                                           bool allowzero) {
  int64_t total = 1;
  for (int64_t d : in) total *= d;
  std::vector<int64_t> out = shape;
  int64_t known = 1, infer = -1;
  for (size_t k = 0; k < out.size(); ++k) {
    if (out[k] == 0 && !allowzero) {
      if (k >= in.size()) return Err(kFail, "Reshape: shape {} copies dim {} of {}", DimsString(shape), k, DimsString(in));
      out[k] = in[k];
    }
    if (out[k] == -1) {
      if (infer >= 0) return Err(kFail, "Reshape: shape {} has more than one -1", DimsString(shape));
      infer = static_cast<int64_t>(k);
    } else if (out[k] < 0) {
      return Err(kFail, "Reshape: shape {} is invalid", DimsString(shape));
    } else {
      known *= out[k];
    }
  }
  if (infer >= 0) {
    if (known == 0 || total % known != 0) {
      return Err(kFail, "Reshape: cannot reshape {} into {}", DimsString(in), DimsString(shape));
    }
    out[static_cast<size_t>(infer)] = total / known;
    known *= out[static_cast<size_t>(infer)];
  }
  if (known != total) return Err(kFail, "Reshape: cannot reshape {} into {}", DimsString(in), DimsString(shape));
  return out;
}

StatusOr<SliceRange> SliceDims(const std::vector<int64_t>& in, const std::vector<int64_t>& starts,
                               const std::vector<int64_t>& ends, const std::vector<int64_t>& axes_in,
                               const std::vector<int64_t>& steps) {
  const auto rank = static_cast<int64_t>(in.size());
  SliceRange r;
  r.begin.assign(in.size(), 0);
  r.size = in;
  r.step.assign(in.size(), 1);
  if (starts.size() != ends.size() || (!axes_in.empty() && axes_in.size() != starts.size()) ||
      (!steps.empty() && steps.size() != starts.size())) {
    return Err(kFail, "Slice: starts, ends, axes and steps differ in length");
  }
  std::vector<bool> seen(in.size(), false);
  for (size_t i = 0; i < starts.size(); ++i) {
    auto ax = NormalizeAxis(axes_in.empty() ? static_cast<int64_t>(i) : axes_in[i], rank);
    if (!ax.ok()) return std::move(ax).status();
    const auto a = static_cast<size_t>(ax.value());
    if (seen[a]) return Err(kFail, "Slice: axis {} is given twice", a);
    seen[a] = true;
    const int64_t dim = in[a];
    const int64_t step = steps.empty() ? 1 : steps[i];
    if (step == 0) return Err(kFail, "Slice: step 0");
    auto clamp_index = [&](int64_t v, bool is_end) {
      if (v < 0) v = std::max<int64_t>(v, std::numeric_limits<int64_t>::min() + dim) + dim;
      if (step > 0) return std::clamp<int64_t>(v, 0, dim);
      return std::clamp<int64_t>(v, is_end ? -1 : 0, dim - 1);
    };
    const int64_t s = clamp_index(starts[i], false), e = clamp_index(ends[i], true);
    int64_t count = 0;
    if (step > 0 && e > s) count = (e - s + step - 1) / step;
    if (step < 0 && s > e) count = (s - e + (-step) - 1) / (-step);
    r.begin[a] = count > 0 ? s : 0;
    r.size[a] = count;
    r.step[a] = step;
  }
  return r;
}

StatusOr<std::vector<int64_t>> SqueezeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& axes) {
  const auto rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.empty()) {
    for (size_t k = 0; k < in.size(); ++k) drop[k] = in[k] == 1;
  }
  for (int64_t a : axes) {
    auto ax = NormalizeAxis(a, rank);
    if (!ax.ok()) return std::move(ax).status();
    if (in[static_cast<size_t>(ax.value())] != 1) {
      return Err(kFail, "Squeeze: dim {} of {} is not 1", ax.value(), DimsString(in));
    }
    drop[static_cast<size_t>(ax.value())] = true;
  }
  std::vector<int64_t> out;
  for (size_t k = 0; k < in.size(); ++k) {
    if (!drop[k]) out.push_back(in[k]);
  }
  return out;
}

StatusOr<std::vector<int64_t>> UnsqueezeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& axes) {
  const auto rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> ins(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    auto ax = NormalizeAxis(a, rank);
    if (!ax.ok()) return std::move(ax).status();
    if (ins[static_cast<size_t>(ax.value())]) return Err(kFail, "Unsqueeze: axis {} is given twice", a);
    ins[static_cast<size_t>(ax.value())] = true;
  }
  std::vector<int64_t> out;
  size_t j = 0;
  for (int64_t k = 0; k < rank; ++k) out.push_back(ins[static_cast<size_t>(k)] ? 1 : in[j++]);
  return out;
}

StatusOr<std::vector<int64_t>> FlattenDims(const std::vector<int64_t>& in, int64_t axis) {
  const auto rank = static_cast<int64_t>(in.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return Err(kFail, "Flatten: axis {} is out of range for rank {}", axis, rank);
  int64_t a = 1, b = 1;
  for (int64_t k = 0; k < rank; ++k) (k < axis ? a : b) *= in[static_cast<size_t>(k)];
  return std::vector<int64_t>{a, b};
}

StatusOr<std::vector<int64_t>> Broadcast(const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  const size_t rank = std::max(x.size(), y.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t dx = i < rank - x.size() ? 1 : x[i - (rank - x.size())];
    const int64_t dy = i < rank - y.size() ? 1 : y[i - (rank - y.size())];
    if (dx != dy && dx != 1 && dy != 1) {
      return Err(kFail, "shapes {} and {} cannot be broadcast together", DimsString(x), DimsString(y));
    }
    out[i] = dx == 1 ? dy : dx;
  }
  return out;
}

}  // namespace npurt::atc
