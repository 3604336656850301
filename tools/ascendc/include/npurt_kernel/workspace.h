// The launch workspace of kernels that use the high-level APIs: SetSysWorkspace records the workspace the
// kernel was given, GetSysWorkSpacePtr returns it (nullptr until set), GetUserWorkspace skips the system
// part that CANN's libraries reserve at its start (NPURT_SIM_LIB_API_WORKSPACE_BYTES, what
// PlatformAscendC::GetLibApiWorkSpaceSize reports). The sim's Matmul needs no system workspace. Part of
// kernel_operator.h.
#pragma once

#include "npurt_kernel/base.h"

// The kernel parameter qualifier of the system workspace (`__kfc_workspace__ GM_ADDR workspace`): the kernel
// generator makes the kernel's entry pass that argument to SetSysWorkspace.
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

namespace AscendC {
namespace npurt_detail {
inline thread_local GM_ADDR g_sys_workspace = nullptr;
}  // namespace npurt_detail

__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) { npurt_detail::g_sys_workspace = workspace; }
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return npurt_detail::g_sys_workspace; }
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + NPURT_SIM_LIB_API_WORKSPACE_BYTES;
}

}  // namespace AscendC

// A global name, as CANN's headers give it: kernels call GetSysWorkSpacePtr() without AscendC::.
using AscendC::GetSysWorkSpacePtr;
