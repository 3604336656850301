// AscendC::AscendCUtils for the sim: SetOverflow, the switch between saturating and IEEE (inf / NaN) results of
// overflowing float vector operations. The sim's vector operations always give IEEE results, so the switch is
// accepted and has no effect (a kernel whose data saturates on the device sees inf / NaN here). Part of
// kernel_operator.h.
#pragma once

#include <cstdint>

#include "npurt_kernel/tensor.h"

namespace AscendC {

struct AscendCUtils {
  __aicore__ static inline void SetOverflow(uint64_t ctrlValue) { (void)ctrlValue; }
};

}  // namespace AscendC
