// the SIMT API (simt_api/asc_simt.h) belongs to Ascend 950 (dav-3510), whose programming model npurt's simulated NPU
// (dav-2201, Atlas A2) does not have. Including it stops the build with that reason (docs/kernels.md lists what is
// simulated).
#pragma once
#error "npurt: the SIMT API (simt_api/asc_simt.h) is Ascend 950 (dav-3510) only and is not simulated; npurt simulates dav-2201 (Atlas A2)"
