// The findings of npurt's checks, as records for the mssanitizer tool (tools/mssanitizer, docs/sanitizer.md).
//
// When NPURT_SANITIZER_LOG names a file, the runtime appends one JSON object per line to it for each finding:
// a failed kernel task (with NPURT_SIM_MEMCHECK=1 an out-of-bounds global-memory access), device memory still
// allocated when its context is destroyed (a leak) and a race (NPURT_RACECHECK=1). The tool sets the variable,
// runs the program and prints the records in msSanitizer's layout once the program has exited, so the
// program's own output stays its own. Unset (the default), SanitizerLogOn() is one load and a branch.
//
// Thread-safe. Each record is written with one write(2) on a descriptor opened with O_APPEND: records of
// concurrent threads, and of child processes that inherit the variable, never interleave.
#pragma once

#include <string_view>

namespace npurt::dfx {

// True when NPURT_SANITIZER_LOG names a file that could be opened (decided once, at the first call).
bool SanitizerLogOn();

// Appends `json`, one JSON object without a newline, as one line. Does nothing when the log is off.
void SanitizerLogWrite(std::string_view json);

}  // namespace npurt::dfx
