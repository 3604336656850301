// Writing the .om container (om_format.h) from a ModelDef and its weight region: what atc does last.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "models/om/om_model.h"

namespace npurt::om {

// The whole file. `weights` is the weight region (def.weight_size bytes; tensors of Region::kWeight sit at
// their offsets in it).
StatusOr<std::vector<uint8_t>> SerializeModel(const ModelDef& def, const std::vector<uint8_t>& weights);

// SerializeModel, then the file at `path` (written to a temporary name and renamed, so a reader never sees
// half a model).
Status WriteModelFile(const ModelDef& def, const std::vector<uint8_t>& weights, const std::string& path);

}  // namespace npurt::om
