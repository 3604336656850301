// Facts about processes of this machine that tokens shared between processes carry.
#pragma once

#include <cstdint>

namespace npurt {

// Start time of process `pid` (clock ticks after boot), 0 if it does not exist: tokens that name a
// process carry it, so that a recycled pid is detected.
uint64_t ProcessStartTime(int32_t pid);

// Whether process `pid`, started at `start_time`, still runs: it exists, is not a zombie (an exited
// process whose parent has not reaped it yet), and its pid was not recycled.
bool ProcessRunning(int32_t pid, uint64_t start_time);

}  // namespace npurt
