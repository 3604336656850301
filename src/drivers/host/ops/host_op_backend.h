// The host operator backend (hal/op_backend.h): operators compiled into oneDNN primitives and hand-written
// kernels that run on the host CPU, for drivers whose device memory the host addresses (the sim).
#pragma once

#include "hal/op_backend.h"

namespace npurt::drivers::host {

// A process-lifetime object.
const hal::OpBackend* OpBackend();

}  // namespace npurt::drivers::host
