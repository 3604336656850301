// The options of aclrtcCompileProg, checked before the compiler runs: what npurt-ascc gets, or why an
// option is refused (ACL_ERROR_RTC_INVALID_OPTION, with the reason also written to the compile log).
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "core/rtc/rtc_options.h is private to the npurt runtime"
#endif

#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::core::rtc {

// `options` as npurt-ascc takes them. Refused: an --npu-arch the sim does not have (Ascend 950's
// dav-3510 ...), and the options that would change what the compile produces (-o, -c, -E, -S, -M*, -x,
// -shared, npurt-ascc's own --npurt-*). The rest goes through: -I, -D, -U, -std=, -O (the compiler's), and
// CANN's options without meaning on the sim (--cce-*, -mllvm ...), which npurt-ascc drops.
StatusOr<std::vector<std::string>> CheckOptions(const std::vector<std::string>& options);

}  // namespace npurt::core::rtc
