#include "base/tensor_spec.h"

#include <fmt/format.h>

namespace npurt {

std::string DimsString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

std::string Describe(const TensorSpec& spec) {
  return fmt::format("{}{} {}", DTypeName(spec.dtype), DimsString(spec.dims), FormatName(spec.format));
}

}  // namespace npurt
