// Single-operator models (atc --singleop) for aclopSetModelDir and aclopLoad: each file is verified as an
// npurt .om (models/om/om_reader.h), must be a single-operator model (models/om/single_op.h), and its
// operator is compiled into the op compile cache, so that the first aclopExecuteV2 with the same type,
// descriptors and attributes finds it compiled. npurt compiles built-in operators on demand, so an
// operator without a model still runs (CANN would answer ACL_ERROR_OP_NOT_FOUND). Private to npurt.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/op_models.h is private to the npurt runtime"
#endif

#include <cstddef>
#include <string>
#include <string_view>

#include "base/status.h"

namespace npurt::api {

// Every regular file named *.om directly in `dir`, in name order. Errors: ACL_ERROR_READ_MODEL_FAILURE for a
// path that is no readable directory, ACL_ERROR_REPEAT_INITIALIZE once a directory was loaded (CANN allows one
// per process), ACL_ERROR_PARSE_MODEL for a file that is not a valid single-operator model,
// ACL_ERROR_OP_LOAD_FAILED for an operator that does not compile. `loaded` gets the number of models.
Status LoadOpModelDir(const char* dir, size_t* loaded);

// One single-operator model image (aclopLoad).
Status LoadOpModel(const void* data, size_t size, std::string_view source);

}  // namespace npurt::api
