// TensorSpec: what an operator needs to know about one tensor to be compiled (data type, format,
// shape). It is the value part of a tensor descriptor and of the compile-cache key.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/dtype.h"

namespace npurt::ops {

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
  // Element count (1 for a scalar; 0 if any dim is 0 or dynamic).
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d < 0 ? 0 : d;
    return n;
  }
  size_t bytes() const { return static_cast<size_t>(numel()) * DTypeSize(dtype); }
  bool operator==(const TensorSpec& o) const { return dtype == o.dtype && format == o.format && dims == o.dims; }
};

// "float16[2,3] ND" for messages.
std::string Describe(const TensorSpec& spec);
std::string DimsString(const std::vector<int64_t>& dims);

}  // namespace npurt::ops
