// Validation of a kernel binary's table (include/npurt/kernel_abi.h) once the dynamic loader mapped the
// binary, before the runtime follows any pointer in it: every pointer must lie inside the binary's own
// mapped segments (code pointers inside an executable one), every string must end there, and counts,
// offsets and sizes must be consistent. A corrupt or hostile table is refused with an error that names
// the field, instead of crashing aclrtBinaryLoad*, aclrtBinaryGetFunction or a launch.
#pragma once

#include <string>

#include "base/status.h"
#include "npurt/kernel_abi.h"

namespace npurt::drivers::host {

// Upper bounds of what a kernel binary may declare (far above what the toolchain generates).
inline constexpr uint32_t kMaxKernelsPerBinary = 1u << 16;
inline constexpr uint32_t kMaxKernelParams = 1u << 10;
inline constexpr uint32_t kMaxKernelArgsSize = 1u << 20;
inline constexpr size_t kMaxKernelNameLength = 4096;

// `dl` is the dlopen() handle the table was found in; the magic and ABI version are checked too.
// Errors: ACL_ERROR_PARSE_FILE.
Status CheckKernelTable(void* dl, const npurt_kernel_table_t* table, const std::string& origin);

}  // namespace npurt::drivers::host
