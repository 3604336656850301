// What the runtime knows of a gear model's gears (atc --dynamic_batch_size / --dynamic_image_size /
// --dynamic_dims; docs/models.md "Gears"): their values, each one's output dims, and the matching of a
// program's request (aclmdlSetDynamicBatchSize, ...SetDynamicHWSize, ...SetInputDynamicDims) to a gear,
// with CANN's codes: a value that is no gear is ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID (145013), a dims
// request of the wrong length or with a static dim changed ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID (145012).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "models/om/om_model.h"

namespace npurt::models {

struct GearTable {
  om::DynamicKind kind = om::DynamicKind::kNone;
  std::vector<om::InputTemplate> templates;
  std::vector<size_t> template_inputs;                 // the model input of each template
  std::vector<std::vector<int64_t>> values;            // per gear
  std::vector<std::vector<std::vector<int64_t>>> input_dims;   // per gear, per model input
  std::vector<std::vector<std::vector<int64_t>>> output_dims;  // per gear, per model output
  size_t default_gear = 0;
  size_t selector_index = 0;  // the hidden input ACL_DYNAMIC_TENSOR_NAME: the last

  // Gears (batch, image size, dims); a dynamic-shape model (kShape) has none, only `templates` with their
  // ranges, one per model input (template_inputs[i] == i).
  bool dynamic() const { return kind != om::DynamicKind::kNone && kind != om::DynamicKind::kShape; }
  bool shapes() const { return kind == om::DynamicKind::kShape; }
  // The gear a request selects, or why none does.
  StatusOr<size_t> FindBatch(uint64_t batch) const;
  StatusOr<size_t> FindImageSize(uint64_t height, uint64_t width) const;
  // `all`: every dim of every templated input, in template order (CANN's aclmdlSetInputDynamicDims).
  StatusOr<size_t> FindDims(const std::vector<int64_t>& all) const;
  // The values' text for messages: "1, 2, 4, 8" / "224x224, 448x448" / "[1,200,200], [2,224,224]".
  std::string Describe() const;
};

// The table of a verified gear model (a static model: kind kNone, nothing else).
GearTable MakeGearTable(const om::ModelDef& def);

}  // namespace npurt::models
