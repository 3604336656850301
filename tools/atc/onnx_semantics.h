// ONNX shape rules that constant folding and lowering share: Reshape's 0 and -1, Slice's clamping, the
// axes of Squeeze/Unsqueeze/Flatten, broadcasting. One implementation, so a folded and a lowered node
// agree by construction.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"

namespace npurt::atc {

// Reshape: 0 copies the input dim (unless allowzero), one -1 is inferred.
StatusOr<std::vector<int64_t>> ReshapeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& shape,
                                           bool allowzero);

// Slice: per input dim, the first element, the element count and the step.
struct SliceRange {
  std::vector<int64_t> begin, size, step;
};
StatusOr<SliceRange> SliceDims(const std::vector<int64_t>& in, const std::vector<int64_t>& starts,
                               const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
                               const std::vector<int64_t>& steps);

StatusOr<std::vector<int64_t>> SqueezeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& axes);
StatusOr<std::vector<int64_t>> UnsqueezeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& axes);
StatusOr<std::vector<int64_t>> FlattenDims(const std::vector<int64_t>& in, int64_t axis);
StatusOr<std::vector<int64_t>> Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// axis in [-rank, rank) -> [0, rank).
StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);

}  // namespace npurt::atc
