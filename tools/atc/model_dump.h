// --mode=1 (a model as JSON) and --mode=6 (model information), for npurt .om files and, in mode 1,
// ONNX models (--framework=5).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "models/om/om_model.h"

namespace npurt::atc {

// The container's fields, tensors, nodes with attributes, and the plan.
nlohmann::json ModelToJson(const om::ModelDef& def);

// Mode 1: `om_path` (an npurt .om, or with framework 5 an ONNX model) -> `json_path`.
Status DumpModelJson(const std::string& om_path, int32_t framework, const std::string& json_path);

// Mode 6: the information text of an npurt .om.
StatusOr<std::string> ModelInfo(const std::string& om_path);

}  // namespace npurt::atc
