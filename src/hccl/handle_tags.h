// The handle tag of the collective layer's objects (base/handle.h).
#pragma once

#include "base/handle.h"

namespace npurt::handle_tags {

inline constexpr HandleTag kHcclComm{0x48434331};  // "HCC1": HcclComm

inline constexpr HandleTag kHcclTags[] = {kHcclComm};

}  // namespace npurt::handle_tags
