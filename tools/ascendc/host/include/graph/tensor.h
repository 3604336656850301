// graph/tensor.h for npurt: the part of CANN's graph headers that the host tiling functions take,
// ge::Shape (a tensor's dimensions). Header-only; included by tiling/tiling_api.h.
#ifndef NPURT_GRAPH_TENSOR_H_
#define NPURT_GRAPH_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ge {

using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
  size_t GetDimNum() const { return dims_.size(); }
  // 0 for an index past the last dimension, as CANN's.
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  graphStatus SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) return GRAPH_FAILED;
    dims_[idx] = value;
    return GRAPH_SUCCESS;
  }
  std::vector<int64_t> GetDims() const { return dims_; }
  // The element count: the product of the dimensions (0 for a shape without dimensions, -1 when one is
  // unknown, i.e. negative).
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims_) {
      if (d < 0) return -1;
      n *= d;
    }
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge

#endif  // NPURT_GRAPH_TENSOR_H_
