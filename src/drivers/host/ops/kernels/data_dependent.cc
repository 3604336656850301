// Operators whose output shape depends on the input data: NonZero. They compile only for runs with shape
// slots (hal::OpRequest::shape_slots): their output buffers are planned for an upper bound, and each run
// writes the output's actual dims to its shape slot, which the operators downstream read before they tile.
#include <algorithm>
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "base/dtype.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

// NonZero: x (any type) -> y int64 [rank(x), count], the coordinates of x's non-zero elements in row-major
// order (ONNX NonZero; NaN counts as non-zero, -0.0 as zero). A scalar x is taken as [1]. The bound, what y's
// buffer holds, is [rank, numel(x)].
// Calls fn(i) for each non-zero element i of x, in order, with one loop per element type (no per-element
// dispatch): floats compare to 0 (so -0.0 is zero and NaN is not), 16-bit floats by their bits without the sign.
template <typename Fn>
void ForEachNonZero(const void* x, int32_t dtype, int64_t n, Fn&& fn) {
  auto scan = [&](const auto* v, auto nonzero) {
    for (int64_t i = 0; i < n; ++i) {
      if (nonzero(v[i])) fn(i);
    }
  };
  switch (DTypeSize(dtype)) {
    case 1: scan(static_cast<const uint8_t*>(x), [](uint8_t v) { return v != 0; }); break;
    case 2:
      if (dtype == ACL_FLOAT16 || dtype == ACL_BF16) {
        scan(static_cast<const uint16_t*>(x), [](uint16_t v) { return (v & 0x7fffu) != 0; });
      } else {
        scan(static_cast<const uint16_t*>(x), [](uint16_t v) { return v != 0; });
      }
      break;
    case 4:
      if (dtype == ACL_FLOAT) {
        scan(static_cast<const float*>(x), [](float v) { return v != 0.0f; });
      } else {
        scan(static_cast<const uint32_t*>(x), [](uint32_t v) { return v != 0; });
      }
      break;
    default:
      if (dtype == ACL_DOUBLE) {
        scan(static_cast<const double*>(x), [](double v) { return v != 0.0; });
      } else {
        scan(static_cast<const uint64_t*>(x), [](uint64_t v) { return v != 0; });
      }
      break;
  }
}

// NonZero: x (any type) -> y int64 [rank(x), count], the coordinates of x's non-zero elements in row-major
// order (ONNX NonZero; NaN counts as non-zero, -0.0 as zero). A scalar x is taken as [1]. The bound, what y's
// buffer holds, is [rank, numel(x)].
class NonZeroKernel final : public Kernel {
 public:
  explicit NonZeroKernel(TensorSpec x) : x_(std::move(x)) {}

  Status Run(const OpRunArgs& a) const override {
    if (a.shapes == nullptr || a.shapes[1] == nullptr) {
      return Err(ACL_ERROR_RT_PARAM_INVALID, "NonZero ran without a shape slot for its output");
    }
    const int64_t n = x_.numel();
    const auto rank = static_cast<int64_t>(std::max<size_t>(x_.rank(), 1));
    const std::vector<int64_t> dims = x_.rank() == 0 ? std::vector<int64_t>{1} : x_.dims;
    auto* y = static_cast<int64_t*>(a.outputs[0]);
    int64_t j = 0;
    if (rank == 1) {  // one pass: [1, count] is the flat indices
      ForEachNonZero(a.inputs[0], x_.dtype, n, [&](int64_t i) { y[j++] = i; });
      a.shapes[1][0] = 1;
      a.shapes[1][1] = j;
      return Status::Ok();
    }
    int64_t count = 0;
    ForEachNonZero(a.inputs[0], x_.dtype, n, [&](int64_t) { ++count; });
    // Row k holds coordinate k of every non-zero element: [rank, count] packed at the actual count.
    ForEachNonZero(a.inputs[0], x_.dtype, n, [&](int64_t i) {
      int64_t rest = i;
      for (int64_t k = rank - 1; k > 0; --k) {
        const int64_t d = dims[static_cast<size_t>(k)];  // > 0: x has element i
        y[k * count + j] = rest % d;
        rest /= d;
      }
      y[j] = rest;
      ++j;
    });
    a.shapes[1][0] = rank;
    a.shapes[1][1] = count;
    return Status::Ok();
  }

 private:
  TensorSpec x_;
};

Status BuildNonZero(OpBuild& b) {
  const TensorSpec& x = b.inputs[0];
  if (x.dtype == ACL_STRING || DTypeSize(x.dtype) == 0) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x has data type {}, which has no zero", b.type, DTypeName(x.dtype));
  }
  const auto rank = static_cast<int64_t>(std::max<size_t>(x.rank(), 1));
  b.outputs = {TensorSpec{ACL_INT64, 2 /* ACL_FORMAT_ND */, {rank, x.numel()}}};
  if (!b.compile) return Status::Ok();
  if (!b.shape_slots) {
    return Err(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, "{}: its output shape depends on the input data, so it runs only "
               "where each run's shapes live on the device (an offline model's shape slots: atc converts ONNX "
               "NonZero); as a single operator its output descriptor cannot say the shape in advance", b.type);
  }
  b.kernel = std::make_unique<NonZeroKernel>(x);
  return Status::Ok();
}

}  // namespace

void RegisterDataDependentOps(OpTable& t) {
  t.Add({"NonZero", 1, 1, &BuildNonZero, false,
         "float32, float16, bfloat16, float64, int8/16/32/64, uint8/16/32/64, bool",
         "x -> y int64 [rank(x), count]: the coordinates of x's non-zero elements (ONNX NonZero); the output "
         "shape depends on the data, so it runs in offline models only (shape slots), planned for count = numel(x)"});
}

}  // namespace npurt::drivers::host
