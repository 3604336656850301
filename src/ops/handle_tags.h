// The handle tags of the operator layer's objects (tensor descriptors, operator attributes; base/handle.h).
#pragma once

#include "base/handle.h"

namespace npurt::handle_tags {

inline constexpr HandleTag kTensorDesc{0x54445331};  // "TDS1"
inline constexpr HandleTag kOpAttr{0x4f504131};  // "OPA1"

// Every tag above (tests/unit/handle_tags_test.cc checks that no two tags of any layer share a value).
inline constexpr HandleTag kOpsTags[] = {
    kTensorDesc, kOpAttr,
};

}  // namespace npurt::handle_tags
