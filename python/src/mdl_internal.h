// What the acl.mdl files share: the dict form of aclmdlIODims and the two halves of DefineMdl.
#pragma once

#include "pyacl.h"

namespace pyacl {

// {"name", "dimCount", "dims"}: CANN's dict of an aclmdlIODims (dims cut at dimCount, bounded by the array).
py::dict IODimsDict(const aclmdlIODims& dims);

void DefineMdlModels(py::module_& mdl);   // load, query, describe, datasets, execute, configs (mdl.cc)
void DefineMdlDynamic(py::module_& mdl);  // gears, AIPP, dump, bundles, op descs (mdl_dynamic.cc)

}  // namespace pyacl
