// The kernel loader of drivers whose devices run host code (the sim): a kernel binary is a host ELF shared
// object built by npurt's Ascend C toolchain, exporting the table of its kernels (include/npurt/kernel_abi.h).
// Loading checks the image (host_kernel_elf.h) before the dynamic loader maps it and the table
// (host_kernel_table_check.h) before anything follows a pointer in it. A kernel's code handle
// (hal::KernelInfo::code) is its generated entry, an npurt_kernel_entry. Modules are process-wide: every
// device of such a driver runs the same host code, so one load serves them all.
#pragma once

#include "hal/kernel_module.h"

namespace npurt::drivers::host {

const hal::KernelLoader* KernelLoader();

}  // namespace npurt::drivers::host
