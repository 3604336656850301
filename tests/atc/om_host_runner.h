// A reference executor for tests: runs a converted .om on the host, node by node, through the same
// operator backend (core::BuildOperator compile + core::RunOperatorNow) on host memory laid out as the
// plan says (one arena, the weight region, user buffers for inputs and outputs). It exists to check
// atc's output numerically before the runtime's model loader does; it is not the loader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::atc::testing {

// inputs[i] holds the bytes of model input i; outputs receives the bytes of each model output. A gear
// model runs gear `gear`'s graph (its inputs include the selector, whose bytes are not read).
Status RunOmOnHost(const std::string& om_path, const std::vector<std::vector<uint8_t>>& inputs,
                   std::vector<std::vector<uint8_t>>* outputs, size_t gear = 0);

}  // namespace npurt::atc::testing
