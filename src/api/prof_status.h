// Device utilisation as sampled by the status publisher (src/api/prof_device_status.cc). Private.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/prof_status.h is private to the npurt runtime"
#endif

#include <cstdint>

namespace npurt::api {

// Percentage of the last second's samples in which `device` had work queued or running (0 before the
// first sample).
int32_t DeviceBusyPercent(int32_t device);

}  // namespace npurt::api
