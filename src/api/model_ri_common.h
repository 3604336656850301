// Handle resolution shared by the model running instance entry points (model_ri*.cc). Private.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/model_ri_common.h is private to the npurt runtime"
#endif

#include "acl/acl.h"
#include "base/status.h"
#include "core/model_ri/model_ri.h"

namespace npurt::api {

StatusOr<core::ModelRI*> ResolveModelRI(aclmdlRI model);
StatusOr<core::ModelRITaskHandle*> ResolveModelRITask(aclmdlRITask task);

}  // namespace npurt::api
