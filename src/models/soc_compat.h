// Which --soc_version a model may have been built for, and how a load checks it (docs/models.md, "SoC
// versions"). CANN refuses a model built for another SoC (aclrtCheckArchCompatibility). npurt's models
// hold portable operators that the runtime's driver compiles when the model loads, so a model built for
// any Ascend SoC runs on every npurt device: the samples' atc lines name Ascend310, Ascend310P3,
// Ascend910B1 ... and must work unchanged. What is refused is a name that is no Ascend SoC at all.
#pragma once

#include <string_view>

namespace npurt::models {

// True for the SoC names CANN's atc accepts (Ascend310, Ascend310B1, Ascend310P3, Ascend910, Ascend910A,
// Ascend910B, Ascend910B1..4, Ascend910B4-1, Ascend910_9391, Ascend950PR_9599, ...), case-sensitive.
bool IsAscendSoc(std::string_view soc);

}  // namespace npurt::models
