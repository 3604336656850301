// atc's gear options (--dynamic_batch_size, --dynamic_image_size, --dynamic_dims): parsed and checked
// against --input_shape's -1 dims and --input_format, with CANN's rules (shared reference models.md §3.1,
// §3.3): one option at most; 2 to 100 gears; positive values, no gear twice; batch gears need -1 in the
// first dim only; image-size gears -1 in H and W of NCHW/NHWC inputs only; dims gears --input_format=ND,
// one value per -1 across the inputs, and no --insert_op_conf.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atc_options.h"
#include "base/status.h"
#include "models/om/om_model.h"

namespace npurt::atc {

struct GearOptionText {
  const std::string* batch = nullptr;  // the options' values as given (null: not given)
  const std::string* image_size = nullptr;
  const std::string* dims = nullptr;
};

// Fills opts->dynamic_kind and opts->gears from `text`, checked against opts->input_shapes,
// opts->input_format and opts->insert_op_conf. Without a gear option, -1 dims and ranges make a dynamic-shape
// model (DynamicKind::kShape).
Status ParseGearOptions(const GearOptionText& text, Options* opts);

// The gear that runs when a program chooses none: the one whose inputs are largest (the largest batch, the
// largest image), the last of equals.
size_t LargestGear(const Options& opts);

// --input_shape with gear `g`'s values in place of the -1s.
std::vector<InputShape> GearShapes(const Options& opts, size_t g);

}  // namespace npurt::atc
