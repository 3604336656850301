// Support code of the generated API tracer (libnpurt_apitrace.so, see gen_apitrace.py): resolving the
// real functions, timing and the per-thread record buffers, written to
// $NPURT_PROF_RAW_DIR/apitrace.<pid>.bin in the profiler's 48-byte record format (type 3 = API call,
// a = index into apitrace_names.<pid>.tsv).
#pragma once

#include <cstdint>

namespace npurt_apitrace {

extern const char* const kNames[];
extern const int kNameCount;

void* Resolve(const char* name);
// Returns the start time, or 0 when API calls are not being recorded (ACL_PROF_ACL_API off). runtime_api is
// 1 for aclrt* calls; they are CANN's AscendCL level too, recorded under the same switch.
uint64_t Start(int runtime_api);
void End(int index, int runtime_api, uint64_t start_ns);

}  // namespace npurt_apitrace
