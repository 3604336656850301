// Stream activation inside a model instance being built (aclmdlRIBindStream): aclrtActiveStream and
// aclrtSwitchStream (src/api/label.cc) record into the model when the stream is bound to one that is
// being built, and act on plain streams otherwise.
#pragma once

#include "acl/acl_rt.h"
#include "base/status.h"
#include "core/stream.h"

namespace npurt::api {

bool BuildingModel(npurt::core::Stream* s);
npurt::Status ModelActivateStream(npurt::core::Stream* s, npurt::core::Stream* target);
// on_true / on_false may be null (nothing is activated on that outcome).
npurt::Status ModelSwitchStream(npurt::core::Stream* s, void* left, aclrtCondition cond, void* right,
                                aclrtCompareDataType type, npurt::core::Stream* on_true,
                                npurt::core::Stream* on_false);

}  // namespace npurt::api
