// Capture modes (aclmdlRICaptureMode): which threads may make potentially unsafe calls — synchronous
// copies and fills, asynchronous copies of pageable memory — while captures are active.
//
// The rules are CUDA's. A thread whose own mode (aclmdlRICaptureThreadExchangeMode; GLOBAL by default)
// is RELAXED may always make them. Otherwise it may not while it has begun a capture that is not
// RELAXED, and, if its mode is GLOBAL, while any other thread has a GLOBAL capture active. A refused
// call made by a thread that is itself capturing also invalidates that capture (it then fails at
// aclmdlRICaptureEnd), since the work the call stood for is missing from the graph.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "core/model_ri/model_ri.h"

namespace npurt::core {

// OK if the calling thread may make the unsafe call `what` now; else `code` (ACL_ERROR_RT_CAPTURE_MODE_
// NOT_SUPPORT for synchronous calls, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC for asynchronous calls that
// would turn synchronous) with a message.
Status CheckCaptureSafe(const char* what, int32_t code);

// aclmdlRICaptureThreadExchangeMode: sets the calling thread's mode, returns the previous one.
CaptureMode ExchangeThreadMode(CaptureMode mode);

// Bookkeeping of active captures (ModelRI::BeginCapture / EndCapture).
void RegisterCapture(ModelRI* graph, CaptureMode mode);
void UnregisterCapture(ModelRI* graph);

// The calling thread's id as the capture registry records it.
uint64_t CaptureThreadId();

}  // namespace npurt::core
