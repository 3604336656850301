// Executables tiled at run time for shapes that only the device knows (hal::OpRequest::shape_slots). A model
// tensor downstream of NonZero has dims that depend on the data: atc plans its buffer for an upper bound and
// gives it a shape slot in device memory. The operators that read it are built as a ShapeSlotExecutable: each
// run reads its inputs' actual dims from their slots, finds the kernel built for those dims (or builds it,
// re-tiling the bound kernel where the backend can, and keeps the 16 most recently used), writes its outputs' dims to
// their slots and runs the kernel, all on the executing engine in queue order. So the host queues a whole
// model at once and never waits for a shape between operators.
#pragma once

#include <memory>

#include "hal/op_backend.h"

namespace npurt::drivers::host {

// Builds a kernel at the request's dims (the backend's build without this wrapper).
using KernelAtFn = StatusOr<hal::OpBuilt> (*)(const hal::OpRequest& request);

// Validates the request at its bound dims (what the buffers hold at most), then returns the executable that
// tiles per run. The request's inputs, outputs, attributes and constants are copied.
StatusOr<hal::OpBuilt> BuildShapeSlotted(const hal::OpRequest& request, KernelAtFn kernel_at);

}  // namespace npurt::drivers::host
