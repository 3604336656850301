// TensorSpec: what an operator needs to know about one tensor to be compiled (data type, format,
// shape). It is the value part of a tensor descriptor and of the compile-cache key, and what the operator
// layer and a driver's operator backend (hal/op_backend.h) exchange.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/dtype.h"

namespace npurt {

struct TensorSpec {
  int32_t dtype = ACL_DT_UNDEFINED;
  int32_t format = ACL_FORMAT_ND;
  std::vector<int64_t> dims;

  size_t rank() const { return dims.size(); }
  bool dynamic() const {
    for (int64_t d : dims) {
      if (d < 0) return true;
    }
    return false;
  }
  // Element count (1 for a scalar; 0 if any dim is 0 or dynamic). Saturates at INT64_MAX: dims come from
  // the user, and a product that overflows (undefined for int64_t; fuzz_op_compile found it) must read as
  // "too big for any buffer", never wrap to a small count.
  int64_t numel() const {
    int64_t n = 1;
    bool saturated = false;
    for (int64_t d : dims) {
      if (d <= 0) return 0;
      saturated = saturated || __builtin_mul_overflow(n, d, &n);
    }
    return saturated ? INT64_MAX : n;
  }
  // Bytes of the tensor, saturating at SIZE_MAX likewise.
  size_t bytes() const {
    size_t b = 0;
    return __builtin_mul_overflow(static_cast<size_t>(numel()), DTypeSize(dtype), &b) ? SIZE_MAX : b;
  }
  bool operator==(const TensorSpec& o) const { return dtype == o.dtype && format == o.format && dims == o.dims; }
};

// "float16[2,3] ND" for messages.
std::string Describe(const TensorSpec& spec);
std::string DimsString(const std::vector<int64_t>& dims);

}  // namespace npurt
