// The `acl` module: CANN's pyACL tree (acl, acl.rt, acl.mdl, acl.op, acl.util, acl.prof, acl.blas), each
// submodule also registered in sys.modules so that `from acl import rt` and `import acl.rt` work.
#include <pybind11/pybind11.h>

#include "pyacl.h"

namespace pyacl {
namespace {

// Video (acl.media's vdec_* and venc_*), DVPP V2 (acl.himpi) and feature retrieval (acl.fv) have no C
// implementation in npurt: the names are there, and any function looked up raises NotImplementedError
// saying so, rather than an AttributeError that reads like a typo.
void DefineRefusingModule(py::module_& acl, const char* name, const char* what, const char* instead) {
  py::module_ sub = py::hasattr(acl, name) ? py::module_(acl.attr(name)) : acl.def_submodule(name, what);
  std::string message = std::string("acl.") + name + " (" + what + ") is not supported by npurt: " + instead +
                        " See docs/python.md.";
  sub.attr("__getattr__") = py::cpp_function([message](const std::string& attr) -> py::object {
    if (attr.size() > 4 && attr.compare(0, 2, "__") == 0) {  // dunder lookups (pickling, inspection)
      throw py::attribute_error(attr);
    }
    PyErr_SetString(PyExc_NotImplementedError, (message + " (" + attr + ")").c_str());
    throw py::error_already_set();
  });
}

}  // namespace

void DefineUnsupported(py::module_& acl) {
  DefineRefusingModule(acl, "media", "video: vdec_*, venc_*",
                       "video decoding and encoding are not simulated; decode streams on the host (FFmpeg, OpenCV).");
  DefineRefusingModule(acl, "himpi", "DVPP V2: hi_mpi_*",
                       "DVPP V2 is not simulated; use DVPP V1 (acl.media.dvpp_*).");
  DefineRefusingModule(acl, "fv", "feature-vector retrieval", "the simulated NPU has no retrieval engine.");
}

}  // namespace pyacl

PYBIND11_MODULE(acl, m) {
  namespace py = pybind11;
  m.doc() = "pyACL for npurt: CANN's AscendCL Python API on npurt's runtime (docs/python.md)";
  pyacl::DefineTop(m);
  struct Sub {
    const char* name;
    const char* doc;
    void (*define)(py::module_&);
  };
  const Sub subs[] = {
      {"rt", "runtime: devices, contexts, streams, events, memory", pyacl::DefineRt},
      {"mdl", "offline models", pyacl::DefineMdl},
      {"op", "single operators", pyacl::DefineOp},
      {"util", "pointers, bytes and numpy; threads", pyacl::DefineUtil},
      {"prof", "profiling", pyacl::DefineProf},
      {"blas", "CBLAS", pyacl::DefineBlas},
      {"media", "DVPP V1: image decoding, encoding and the VPC (dvpp_*)", pyacl::DefineMedia},
  };
  py::object modules = py::module_::import("sys").attr("modules");
  for (const Sub& sub : subs) {
    py::module_ child = m.def_submodule(sub.name, sub.doc);
    sub.define(child);
    modules[py::str(std::string("acl.") + sub.name)] = child;
  }
  pyacl::DefineUnsupported(m);
  for (const char* name : {"himpi", "fv"}) {
    modules[py::str(std::string("acl.") + name)] = m.attr(name);
  }
}
