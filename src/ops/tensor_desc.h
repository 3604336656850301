// TensorDesc: the object behind aclTensorDesc*. A handle (validated by tag on every API call) that
// carries a TensorSpec plus the descriptor extras ACL programs set: name, origin/storage layout,
// shape ranges, constant data and placement.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/handle.h"
#include "ops/handle_tags.h"
#include "base/tensor_spec.h"

namespace npurt::ops {

class TensorDesc final : public HandleObject {
 public:
  TensorDesc() : HandleObject(handle_tags::kTensorDesc) {}

  static TensorDesc* From(const void* p) { return LookupHandle<TensorDesc>(p, handle_tags::kTensorDesc); }

  TensorSpec spec;
  bool unknown_rank = false;  // created with the single dim -2
  std::string name;
  std::string dynamic_input;
  int32_t origin_format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> origin_dims;
  int32_t storage_format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> storage_dims;
  std::vector<std::array<int64_t, 2>> shape_range;
  std::vector<std::array<int64_t, 2>> value_range;
  std::vector<uint8_t> const_data;
  bool is_const = false;
  int32_t placement = 0;  // aclMemType
};

}  // namespace npurt::ops
