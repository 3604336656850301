// acl.rt: CANN's runtime submodule, defined area by area (rt_defs.h lists the files).
#include "rt_defs.h"

namespace pyacl {

void DefineRt(py::module_& rt) {
  rt::DefineDevice(rt);
  rt::DefineContext(rt);
  rt::DefineStream(rt);
  rt::DefineEvent(rt);
  rt::DefineMemory(rt);
  rt::DefineVmm(rt);
  rt::DefineCallback(rt);
  rt::DefineKernel(rt);
  rt::DefineAllocator(rt);
}

}  // namespace pyacl
